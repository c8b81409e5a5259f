// SPDX-License-Identifier: GPL-2.0
/*
 * probe.bpf.c - the CO-RE eBPF capture driver.
 *
 * One hook on raw_syscalls:sys_exit does all syscall work: it drops the
 * capturing process and unselected syscalls, then either writes the generic
 * enter+exit pair straight into the CPU's ring (fast path, one reserve,
 * ring.bpf.h) or tail-calls the filler of the syscall's event pair, which
 * builds both events in the per-CPU scratch area and copies them into the
 * ring.  sched_process_exit gives procexit; sched_process_exec keeps the
 * execve filename (the registers are gone when execve returns).
 * The layout of everything written is driver/event_format.h.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_endian.h>
/* vmlinux.h has the fixed-width types: skip the C library stdint.h */
#define __CLANG_STDINT_H
#include "event_format.h"
#include "syscall_table.h"
#include "ppm_flags.bpf.h"
#include "builder.bpf.h"

char LICENSE[] SEC("license") = "GPL";

/* per-CPU scratch, max_entries set to the number of CPUs by userspace */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct scratch);
} scratch_map SEC(".maps");

/* fillers, indexed by enter event id */
struct {
	__uint(type, BPF_MAP_TYPE_PROG_ARRAY);
	__uint(max_entries, PPM_EVENT_MAX);
	__type(key, __u32);
	__type(value, __u32);
} fillers SEC(".maps");

/* execve filename kept by sched_process_exec until execve returns */
struct exec_name {
	char name[MAX_STR];
};

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 1024);
	__type(key, __u32);
	__type(value, struct exec_name);
} exec_names SEC(".maps");

/* enter time of the thread's current syscall (precise enter mode) */
struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, __u64);
} enter_ts SEC(".maps");

struct scap_bpf_settings settings;
struct scap_bpf_counters counters[SCAP_BPF_MAX_CPUS];

#include "ring.bpf.h"

static __always_inline __u64 now_ns(void)
{
	return bpf_ktime_get_boot_ns() + settings.boot_epoch_ns;
}

/*
 * The comm filter (SCAP_BPF_F_COMM): is task t, or its thread group leader,
 * named settings.comm?  Names are compared on the bytes of settings.comm up
 * to its NUL (comm_mask), two 8-byte words each.
 */
static __always_inline int comm_is(__u64 w0, __u64 w1)
{
	return !(((w0 ^ settings.comm[0]) & settings.comm_mask[0]) |
		 ((w1 ^ settings.comm[1]) & settings.comm_mask[1]));
}

/* t is a BTF pointer: comm is read with plain loads, no helper call */
static __always_inline int task_named(struct task_struct *t)
{
	const __u64 *n = (const __u64 *)t->comm;

	if (comm_is(n[0], n[1]))
		return 1;
	n = (const __u64 *)t->group_leader->comm;
	return comm_is(n[0], n[1]);
}

/* 1: the comm filter keeps task t out of the capture */
static __always_inline int comm_filtered(struct task_struct *t)
{
	return (settings.flags & SCAP_BPF_F_COMM) && !task_named(t);
}

/* PPME_DROP_E at the first drop, PPME_DROP_X now: one record */
struct drop_evt {
	__u64 ts;
	__u64 tid;
	__u32 len;
	__u16 type;
	__u32 nparams;
	__u16 plen;
	__u32 ratio;
} __attribute__((packed));

static __always_inline void flush_drops(__u32 cpu, struct scap_bpf_counters *c,
					__u64 ts, __u64 tid)
{
	struct drop_evt d[2] = {};

	d[0].ts = c->drop_ts;
	d[1].ts = ts;
	d[0].tid = d[1].tid = tid;
	d[0].len = d[1].len = sizeof(d[0]);
	d[0].type = PPME_DROP_E;
	d[1].type = PPME_DROP_X;
	d[0].nparams = d[1].nparams = 1;
	d[0].plen = d[1].plen = 4;
	d[0].ratio = d[1].ratio = 1;
	if (!ring_output(cpu, d, sizeof(d)))
		c->in_drop = 0;
}

static __always_inline void count_drop(struct scap_bpf_counters *c, __u64 ts, __u32 n)
{
	c->n_drops_buffer += n;
	if (!c->in_drop) {
		c->in_drop = 1;
		c->drop_ts = ts;
	}
}

/*
 * The generic enter (ID, nativeID) + exit (ID) pair, 34 + 30 bytes, laid
 * out with naturally aligned fields so it is filled with plain stores.
 */
struct generic_rec {
	__u64 e_ts;
	__u64 e_tid;
	__u32 e_len;
	__u16 e_type;
	__u16 e_np[2];
	__u16 e_plen[2];
	__u16 e_id;
	__u16 e_native;
	__u16 x_ts0;
	__u32 x_ts1;
	__u16 x_ts2;
	__u16 x_tid0;
	__u32 x_tid1;
	__u16 x_tid2;
	__u16 x_len[2];
	__u16 x_type;
	__u16 x_np[2];
	__u16 x_plen;
	__u16 x_id;
};

_Static_assert(sizeof(struct generic_rec) == 64, "generic record layout");

static __always_inline int emit_generic(__u32 cpu, struct scap_bpf_counters *c, __u64 ets,
					__u64 ts, __u64 tid, __u16 sc, __u16 nr)
{
	struct ring_rec rec;
	struct generic_rec *r = (void *)ring_reserve(&rec, cpu, sizeof(*r));

	if (!r) {
		count_drop(c, ts, 2);
		return 0;
	}
	r->e_ts = ets;
	r->e_tid = tid;
	r->e_len = 34;
	r->e_type = PPME_GENERIC_E;
	r->e_np[0] = 2;
	r->e_np[1] = 0;
	r->e_plen[0] = 2;
	r->e_plen[1] = 2;
	r->e_id = sc;
	r->e_native = nr;
	r->x_ts0 = ts;
	r->x_ts1 = ts >> 16;
	r->x_ts2 = ts >> 48;
	r->x_tid0 = tid;
	r->x_tid1 = tid >> 16;
	r->x_tid2 = tid >> 48;
	r->x_len[0] = 30;
	r->x_len[1] = 0;
	r->x_type = PPME_GENERIC_X;
	r->x_np[0] = 1;
	r->x_np[1] = 0;
	r->x_plen = 2;
	r->x_id = sc;
	ring_commit(&rec);
	c->n_written += 2;
	return 0;
}

static __always_inline struct scratch *get_scratch(__u32 cpu)
{
	return bpf_map_lookup_elem(&scratch_map, &cpu);
}

SEC("tp_btf/sys_exit")
int BPF_PROG(sys_exit, struct pt_regs *regs, long ret)
{
	__u64 pid_tgid = bpf_get_current_pid_tgid();
	const struct syscall_evt_pair *p;
	struct scap_bpf_counters *c;
	struct task_struct *task;
	struct scratch *s;
	__u64 nr, ts, ets;
	__u32 cpu;
	__u8 m;

	if ((__u32)(pid_tgid >> 32) == settings.self_tgid || !settings.enabled)
		return 0;
	nr = regs->orig_ax;
	if (nr >= SYSCALL_TABLE_SIZE)
		return 0;
	m = settings.syscall_mask[nr];
	if (!m)
		return 0;
	/* ia32 syscalls have other numbers: not in our table */
	task = bpf_get_current_task_btf();
	if (task->thread_info.status & LX_TS_COMPAT)
		return 0;
	cpu = bpf_get_smp_processor_id();
	c = &counters[cpu & (SCAP_BPF_MAX_CPUS - 1)];
	if (!(m & SCAP_BPF_SC_LIFECYCLE) && comm_filtered(task)) {
		c->n_suppressed += 2;
		return 0;
	}
	c->n_evts += 2;
	ts = now_ns();
	ets = ts;
	if (settings.flags & SCAP_BPF_F_PRECISE_ENTER) {
		__u64 *p = bpf_task_storage_get(&enter_ts, bpf_get_current_task_btf(), 0, 0);

		if (p && *p) {
			ets = *p;
			*p = 0;
		}
	}
	if (c->in_drop)
		flush_drops(cpu, c, ts, (__u32)pid_tgid);
	p = &g_syscall_table[nr];
	if (p->kind == 1) {
		s = get_scratch(cpu);
		if (s) {
			s->c.ts = ts;
			s->c.ets = ets;
			s->c.tid = (__u32)pid_tgid;
			s->c.args[0] = regs->di;
			s->c.args[1] = regs->si;
			s->c.args[2] = regs->dx;
			s->c.args[3] = regs->r10;
			s->c.args[4] = regs->r8;
			s->c.args[5] = regs->r9;
			s->c.ret = ret;
			s->c.nr = nr;
			s->c.cpu = cpu;
			s->c.enter_type = p->enter_event;
			s->c.exit_type = p->exit_event;
			bpf_tail_call(ctx, &fillers, p->enter_event);
		}
		/* no filler for this pair: fall back to the generic events */
	}
	return emit_generic(cpu, c, ets, ts, (__u32)pid_tgid, p->ppm_sc, nr);
}

/* precise enter mode only (attached by userspace on request) */
SEC("tp_btf/sys_enter")
int BPF_PROG(sys_enter, struct pt_regs *regs, long id)
{
	__u64 *p;

	if ((__u32)(bpf_get_current_pid_tgid() >> 32) == settings.self_tgid || !settings.enabled)
		return 0;
	if ((__u64)id >= SYSCALL_TABLE_SIZE || !settings.syscall_mask[id])
		return 0;
	p = bpf_task_storage_get(&enter_ts, bpf_get_current_task_btf(), 0,
				 BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (p)
		*p = now_ns();
	return 0;
}

/* ---- filler plumbing ---- */

static __always_inline int filler_start(struct bld *b)
{
	__u32 cpu = bpf_get_smp_processor_id();

	b->s = get_scratch(cpu);
	b->off = 0;
	b->evt = 0;
	b->idx = 0;
	b->err = 0;
	return b->s ? 0 : -1;
}

static __always_inline int filler_submit(struct bld *b)
{
	struct scratch *s = b->s;
	struct scap_bpf_counters *c = &counters[s->c.cpu & (SCAP_BPF_MAX_CPUS - 1)];
	__u32 n = b->off;

	if (b->err || n > SCAP_BPF_SCRATCH_SIZE - 1 || !n) {
		c->n_drops_scratch += 2;
		return 0;
	}
	if (ring_output(s->c.cpu, s->buf, BOUND(n, 65535)))
		count_drop(c, s->c.ts, 2);
	else
		c->n_written += 2;
	return 0;
}

#include "fill_simple.bpf.h"
#include "fill_io.bpf.h"
#include "fill_net.bpf.h"
#include "fill_proc.bpf.h"
#include "fill_misc.bpf.h"
#include "fill_sched.bpf.h"

/* ---- non-syscall events ---- */

SEC("tp_btf/sched_process_exit")
int BPF_PROG(sched_process_exit, struct task_struct *p)
{
	__u32 tgid = BPF_CORE_READ(p, tgid);
	struct scap_bpf_counters *c;
	struct bld b;
	__s32 code;
	__u64 nr;

	if (tgid == settings.self_tgid || !settings.enabled)
		return 0;
	if (filler_start(&b))
		return 0;
	b.s->c.cpu = bpf_get_smp_processor_id();
	b.s->c.ts = now_ns();
	b.s->c.ets = b.s->c.ts;
	b.s->c.tid = BPF_CORE_READ(p, pid);
	c = &counters[b.s->c.cpu & (SCAP_BPF_MAX_CPUS - 1)];
	c->n_evts++;
	if (c->in_drop)
		flush_drops(b.s->c.cpu, c, b.s->c.ts, b.s->c.tid);
	code = BPF_CORE_READ(p, exit_code);
	/* exit and exit_group never return: their enter event comes from here */
	nr = BPF_CORE_READ((struct pt_regs *)bpf_task_pt_regs(p), orig_ax);
	if ((nr == 60 || nr == 231) && settings.syscall_mask[nr]) {
		begin_evt(&b, PPME_GENERIC_E, 2);
		push_u16(&b, g_syscall_table[nr].ppm_sc);
		push_u16(&b, nr);
		end_evt(&b);
		c->n_evts++;
	}
	begin_evt(&b, PPME_PROCEXIT_1_E, 4);
	push_u64(&b, (__s64)code);
	push_u64(&b, (__s64)((code >> 8) & 0xff));
	push_u8(&b, code & 0x7f);
	push_u8(&b, (code & 0x80) ? 1 : 0);
	end_evt(&b);
	if (b.err)
		return 0;
	if (ring_output(b.s->c.cpu, b.s->buf, BOUND(b.off, 255)))
		count_drop(c, b.s->c.ts, b.evt ? 2 : 1);
	else
		c->n_written += b.evt ? 2 : 1;
	return 0;
}

SEC("tp_btf/sched_process_exec")
int BPF_PROG(sched_process_exec, struct task_struct *p, pid_t old_pid, struct linux_binprm *bprm)
{
	__u32 tid = BPF_CORE_READ(p, pid);
	__u32 cpu = bpf_get_smp_processor_id();
	struct scratch *s;

	if (BPF_CORE_READ(p, tgid) == settings.self_tgid || !settings.enabled)
		return 0;
	s = get_scratch(cpu);
	if (!s)
		return 0;
	/* build the value in scratch (too big for the stack) */
	if (bpf_probe_read_kernel_str(s->tmp, MAX_STR, BPF_CORE_READ(bprm, filename)) <= 0)
		return 0;
	bpf_map_update_elem(&exec_names, &tid, s->tmp, BPF_ANY);
	return 0;
}
