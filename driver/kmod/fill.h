/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fill.h - building one event (driver/event_format.h layout) from a probe.
 *
 * main.c collects the probe context into struct kfill and calls
 * kmod_fill_event(); fill.c writes header, length array and values into a
 * scratch buffer following the per-event table of fill_table.h (generated
 * from the fill column of driver/events.tsv).
 */
#ifndef KMOD_FILL_H
#define KMOD_FILL_H

#include <linux/types.h>
#include <linux/sched.h>

struct kfill {
	u8 *buf;		/* output (scratch area) */
	u32 cap;		/* bytes available in buf */
	u32 pos;		/* next value byte */
	u16 *lens;		/* length array inside buf */
	u32 idx;		/* next parameter */
	u32 args_rest;		/* P_EXE: bytes of args that follow exe */
	struct task_struct *task;
	unsigned long args[6];
	long ret;
	u32 snaplen;
	u32 tracer_snaplen;	/* writes to /dev/null (tracers on), else 0 */
	u16 type;		/* the event being filled */
	u16 sc;			/* ppm_sc code (generic events) */
	u16 nr;			/* native syscall number */
	u64 ts;			/* event time, 0: now (a stack and its enter share one) */
	struct pt_regs *regs;	/* the syscall's user registers (stack.c) */
};

/* Fill event @type; returns its length or a negative errno (too large). */
int kmod_fill_event(struct kfill *f, u16 type);

#endif
