// SPDX-License-Identifier: GPL-2.0
/*
 * probe.bpf.c - the CO-RE eBPF capture driver.
 *
 * raw_syscalls:sys_enter writes each syscall's enter event at entry, with
 * the entry time, and raw_syscalls:sys_exit its exit event (the default,
 * as sysdig's own driver does).  Both drop the capturing process and
 * unselected syscalls first, then either write a generic event straight
 * into the CPU's ring (fast path, one reserve, ring.bpf.h) or tail-call the
 * filler of the syscall's event pair, which builds the event in the per-CPU
 * scratch area and copies it into the ring (call_ctx.phase says which one).
 * In exit-only mode (SCAP_BPF_F_EXIT_ONLY) sys_enter is not attached and
 * sys_exit writes the enter event too, right before the exit, with the exit
 * time.  sched_process_exit gives procexit; in exit-only mode
 * sched_process_exec keeps the execve filename (the user memory is gone
 * when execve returns).
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
#include "fill_table.h"
#include "builder.bpf.h"

char LICENSE[] SEC("license") = "GPL";

/* per-CPU scratch, max_entries set to the number of CPUs by userspace */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct scratch);
} scratch_map SEC(".maps");

/* fillers (sys_exit programs), indexed by enter event id */
struct {
	__uint(type, BPF_MAP_TYPE_PROG_ARRAY);
	__uint(max_entries, PPM_EVENT_MAX);
	__type(key, __u32);
	__type(value, __u32);
} fillers SEC(".maps");

/* the same programs for sys_enter (FILLER in the fillers' section) */
struct {
	__uint(type, BPF_MAP_TYPE_PROG_ARRAY);
	__uint(max_entries, PPM_EVENT_MAX);
	__type(key, __u32);
	__type(value, __u32);
} enter_fillers SEC(".maps");

/* enter time of an execve whose enter event waits for the exit (fill_execve) */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 1024);
	__type(key, __u32);
	__type(value, __u64);
} exec_deferred SEC(".maps");

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

struct scap_bpf_settings settings;
struct scap_bpf_counters counters[SCAP_BPF_MAX_CPUS];

#include "ring.bpf.h"

/*
 * Counters: syscall tracepoints are preemptible on newer kernels, so two
 * of our programs can interleave on one CPU.  Events written are counted
 * inside the ring's busy window (ring_commit_evts: no other program of
 * ours writes this CPU's counters there, plain adds); everything else is
 * added atomically.
 */
static __always_inline void count_add(__u64 *counter, __u64 n)
{
	__sync_fetch_and_add(counter, n);
}

/* publish a reserved record of n events and count them (seen, written) */
static __always_inline void ring_commit_evts(struct ring_rec *r, struct scap_bpf_counters *c, __u32 n)
{
	c->n_evts += n;
	c->n_written += n;
	ring_commit(r);
}

static __always_inline __u64 now_ns(void)
{
	return bpf_ktime_get_boot_ns() + settings.boot_epoch_ns;
}

#include "select.bpf.h"

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

/* n events seen and dropped: the ring was full or busy */
static __always_inline void count_drop(struct scap_bpf_counters *c, __u64 ts, __u32 n)
{
	count_add(&c->n_evts, n);
	count_add(&c->n_drops_buffer, n);
	if (!c->in_drop) {
		c->in_drop = 1;
		c->drop_ts = ts;
	}
}

/* a record of nevts events copied from kernel memory src, counted */
static __always_inline int output_evts(__u32 cpu, struct scap_bpf_counters *c, __u64 ts,
				       const void *src, __u32 n, __u32 nevts)
{
	struct ring_rec r;
	__u8 *p = ring_reserve(&r, cpu, n);

	if (!p) {
		count_drop(c, ts, nevts);
		return -1;
	}
	bpf_probe_read_kernel(p, n, src);
	ring_commit_evts(&r, c, nevts);
	return 0;
}

/*
 * The generic enter (ID, nativeID) + exit (ID) pair, 34 + 30 bytes, laid
 * out with naturally aligned fields so it is filled with plain stores.
 * Written whole in exit-only mode; otherwise its enter event (34 bytes) at
 * sys_enter and struct generic_exit at sys_exit.
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

/* the generic exit event alone (ID), 30 bytes (+ 2 never written); its
 * fields naturally aligned, not packed: a packed struct is written byte by
 * byte (BPF has no unaligned stores), 30 stores instead of 8 */
struct generic_exit {
	__u64 ts;
	__u64 tid;
	__u32 len;
	__u16 type;
	__u16 np[2];
	__u16 plen;
	__u16 id;
	__u16 pad;
};

_Static_assert(sizeof(struct generic_exit) == 32, "generic exit layout");

static __always_inline void fill_generic_enter(struct generic_rec *r, __u64 ts, __u64 tid,
					       __u16 sc, __u16 nr)
{
	r->e_ts = ts;
	r->e_tid = tid;
	r->e_len = 34;
	r->e_type = PPME_GENERIC_E;
	r->e_np[0] = 2;
	r->e_np[1] = 0;
	r->e_plen[0] = 2;
	r->e_plen[1] = 2;
	r->e_id = sc;
	r->e_native = nr;
}

/* a record of n bytes of events (the ring pads it to 8), or NULL: dropped */
static __always_inline void *reserve_evts(struct ring_rec *rec, __u32 cpu,
					  struct scap_bpf_counters *c, __u64 ts, __u32 n,
					  __u32 nevts)
{
	void *r = ring_reserve(rec, cpu, n);

	if (!r)
		count_drop(c, ts, nevts);
	return r;
}

static __always_inline int emit_generic_pair(__u32 cpu, struct scap_bpf_counters *c,
					     __u64 ts, __u64 tid, __u16 sc, __u16 nr)
{
	struct ring_rec rec;
	struct generic_rec *r = reserve_evts(&rec, cpu, c, ts, sizeof(*r), 2);

	if (!r)
		return 0;
	fill_generic_enter(r, ts, tid, sc, nr);
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
	ring_commit_evts(&rec, c, 2);
	return 0;
}

static __always_inline int emit_generic_enter(__u32 cpu, struct scap_bpf_counters *c,
					      __u64 ts, __u64 tid, __u16 sc, __u16 nr)
{
	struct ring_rec rec;
	struct generic_rec *r = reserve_evts(&rec, cpu, c, ts, 34, 1);

	if (!r)
		return 0;
	fill_generic_enter(r, ts, tid, sc, nr);
	ring_commit_evts(&rec, c, 1);
	return 0;
}

static __always_inline int emit_generic_exit(__u32 cpu, struct scap_bpf_counters *c,
					     __u64 ts, __u64 tid, __u16 sc)
{
	struct ring_rec rec;
	struct generic_exit *x = reserve_evts(&rec, cpu, c, ts, 30, 1);

	if (!x)
		return 0;
	x->ts = ts;
	x->tid = tid;
	x->len = 30;
	x->type = PPME_GENERIC_X;
	x->np[0] = 1;
	x->np[1] = 0;
	x->plen = 2;
	x->id = sc;
	ring_commit_evts(&rec, c, 1);
	return 0;
}

static __always_inline struct scratch *get_scratch(__u32 cpu)
{
	return bpf_map_lookup_elem(&scratch_map, &cpu);
}

/*
 * What sys_enter and sys_exit share: which syscalls are captured (not the
 * capturing process, not an ia32 call, in the mask, a selected task: select.bpf.h),
 * their counters, the time and the pending drop markers.  Returns the
 * syscall's table entry, or NULL when the call is not captured.
 */
struct hook_ctx {
	struct scap_bpf_counters *c;
	__u64 ts;
	__u32 tid;
	__u32 cpu;
};

static __always_inline const struct syscall_evt_pair *
captured_syscall(struct hook_ctx *h, __u64 nr, __u32 nevts)
{
	/* the ids from the BTF task pointer (plain loads): each helper call
	 * costs a call and a return thunk on every syscall */
	struct task_struct *task = bpf_get_current_task_btf();
	const struct syscall_evt_pair *p;
	__u64 i;
	__u8 m;

	if (task->tgid == settings.self_tgid || !settings.enabled)
		return NULL;
	/* bounded again right before use: older verifiers (6.1) lose the
	 * bound of a value spilled to the stack before its check */
	i = BOUND(nr, 511);
	if (nr >= SYSCALL_TABLE_SIZE || i >= SYSCALL_TABLE_SIZE)
		return NULL;
	m = settings.syscall_mask[i];
	if (!m)
		return NULL;
	p = &g_syscall_table[i];
	/* ia32 syscalls have other numbers: not in our table */
	if (task->thread_info.status & LX_TS_COMPAT)
		return NULL;
	h->cpu = bpf_get_smp_processor_id();
	h->c = &counters[h->cpu & (SCAP_BPF_MAX_CPUS - 1)];
	if (task_dropped(task, m & SCAP_BPF_SC_LIFECYCLE, h->c, nevts))
		return NULL;
	h->ts = now_ns();
	h->tid = (__u32)task->pid;
	if (h->c->in_drop)
		flush_drops(h->cpu, h->c, h->ts, h->tid);
	return p;
}

#include "stack.bpf.h"

/* the call's context in the scratch area, then its filler (no return) */
static __always_inline void run_filler(void *ctx, struct hook_ctx *h, const struct syscall_evt_pair *p,
				       struct pt_regs *regs, long ret, __u32 phase)
{
	struct scratch *s = get_scratch(h->cpu);

	if (!s)
		return;
	s->c.ts = h->ts;
	s->c.ets = h->ts;
	s->c.tid = h->tid;
	s->c.args[0] = regs->di;
	s->c.args[1] = regs->si;
	s->c.args[2] = regs->dx;
	s->c.args[3] = regs->r10;
	s->c.args[4] = regs->r8;
	s->c.args[5] = regs->r9;
	s->c.ret = ret;
	s->c.nr = regs->orig_ax;
	s->c.cpu = h->cpu;
	s->c.enter_type = p->enter_event;
	s->c.exit_type = p->exit_event;
	s->c.phase = phase;
	if (phase == PHASE_ENTER)
		bpf_tail_call(ctx, &enter_fillers, p->enter_event);
	else
		bpf_tail_call(ctx, &fillers, p->enter_event);
	/* no filler for this pair: the caller writes the generic events */
}

SEC("tp_btf/sys_exit")
int BPF_PROG(sys_exit, struct pt_regs *regs, long ret)
{
	int pair = settings.flags & SCAP_BPF_F_EXIT_ONLY;
	const struct syscall_evt_pair *p;
	struct hook_ctx h;
	__u64 nr = regs->orig_ax;

	p = captured_syscall(&h, nr, pair ? 2 : 1);
	if (!p)
		return 0;
	if (pair)
		stack_hook(ctx, &h, regs, nr);
	if (p->kind == 1)
		run_filler(ctx, &h, p, regs, ret, pair ? PHASE_PAIR : PHASE_EXIT);
	if (pair)
		return emit_generic_pair(h.cpu, h.c, h.ts, h.tid, p->ppm_sc, nr);
	return emit_generic_exit(h.cpu, h.c, h.ts, h.tid, p->ppm_sc);
}

/* the enter events (not attached in exit-only mode) */
SEC("tp_btf/sys_enter")
int BPF_PROG(sys_enter, struct pt_regs *regs, long id)
{
	const struct syscall_evt_pair *p;
	struct hook_ctx h;

	p = captured_syscall(&h, id, 1);
	if (!p)
		return 0;
	stack_hook(ctx, &h, regs, id);
	if (p->kind == 1)
		run_filler(ctx, &h, p, regs, 0, PHASE_ENTER);
	return emit_generic_enter(h.cpu, h.c, h.ts, h.tid, p->ppm_sc, id);
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

/*
 * The built events go into the ring: both in PHASE_PAIR, else the one of
 * the phase.  A filler builds the enter event first; in PHASE_ENTER it
 * submits right after it (filler_enter_done); in PHASE_EXIT, a filler that
 * built the enter event anyway (the values the exit needs are computed
 * with it) has its exit event start where the enter event ends.
 */
static __always_inline int filler_submit(struct bld *b)
{
	struct scratch *s = b->s;
	struct scap_bpf_counters *c = &counters[s->c.cpu & (SCAP_BPF_MAX_CPUS - 1)];
	__u32 n = b->off, from = 0, nevts = s->c.phase == PHASE_PAIR ? 2 : 1;

	/* an enter event (even type) first: its length, in its header */
	if (s->c.phase == PHASE_EXIT && !(*(__u16 *)(s->buf + 20) & 1))
		from = BOUND(*(__u32 *)(s->buf + 16), 65535);
	if (b->err || n > SCAP_BPF_SCRATCH_SIZE - 1 || from >= n) {
		count_add(&c->n_evts, nevts);
		count_add(&c->n_drops_scratch, nevts);
		return 0;
	}
	output_evts(s->c.cpu, c, s->c.ts, s->buf + from, BOUND(n - from, 65535), nevts);
	return 0;
}

/*
 * A filler: one body, two programs.  A tail call only reaches programs of
 * the same hook, so each filler is loaded for sys_exit (NAME, in `fillers`)
 * and for sys_enter (NAME_enter, in `enter_fillers`); in the second the body
 * sees at_enter = 1 and ends once its enter event is built
 * (filler_enter_done), which the compiler cuts the rest of.
 */
#define FILLER(name)							\
	static __always_inline int name##_run(const int at_enter);	\
	SEC("tp_btf/sys_exit")						\
	int BPF_PROG(name, struct pt_regs *regs, long ret)		\
	{								\
		return name##_run(0);					\
	}								\
	SEC("tp_btf/sys_enter")						\
	int BPF_PROG(name##_enter, struct pt_regs *regs, long id)	\
	{								\
		return name##_run(1);					\
	}								\
	static __always_inline int name##_run(const int at_enter)

/* at sys_enter a filler is done once its enter event is built */
#define filler_enter_done(b)					\
	do {							\
		if (at_enter)					\
			return filler_submit(b);		\
	} while (0)

#include "fill_table.bpf.h"
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
	__u32 cpu;
	__s32 code;
	__u64 nr;

	if (tgid == settings.self_tgid || !settings.enabled)
		return 0;
	cpu = bpf_get_smp_processor_id();
	c = &counters[cpu & (SCAP_BPF_MAX_CPUS - 1)];
	if (task_dropped(p, 1, c, 1))
		return 0;
	tree_exit(p);
	if (filler_start(&b))
		return 0;
	b.s->c.cpu = cpu;
	b.s->c.ts = now_ns();
	b.s->c.ets = b.s->c.ts;
	b.s->c.tid = BPF_CORE_READ(p, pid);
	if (c->in_drop)
		flush_drops(b.s->c.cpu, c, b.s->c.ts, b.s->c.tid);
	code = BPF_CORE_READ(p, exit_code);
	/* exit and exit_group never return: in exit-only mode their enter
	 * event comes from here (else sys_enter wrote it) */
	nr = BPF_CORE_READ((struct pt_regs *)bpf_task_pt_regs(p), orig_ax);
	if ((settings.flags & SCAP_BPF_F_EXIT_ONLY) &&
	    (nr == SYSCALL_NR_EXIT || nr == SYSCALL_NR_EXIT_GROUP) && settings.syscall_mask[nr]) {
		begin_evt(&b, PPME_GENERIC_E);
		push_u16(&b, g_syscall_table[nr].ppm_sc);
		push_u16(&b, nr);
		end_evt(&b);
	}
	begin_evt(&b, PPME_PROCEXIT_1_E);
	push_u64(&b, (__s64)code);
	push_u64(&b, (__s64)((code >> 8) & 0xff));
	push_u8(&b, code & 0x7f);
	push_u8(&b, (code & 0x80) ? 1 : 0);
	end_evt(&b);
	if (b.err)
		return 0;
	output_evts(b.s->c.cpu, c, b.s->c.ts, b.s->buf, BOUND(b.off, 255), b.evt ? 2 : 1);
	return 0;
}

/*
 * The execve filename for an enter event written at exit: in exit-only
 * mode, or where it could not be read at entry (exec_deferred)
 */
SEC("tp_btf/sched_process_exec")
int BPF_PROG(sched_process_exec, struct task_struct *p, pid_t old_pid, struct linux_binprm *bprm)
{
	__u32 tid = BPF_CORE_READ(p, pid);
	__u32 cpu = bpf_get_smp_processor_id();
	struct scratch *s;

	if (BPF_CORE_READ(p, tgid) == settings.self_tgid || !settings.enabled)
		return 0;
	if (!(settings.flags & SCAP_BPF_F_EXIT_ONLY) && !bpf_map_lookup_elem(&exec_deferred, &tid))
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
