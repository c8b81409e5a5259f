/*
 * fill_sched.bpf.h - the non-syscall tracepoint events with a fixed layout:
 * switch (sched_switch, attached by default as the reference driver does),
 * signaldeliver (signal_deliver, on by default too) and page_fault
 * (page_fault_user/kernel, attached only on request, sysdig --page-faults).
 * Each event is one record built on the stack.
 * Included by probe.bpf.c after its maps, counters and drop helpers.
 */
#ifndef FILL_SCHED_BPF_H
#define FILL_SCHED_BPF_H

/* x86 page fault error code bits (arch/x86/include/asm/trap_pf.h) */
#define LX_PF_PROT 0x1
#define LX_PF_WRITE 0x2
#define LX_PF_USER 0x4
#define LX_PF_RSVD 0x8
#define LX_PF_INSTR 0x10

/* PPM_PF_*: ppm_flags.h (flags.tsv pf_flags) */

/* PPME_SCHEDSWITCH_6_E: next, pgft_maj, pgft_min, vm_size, vm_rss, vm_swap */
struct switch_evt {
	struct ppm_evt_hdr hdr;
	__u16 plen[6];
	__s64 next;
	__u64 pgft_maj;
	__u64 pgft_min;
	__u32 vm[3];
} __attribute__((packed));

/* PPME_PAGE_FAULT_E: addr, ip, error (pf_flags) */
struct pf_evt {
	struct ppm_evt_hdr hdr;
	__u16 plen[3];
	__u64 addr;
	__u64 ip;
	__u32 error;
} __attribute__((packed));

/* PPME_SIGNALDELIVER_E: spid, dpid, sig */
struct signal_evt {
	struct ppm_evt_hdr hdr;
	__u16 plen[3];
	__s64 spid;
	__s64 dpid;
	__u8 sig;
} __attribute__((packed));

/* the header of a fixed-size event (its struct begins with it), stamped now */
static __always_inline void fixed_hdr(struct ppm_evt_hdr *h, __u64 tid, __u16 type, __u32 nparams)
{
	h->ts = now_ns();
	h->tid = tid;
	h->type = type;
	h->nparams = nparams;
}

/* one fixed-size event of len bytes, starting with its header h, into the
 * current CPU's ring */
static __always_inline void emit_fixed(struct ppm_evt_hdr *h, __u32 len)
{
	__u32 cpu = bpf_get_smp_processor_id();
	struct scap_bpf_counters *c = &counters[cpu & (SCAP_BPF_MAX_CPUS - 1)];

	h->len = len;
	if (c->in_drop)
		flush_drops(cpu, c, h->ts, h->tid);
	output_evts(cpu, c, h->ts, h, len, 1);
}

/* the counters of this CPU */
static __always_inline struct scap_bpf_counters *cpu_counters(void)
{
	return &counters[bpf_get_smp_processor_id() & (SCAP_BPF_MAX_CPUS - 1)];
}

/*
 * The current task's pid_tgid when its events are captured (capture on,
 * not the capturing process, selected: select.bpf.h), else 0
 */
static __always_inline __u64 current_captured(void)
{
	__u64 pid_tgid = bpf_get_current_pid_tgid();

	if (!settings.enabled || (__u32)(pid_tgid >> 32) == settings.self_tgid)
		return 0;
	if (task_dropped(bpf_get_current_task_btf(), 0, cpu_counters(), 1))
		return 0;
	return pid_tgid;
}

/*
 * tid = the thread going off the CPU, next = the incoming one; the counters
 * are those of the outgoing thread, next=0 for the idle task, as the
 * reference driver (and the kernel module) writes it.  The idle task's own
 * switches are not reported, nor, unlike the reference, the capturing
 * process's own (its polling would feed back into the capture).
 */
SEC("tp_btf/sched_switch")
int BPF_PROG(sched_switch, bool preempt, struct task_struct *prev, struct task_struct *next)
{
	struct switch_evt e;
	__u32 i;

	if (!settings.enabled || !prev->pid || prev->tgid == settings.self_tgid)
		return 0;
	if (task_dropped(prev, 0, cpu_counters(), 1))
		return 0;
	fixed_hdr(&e.hdr, prev->pid, PPME_SCHEDSWITCH_6_E, 6);
	e.plen[0] = e.plen[1] = e.plen[2] = 8;
	e.plen[3] = e.plen[4] = e.plen[5] = 4;
	e.next = next->pid;
	e.pgft_maj = prev->maj_flt;
	e.pgft_min = prev->min_flt;
	for (i = 0; i < 3; i++)
		e.vm[i] = task_vm_kb(prev, i);
	emit_fixed(&e.hdr, sizeof(e));
	return 0;
}

#define LX_SIGHUP 1
#define LX_SIGINT 2
#define LX_SIGQUIT 3
#define LX_SIGKILL 9
#define LX_SIGTERM 15
#define LX_SIGCHLD 17
#define LX_SIGTSTP 20
#define LX_SIGRTMIN 32
#define LX_SIGRTMAX 64
#define LX_SI_USER 0

/*
 * The sender, by the reference driver's rules: the siginfo pid for SIGKILL,
 * SIGCHLD and real-time signals, and for SIGTERM/HUP/INT/TSTP/QUIT sent by
 * a process (si_code <= 0: SI_USER, SI_QUEUE, ...); else 0.  info values 0
 * and 1 are SEND_SIG_NOINFO and SEND_SIG_PRIV, not pointers.
 */
static __always_inline __s64 signal_sender(int sig, struct kernel_siginfo *info)
{
	if ((unsigned long)info <= 1)
		return 0;
	switch (sig) {
	case LX_SIGTERM:
	case LX_SIGHUP:
	case LX_SIGINT:
	case LX_SIGTSTP:
	case LX_SIGQUIT:
		if (BPF_CORE_READ(info, si_code) > LX_SI_USER)
			return 0;
		/* fall through */
	case LX_SIGKILL:
	case LX_SIGCHLD:
		return BPF_CORE_READ(info, _sifields._kill._pid);
	}
	if (sig >= LX_SIGRTMIN && sig <= LX_SIGRTMAX)
		return BPF_CORE_READ(info, _sifields._rt._pid);
	return 0;
}

/* a signal delivered to the current thread (tid = dpid = the receiver) */
SEC("tp_btf/signal_deliver")
int BPF_PROG(signal_deliver, int sig, struct kernel_siginfo *info, struct k_sigaction *ka)
{
	__u64 pid_tgid = current_captured();
	struct signal_evt e;

	if (!pid_tgid)
		return 0;
	fixed_hdr(&e.hdr, (__u32)pid_tgid, PPME_SIGNALDELIVER_E, 3);
	e.plen[0] = e.plen[1] = 8;
	e.plen[2] = 1;
	e.spid = signal_sender(sig, info);
	e.dpid = (__u32)pid_tgid;
	e.sig = sig;
	emit_fixed(&e.hdr, sizeof(e));
	return 0;
}

static __always_inline __u32 pf_flags_to_ppm(unsigned long err)
{
	__u32 f = 0;

	f |= (err & LX_PF_PROT) ? PPM_PF_PROTECTION_VIOLATION : PPM_PF_PAGE_NOT_PRESENT;
	f |= (err & LX_PF_WRITE) ? PPM_PF_WRITE_ACCESS : PPM_PF_READ_ACCESS;
	f |= (err & LX_PF_USER) ? PPM_PF_USER_FAULT : PPM_PF_SUPERVISOR_FAULT;
	if (err & LX_PF_RSVD)
		f |= PPM_PF_RESERVED_PAGE;
	if (err & LX_PF_INSTR)
		f |= PPM_PF_INSTRUCTION_FETCH;
	return f;
}

static __always_inline int page_fault(unsigned long addr, struct pt_regs *regs, unsigned long err)
{
	__u64 pid_tgid = current_captured();
	struct pf_evt e;

	if (!pid_tgid)
		return 0;
	fixed_hdr(&e.hdr, (__u32)pid_tgid, PPME_PAGE_FAULT_E, 3);
	e.plen[0] = e.plen[1] = 8;
	e.plen[2] = 4;
	e.addr = addr;
	e.ip = regs->ip;
	e.error = pf_flags_to_ppm(err);
	emit_fixed(&e.hdr, sizeof(e));
	return 0;
}

SEC("tp_btf/page_fault_user")
int BPF_PROG(page_fault_user, unsigned long addr, struct pt_regs *regs, unsigned long err)
{
	return page_fault(addr, regs, err);
}

SEC("tp_btf/page_fault_kernel")
int BPF_PROG(page_fault_kernel, unsigned long addr, struct pt_regs *regs, unsigned long err)
{
	return page_fault(addr, regs, err);
}

#endif
