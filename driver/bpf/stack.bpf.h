/*
 * stack.bpf.h - the call stack of a syscall (--stacks): PPME_STACK_E.
 *
 * For the syscalls flagged SCAP_BPF_SC_STACK, a stack event goes into the
 * CPU's ring right before the syscall's enter event (sys_enter; in exit-only
 * mode before the pair, at sys_exit), with the same time and thread:
 * the user return addresses (bpf_get_stack, BPF_F_USER_STACK: the kernel's
 * frame pointer walk from the user registers), the first
 * SCAP_STACK_TOP_BYTES of the user stack from sp (userspace finds there the
 * return address of a leaf that set up no frame) and, with
 * SCAP_BPF_F_KSTACK, the kernel return addresses.  The event is built in the per-CPU scratch's tmp area (the
 * filler that runs next uses buf).  Layout: driver/ext_events.tsv,
 * userspace: userspace/libsinsp/stacks.c.
 */
#ifndef STACK_BPF_H
#define STACK_BPF_H

#define STACK_USER_BYTES (SCAP_STACK_USER_FRAMES * 8)
#define STACK_KERNEL_BYTES (SCAP_STACK_KERNEL_FRAMES * 8)
#define STACK_HDR (PPM_EVT_HDR_LEN + 3 * 2)

static __always_inline void emit_stack(void *ctx, struct hook_ctx *h, struct pt_regs *regs)
{
	struct scratch *s = get_scratch(h->cpu);
	__u64 off, n;
	long r;
	__u8 *p;

	if (!s)
		return;
	p = s->tmp;
	*(__u64 *)p = h->ts;
	*(__u64 *)(p + 8) = h->tid;
	*(__u16 *)(p + 20) = PPME_STACK_E;
	*(__u32 *)(p + 22) = 3;
	r = bpf_get_stack(ctx, p + STACK_HDR, STACK_USER_BYTES, BPF_F_USER_STACK);
	n = r > 0 ? BOUND(r, 1023) : 0;
	*(__u16 *)(p + PPM_EVT_HDR_LEN) = n;
	off = STACK_HDR + n;
	n = bpf_probe_read_user(p + BOUND(off, 2047), SCAP_STACK_TOP_BYTES, (void *)regs->sp) ? 0 :
									       SCAP_STACK_TOP_BYTES;
	*(__u16 *)(p + PPM_EVT_HDR_LEN + 2) = n;
	off += n;
	r = 0;
	if (settings.flags & SCAP_BPF_F_KSTACK)
		r = bpf_get_stack(ctx, p + BOUND(off, 2047), STACK_KERNEL_BYTES, 0);
	n = r > 0 ? BOUND(r, 511) : 0;
	*(__u16 *)(p + PPM_EVT_HDR_LEN + 4) = n;
	off += n;
	*(__u32 *)(p + 16) = off;
	output_evts(h->cpu, h->c, h->ts, p, BOUND(off, 4095), 1);
}

/* the stack of syscall nr, when --stacks selected it */
static __always_inline void stack_hook(void *ctx, struct hook_ctx *h, struct pt_regs *regs, __u64 nr)
{
	if (settings.syscall_mask[BOUND(nr, 511)] & SCAP_BPF_SC_STACK)
		emit_stack(ctx, h, regs);
}

#endif
