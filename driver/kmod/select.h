/* SPDX-License-Identifier: GPL-2.0 */
/*
 * select.h - which tasks the module captures (select.c): the pid, thread,
 * process tree, comm and container cgroup rules of the BPF driver, set by
 * ioctl (kmod_abi.h struct kmod_select) and checked by the probes of main.c.
 */
#ifndef KMOD_SELECT_H
#define KMOD_SELECT_H

#include <linux/types.h>
#include <linux/sched.h>
#include "kmod_abi.h"

/* ioctls: KMOD_IOC_SET_SELECT and _SET_LISTS (capture stopped),
 * _SELECT_ID, _IS_SELECTED, _SELECT_CGROUP */
long kmod_select_set(const void __user *uarg);
long kmod_select_lists(const void __user *uarg);
long kmod_select_add(const void __user *uarg);
long kmod_select_query(const void __user *uarg);
long kmod_select_cgroup(const void __user *uarg);
/* the last reader went away (probes detached): everything is captured again */
void kmod_select_reset(void);

/* probes, preemption disabled: true when @t's event is not captured
 * (counted in @info); @lifecycle: a clone/fork/execve or procexit */
bool kmod_select_drops(struct task_struct *t, bool lifecycle, struct kmod_ring_info *info);
/* procexit of @p: its process leaves the tree with its last thread */
void kmod_select_exit(struct task_struct *p);

#endif
