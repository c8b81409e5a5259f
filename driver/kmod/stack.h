/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stack.h - the call stack of a syscall (--stacks) in the module: stack.c.
 */
#ifndef KMOD_STACK_H
#define KMOD_STACK_H

#include "fill.h"

/* Fill a PPME_STACK_E event of the current task (f->regs, time f->ts):
 * user frames, the user stack top, with_kernel: the kernel frames.
 * Returns its length or a negative errno (too large). */
int kmod_fill_stack(struct kfill *f, u16 with_kernel);

#endif
