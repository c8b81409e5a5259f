// SPDX-License-Identifier: GPL-2.0
/*
 * empty_hooks.bpf.c - the floor of syscall tracing: programs that do nothing
 * but count their runs, on the two tracepoints the capture driver needs for
 * every syscall and every context switch (raw_syscalls:sys_enter and
 * sys_exit, sched:sched_switch).  `scripts/bench/overhead --modes empty-hooks`
 * and `scripts/bench/capture` attach them to show what merely being called
 * there costs on a machine (empty_hooks --exit-only: without sys_enter, the
 * hooks of the driver's exit-only mode).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

char LICENSE[] SEC("license") = "GPL";

__u64 runs[3];

SEC("tp_btf/sys_enter")
int BPF_PROG(empty_sys_enter, struct pt_regs *regs, long id)
{
	runs[2]++;
	return 0;
}

SEC("tp_btf/sys_exit")
int BPF_PROG(empty_sys_exit, struct pt_regs *regs, long ret)
{
	runs[0]++;
	return 0;
}

SEC("tp_btf/sched_switch")
int BPF_PROG(empty_sched_switch, bool preempt, struct task_struct *prev,
	     struct task_struct *next)
{
	runs[1]++;
	return 0;
}
