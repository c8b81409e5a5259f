// SPDX-License-Identifier: GPL-2.0
/*
 * stack.c - the call stack of a syscall (--stacks): PPME_STACK_E, as the
 * eBPF driver writes it (driver/bpf/stack.bpf.h, layout in
 * driver/ext_events.tsv).
 *
 * main.c writes it right before the enter event of a syscall whose event
 * type has KMOD_MASK_STACK, with the same time (kfill.ts).  The user frames
 * are a frame-pointer walk from the user registers (copy_from_user_nofault:
 * the probe runs with preemption disabled), the stack top is the first
 * SCAP_STACK_TOP_BYTES from sp (userspace finds there the return address of
 * a leaf without a frame), the kernel frames are stack_trace_save() without
 * the module's own.
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/ptrace.h>
#include <linux/stacktrace.h>
#include <linux/uaccess.h>
#include "event_format.h"
#include "stack.h"

struct user_frame {
	unsigned long next_bp;
	unsigned long ret;
};

/* ip, then the return addresses of the frame chain from bp */
static u32 user_frames(const struct pt_regs *regs, u64 *out, u32 max)
{
	unsigned long bp = regs->bp;
	struct user_frame fr;
	u32 n = 0;

	out[n++] = regs->ip;
	while (n < max && bp && !(bp & 7)) {
		if (copy_from_user_nofault(&fr, (const void __user *)bp, sizeof(fr)) || !fr.ret)
			break;
		out[n++] = fr.ret;
		if (fr.next_bp <= bp)	/* the stack grows down: callers are above */
			break;
		bp = fr.next_bp;
	}
	return n;
}

/* the kernel return addresses above this module's frames */
static u32 kernel_frames(u64 *out, u32 max)
{
	unsigned long pcs[SCAP_STACK_KERNEL_FRAMES + 8];
	unsigned int n = stack_trace_save(pcs, ARRAY_SIZE(pcs), 0), i = 0, k = 0;

	while (i < n && within_module(pcs[i], THIS_MODULE))
		i++;
	for (; i < n && k < max; i++)
		out[k++] = pcs[i];
	return k;
}

int kmod_fill_stack(struct kfill *f, u16 with_kernel)
{
	u32 hlen = PPM_EVT_HDR_LEN + 3 * sizeof(u16), pos = hlen, n;
	u16 lens[3];
	struct ppm_evt_hdr hdr;

	if (f->cap < hlen + SCAP_STACK_USER_FRAMES * 8 + SCAP_STACK_TOP_BYTES +
		     SCAP_STACK_KERNEL_FRAMES * 8)
		return -E2BIG;
	n = user_frames(f->regs, (u64 *)(f->buf + pos), SCAP_STACK_USER_FRAMES);
	lens[0] = n * 8;
	pos += lens[0];
	lens[1] = copy_from_user_nofault(f->buf + pos, (const void __user *)f->regs->sp,
					 SCAP_STACK_TOP_BYTES) ? 0 : SCAP_STACK_TOP_BYTES;
	pos += lens[1];
	n = with_kernel ? kernel_frames((u64 *)(f->buf + pos), SCAP_STACK_KERNEL_FRAMES) : 0;
	lens[2] = n * 8;
	pos += lens[2];
	hdr.ts = f->ts;
	hdr.tid = f->task->pid;
	hdr.len = pos;
	hdr.type = PPME_STACK_E;
	hdr.nparams = 3;
	memcpy(f->buf, &hdr, PPM_EVT_HDR_LEN);
	memcpy(f->buf + PPM_EVT_HDR_LEN, lens, sizeof(lens));
	return pos;
}
