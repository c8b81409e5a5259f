// SPDX-License-Identifier: GPL-2.0
/*
 * select.c - which tasks the module captures: the kernel side of the
 * filter pushdown, by the rules of the BPF driver (driver/bpf/select.bpf.h,
 * flags of driver/event_format.h):
 * - SCAP_BPF_F_COMM: only tasks named comm (or whose thread group leader
 *   is), plus every process's lifecycle (clone/fork/execve, procexit);
 * - SCAP_BPF_F_COMMS: the same for a list of names (comms);
 * - SCAP_BPF_F_CGROUPS: only tasks with a cgroup (of any hierarchy) in
 *   cgroups, lifecycle kept; a cgroup made later (cgroup_mkdir) joins it
 *   when its parent is in it or its name ends in one of the container ids;
 * - SCAP_BPF_F_SUPPRESS (-U): not the tasks named one of suppress (same
 *   rule, lifecycle kept);
 * - SCAP_BPF_F_PIDS: only the processes of tgids and (SCAP_BPF_F_TIDS) the
 *   threads of tids, lifecycle included;
 * - SCAP_BPF_F_TREE: a process forked by a process of tgids is added to it
 *   (sched_process_fork, before the child first runs) and leaves it with
 *   its last thread (procexit).
 * The ioctls of kmod_abi.h set the rules; main.c's probes ask
 * kmod_select_drops().  The probes take no lock (PREEMPT_RT: no sleeping
 * lock in a tracepoint): the bitmaps change by atomic bit operations, the
 * cgroup set by cmpxchg into free slots (never removed), the rest only
 * while the capture is stopped, published by the flags.
 */
#include <linux/kernel.h>
#include <linux/mutex.h>
#include <linux/vmalloc.h>
#include <linux/bitops.h>
#include <linux/uaccess.h>
#include <linux/tracepoint.h>
#include <linux/sched/signal.h>
#include <linux/cgroup.h>
#include <linux/hash.h>
#include <linux/log2.h>
#include "select.h"

#define SELECT_FLAGS (SCAP_BPF_F_COMM | SCAP_BPF_F_SUPPRESS | SCAP_BPF_F_PIDS | \
		      SCAP_BPF_F_TREE | SCAP_BPF_F_TIDS | SCAP_BPF_F_COMMS | \
		      SCAP_BPF_F_CGROUPS)
/* the cgroup set: open addressing, at most half full */
#define CG_SLOTS (2 * SCAP_BPF_MAX_CGROUPS)
#define CG_HINT_BITS (SCAP_BPF_CG_HINT_WORDS * 64)

struct kselect {
	u32 flags;		/* published last (release), read first (acquire) */
	u32 nsuppress;
	u32 ncomms;
	u32 ncids;
	u64 comm[2];
	u64 comm_mask[2];
	struct scap_bpf_comm suppress[SCAP_BPF_MAX_SUPPRESSED];
	struct scap_bpf_comm comms[SCAP_BPF_MAX_COMMS];
	struct scap_bpf_cid cids[SCAP_BPF_MAX_CIDS];
	unsigned long *tgids;	/* one bit per pid, SCAP_BPF_PID_LIMIT bits */
	unsigned long *tids;
	u64 *cgroups;		/* kernfs ids of the selected cgroups, 0 = free */
	unsigned long *cg_hint;	/* bit (id % CG_HINT_BITS) of each */
	atomic_t ncgroups;
};

static struct kselect g_sel;
static struct kmod_select_lists g_lists;	/* for the next kmod_select_set */
static DEFINE_MUTEX(g_sel_lock);	/* set / reset, g_lists */
static struct tracepoint *tp_fork, *tp_mkdir;
static bool g_fork_attached, g_mkdir_attached;

static bool id_has(const unsigned long *bits, pid_t id)
{
	return id >= 0 && (u32)id < SCAP_BPF_PID_LIMIT && test_bit(id, bits);
}

static void id_set(unsigned long *bits, pid_t id)
{
	if (id >= 0 && (u32)id < SCAP_BPF_PID_LIMIT)
		set_bit(id, bits);
}

static bool pid_selected(struct task_struct *t, u32 f)
{
	return id_has(g_sel.tgids, t->tgid) ||
	       ((f & SCAP_BPF_F_TIDS) && id_has(g_sel.tids, t->pid));
}

/* the kernel keeps comm NUL-padded: compared as two words, up to its NUL */
static bool comm_is(const char *comm)
{
	u64 w[2];

	memcpy(w, comm, sizeof(w));
	return !(((w[0] ^ g_sel.comm[0]) & g_sel.comm_mask[0]) |
		 ((w[1] ^ g_sel.comm[1]) & g_sel.comm_mask[1]));
}

static bool task_named(struct task_struct *t)
{
	return comm_is(t->comm) || comm_is(t->group_leader->comm);
}

/* the kernel keeps comm NUL-padded: the 16 bytes are compared */
static bool comm_listed(const struct scap_bpf_comm *names, u32 n, const char *comm)
{
	u32 i;

	for (i = 0; i < n; i++)
		if (!memcmp(comm, names[i].name, sizeof(names[i].name)))
			return true;
	return false;
}

/* t or its thread group leader is named one of names */
static bool task_listed(struct task_struct *t, const struct scap_bpf_comm *names, u32 n)
{
	return comm_listed(names, n, t->comm) || comm_listed(names, n, t->group_leader->comm);
}

/* ------------------------------------------------ container cgroups */

static u32 cg_slot(u64 id)
{
	return hash_64(id, ilog2(CG_SLOTS));
}

static bool cgroup_has(u64 id)
{
	u32 h = cg_slot(id), i;
	u64 v;

	if (!test_bit(id % CG_HINT_BITS, g_sel.cg_hint))
		return false;
	for (i = 0; i < CG_SLOTS; i++) {
		v = READ_ONCE(g_sel.cgroups[(h + i) & (CG_SLOTS - 1)]);
		if (v == id)
			return true;
		if (!v)
			return false;
	}
	return false;
}

/* into the first free slot of its probe sequence (cmpxchg: the mkdir
 * probe and the ioctl may add at the same time); the hint after it */
static int cgroup_add(u64 id)
{
	u32 h = cg_slot(id), i;
	u64 *slot, v;

	if (!id)
		return -EINVAL;
	for (i = 0; i < CG_SLOTS; i++) {
		slot = &g_sel.cgroups[(h + i) & (CG_SLOTS - 1)];
		v = READ_ONCE(*slot);
		if (!v) {
			if (atomic_inc_return(&g_sel.ncgroups) > SCAP_BPF_MAX_CGROUPS) {
				atomic_dec(&g_sel.ncgroups);
				return -ENOSPC;
			}
			v = cmpxchg(slot, 0, id);
			if (v)
				atomic_dec(&g_sel.ncgroups);
		}
		if (!v || v == id) {
			set_bit(id % CG_HINT_BITS, g_sel.cg_hint);
			return 0;
		}
	}
	return -ENOSPC;
}

/* one of t's cgroups (each controller's, and the v2 one) is selected */
static bool task_in_cgroups(struct task_struct *t)
{
	struct cgroup_subsys_state *css;
	struct cgroup *last;
	struct css_set *cs;
	bool found;
	int i;

	rcu_read_lock();
	cs = task_css_set(t);
	last = cs->dfl_cgrp;
	found = cgroup_has(cgroup_id(last));
	for (i = 0; !found && i < CGROUP_SUBSYS_COUNT; i++) {
		css = READ_ONCE(cs->subsys[i]);
		if (!css || css->cgroup == last)
			continue;
		last = css->cgroup;
		found = cgroup_has(cgroup_id(last));
	}
	rcu_read_unlock();
	return found;
}

/* the id a cgroup name ends in: at len - 64 ("<64 hex>", "crio-<64>",
 * ":cri-containerd:<64>") or before ".scope" ("docker-<64>.scope") */
static bool name_wanted(const char *name)
{
	size_t len = strlen(name);
	u32 i;

	if (len >= 70 && !strcmp(name + len - 6, ".scope"))
		len -= 6;
	if (len < 64)
		return false;
	for (i = 0; i < g_sel.ncids; i++)
		if (!memcmp(name + len - 64, g_sel.cids[i].id, SCAP_BPF_CID_LEN))
			return true;
	return false;
}

/* a cgroup made during the capture: selected below a selected one, or
 * when its name (the last part of path) ends in a wanted container id */
static void probe_cgroup_mkdir(void *data, struct cgroup *cg, const char *path)
{
	u32 f = smp_load_acquire(&g_sel.flags);
	struct cgroup *parent = cgroup_parent(cg);
	const char *name = strrchr(path, '/');

	if (!(f & SCAP_BPF_F_CGROUPS))
		return;
	if ((parent && cgroup_has(cgroup_id(parent))) || name_wanted(name ? name + 1 : path))
		cgroup_add(cgroup_id(cg));
}

bool kmod_select_drops(struct task_struct *t, bool lifecycle, struct kmod_ring_info *info)
{
	u32 f = smp_load_acquire(&g_sel.flags);

	if (likely(!f))
		return false;
	if ((f & SCAP_BPF_F_PIDS) && !pid_selected(t, f)) {
		info->n_unselected++;
		return true;
	}
	if (lifecycle)
		return false;
	if (((f & SCAP_BPF_F_COMM) && !task_named(t)) ||
	    ((f & SCAP_BPF_F_COMMS) && !task_listed(t, g_sel.comms, g_sel.ncomms)) ||
	    ((f & SCAP_BPF_F_CGROUPS) && !task_in_cgroups(t)) ||
	    ((f & SCAP_BPF_F_SUPPRESS) && task_listed(t, g_sel.suppress, g_sel.nsuppress))) {
		info->n_suppressed++;
		return true;
	}
	return false;
}

/* the process tree: a child process of a selected one is selected */
static void probe_fork(void *data, struct task_struct *parent, struct task_struct *child)
{
	u32 f = smp_load_acquire(&g_sel.flags);

	if ((f & SCAP_BPF_F_TREE) && child->tgid != parent->tgid &&
	    id_has(g_sel.tgids, parent->tgid))
		id_set(g_sel.tgids, child->tgid);
}

void kmod_select_exit(struct task_struct *p)
{
	u32 f = smp_load_acquire(&g_sel.flags);

	if ((f & SCAP_BPF_F_TREE) && !atomic_read(&p->signal->live) &&
	    p->tgid >= 0 && (u32)p->tgid < SCAP_BPF_PID_LIMIT)
		clear_bit(p->tgid, g_sel.tgids);
}

static void find_tracepoints(struct tracepoint *tp, void *priv)
{
	if (!strcmp(tp->name, "sched_process_fork"))
		tp_fork = tp;
	else if (!strcmp(tp->name, "cgroup_mkdir"))
		tp_mkdir = tp;
}

/* probe on tracepoint *tp (found by name the first time), once */
static int hook_attach(struct tracepoint **tp, void *probe, bool *attached)
{
	int err;

	if (*attached)
		return 0;
	if (!*tp)
		for_each_kernel_tracepoint(find_tracepoints, NULL);
	if (!*tp)
		return -ENOENT;
	err = tracepoint_probe_register(*tp, probe, NULL);
	if (!err)
		*attached = true;
	return err;
}

static void hook_detach(struct tracepoint *tp, void *probe, bool *attached)
{
	if (*attached)
		tracepoint_probe_unregister(tp, probe, NULL);
	*attached = false;
}

/* two zeroed vmalloc areas: cleared when they exist, else allocated */
static int zalloc_pair(void **a, size_t a_bytes, void **b, size_t b_bytes)
{
	if (*a) {
		memset(*a, 0, a_bytes);
		memset(*b, 0, b_bytes);
		return 0;
	}
	*a = vzalloc(a_bytes);
	*b = vzalloc(b_bytes);
	if (*a && *b)
		return 0;
	vfree(*a);
	vfree(*b);
	*a = NULL;
	*b = NULL;
	return -ENOMEM;
}

static int bitmaps_alloc(void)
{
	size_t bytes = BITS_TO_LONGS(SCAP_BPF_PID_LIMIT) * sizeof(long);

	return zalloc_pair((void **)&g_sel.tgids, bytes, (void **)&g_sel.tids, bytes);
}

static int cgroups_alloc(void)
{
	atomic_set(&g_sel.ncgroups, 0);
	return zalloc_pair((void **)&g_sel.cgroups, CG_SLOTS * sizeof(u64),
			   (void **)&g_sel.cg_hint, BITS_TO_LONGS(CG_HINT_BITS) * sizeof(long));
}

long kmod_select_lists(const void __user *uarg)
{
	long err = 0;

	mutex_lock(&g_sel_lock);
	if (copy_from_user(&g_lists, uarg, sizeof(g_lists)))
		err = -EFAULT;
	else if (g_lists.ncomms > SCAP_BPF_MAX_COMMS || g_lists.ncids > SCAP_BPF_MAX_CIDS)
		err = -EINVAL;
	if (err)
		memset(&g_lists, 0, sizeof(g_lists));
	mutex_unlock(&g_sel_lock);
	return err;
}

/* the rules of ks, published by its flags (g_sel_lock held) */
static long select_set(const struct kmod_select *ks)
{
	long err = 0;

	if (g_sel.flags) {
		/* no probe still reads the old rules (they run with
		 * preemption disabled) */
		WRITE_ONCE(g_sel.flags, 0);
		synchronize_rcu();
	}
	if (((ks->flags & SCAP_BPF_F_COMMS) && !g_lists.ncomms) ||
	    ((ks->flags & SCAP_BPF_F_CGROUPS) && !g_lists.ncids))
		return -EINVAL;
	if (ks->flags & SCAP_BPF_F_PIDS)
		err = bitmaps_alloc();
	if (!err && (ks->flags & SCAP_BPF_F_CGROUPS))
		err = cgroups_alloc();
	if (!err && (ks->flags & SCAP_BPF_F_TREE))
		err = hook_attach(&tp_fork, probe_fork, &g_fork_attached);
	if (!err && (ks->flags & SCAP_BPF_F_CGROUPS))
		err = hook_attach(&tp_mkdir, probe_cgroup_mkdir, &g_mkdir_attached);
	if (err)
		return err;
	memcpy(g_sel.comm, ks->comm, sizeof(g_sel.comm));
	memcpy(g_sel.comm_mask, ks->comm_mask, sizeof(g_sel.comm_mask));
	memcpy(g_sel.suppress, ks->suppress, sizeof(g_sel.suppress));
	g_sel.nsuppress = ks->nsuppress;
	memcpy(g_sel.comms, g_lists.comms, sizeof(g_sel.comms));
	g_sel.ncomms = g_lists.ncomms;
	memcpy(g_sel.cids, g_lists.cids, sizeof(g_sel.cids));
	g_sel.ncids = g_lists.ncids;
	smp_store_release(&g_sel.flags, ks->flags);
	return 0;
}

long kmod_select_set(const void __user *uarg)
{
	struct kmod_select ks;
	long err;

	if (copy_from_user(&ks, uarg, sizeof(ks)))
		return -EFAULT;
	if ((ks.flags & ~SELECT_FLAGS) || ks.nsuppress > SCAP_BPF_MAX_SUPPRESSED ||
	    ((ks.flags & (SCAP_BPF_F_TREE | SCAP_BPF_F_TIDS)) && !(ks.flags & SCAP_BPF_F_PIDS)))
		return -EINVAL;
	mutex_lock(&g_sel_lock);
	err = select_set(&ks);
	mutex_unlock(&g_sel_lock);
	return err;
}

long kmod_select_cgroup(const void __user *uarg)
{
	u64 id;

	if (copy_from_user(&id, uarg, sizeof(id)))
		return -EFAULT;
	if (!(smp_load_acquire(&g_sel.flags) & SCAP_BPF_F_CGROUPS))
		return -EINVAL;
	return cgroup_add(id);
}

long kmod_select_add(const void __user *uarg)
{
	struct kmod_select_id id;

	if (copy_from_user(&id, uarg, sizeof(id)))
		return -EFAULT;
	if (!(smp_load_acquire(&g_sel.flags) & SCAP_BPF_F_PIDS))
		return -EINVAL;
	/* no task has an id beyond the limit: nothing to select */
	if (id.tid)
		id_set(g_sel.tids, id.tid);
	else
		id_set(g_sel.tgids, id.pid);
	return 0;
}

long kmod_select_query(const void __user *uarg)
{
	struct kmod_select_id id;
	u32 f = smp_load_acquire(&g_sel.flags);

	if (copy_from_user(&id, uarg, sizeof(id)))
		return -EFAULT;
	if (!(f & SCAP_BPF_F_PIDS))
		return 1;
	return id_has(g_sel.tgids, id.pid) ||
	       ((f & SCAP_BPF_F_TIDS) && id_has(g_sel.tids, id.tid));
}

void kmod_select_reset(void)
{
	mutex_lock(&g_sel_lock);
	WRITE_ONCE(g_sel.flags, 0);
	hook_detach(tp_fork, probe_fork, &g_fork_attached);
	hook_detach(tp_mkdir, probe_cgroup_mkdir, &g_mkdir_attached);
	/* the other probes are detached already */
	tracepoint_synchronize_unregister();
	vfree(g_sel.tgids);
	vfree(g_sel.tids);
	vfree(g_sel.cgroups);
	vfree(g_sel.cg_hint);
	g_sel.tgids = NULL;
	g_sel.tids = NULL;
	g_sel.cgroups = NULL;
	g_sel.cg_hint = NULL;
	g_sel.nsuppress = 0;
	g_sel.ncomms = 0;
	g_sel.ncids = 0;
	memset(&g_lists, 0, sizeof(g_lists));
	mutex_unlock(&g_sel_lock);
}
