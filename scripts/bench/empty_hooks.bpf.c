// SPDX-License-Identifier: GPL-2.0
/*
 * empty_hooks.bpf.c - the floor of syscall tracing: programs that do nothing
 * but count their runs, on the two tracepoints the capture driver needs for
 * every syscall and every context switch (raw_syscalls:sys_enter and
 * sys_exit, sched:sched_switch).  `scripts/bench/overhead --modes empty-hooks`
 * and `scripts/bench/capture` attach them to show what merely being called
 * there costs on a machine (empty_hooks --exit-only: without sys_enter, the
 * hooks of the driver's exit-only mode).  With `stamp` set (empty_hooks
 * --stamp) each syscall program also takes what any tracer needs for an
 * event, its time and its thread (bpf_ktime_get_boot_ns,
 * bpf_get_current_task_btf), and keeps it: the least a capture that writes
 * timestamped enter and exit events pays, before writing anything.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

char LICENSE[] SEC("license") = "GPL";

__u64 runs[3];
__u64 last[2];

/* 1: take the time and the thread of each syscall event (set by userspace) */
const volatile int stamp = 0;

static __always_inline void take_stamp(int i)
{
	struct task_struct *t;

	if (!stamp)
		return;
	t = bpf_get_current_task_btf();
	last[i] = bpf_ktime_get_boot_ns() + t->pid;
}

SEC("tp_btf/sys_enter")
int BPF_PROG(empty_sys_enter, struct pt_regs *regs, long id)
{
	runs[2]++;
	take_stamp(1);
	return 0;
}

SEC("tp_btf/sys_exit")
int BPF_PROG(empty_sys_exit, struct pt_regs *regs, long ret)
{
	runs[0]++;
	take_stamp(0);
	return 0;
}

SEC("tp_btf/sched_switch")
int BPF_PROG(empty_sched_switch, bool preempt, struct task_struct *prev,
	     struct task_struct *next)
{
	runs[1]++;
	return 0;
}
