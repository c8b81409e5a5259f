// SPDX-License-Identifier: GPL-2.0
/*
 * select.c - which tasks the module captures: the kernel side of the
 * filter pushdown, by the rules of the BPF driver (driver/bpf/select.bpf.h,
 * flags of driver/event_format.h):
 * - SCAP_BPF_F_COMM: only tasks named comm (or whose thread group leader
 *   is), plus every process's lifecycle (clone/fork/execve, procexit);
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
 * rest only while the capture is stopped, published by the flags.
 */
#include <linux/kernel.h>
#include <linux/mutex.h>
#include <linux/vmalloc.h>
#include <linux/bitops.h>
#include <linux/uaccess.h>
#include <linux/tracepoint.h>
#include <linux/sched/signal.h>
#include "select.h"

#define SELECT_FLAGS (SCAP_BPF_F_COMM | SCAP_BPF_F_SUPPRESS | SCAP_BPF_F_PIDS | \
		      SCAP_BPF_F_TREE | SCAP_BPF_F_TIDS)

struct kselect {
	u32 flags;		/* published last (release), read first (acquire) */
	u32 nsuppress;
	u64 comm[2];
	u64 comm_mask[2];
	struct scap_bpf_comm suppress[SCAP_BPF_MAX_SUPPRESSED];
	unsigned long *tgids;	/* one bit per pid, SCAP_BPF_PID_LIMIT bits */
	unsigned long *tids;
};

static struct kselect g_sel;
static DEFINE_MUTEX(g_sel_lock);	/* set / reset */
static struct tracepoint *tp_fork;
static bool g_fork_attached;

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

static bool comm_listed(const char *comm)
{
	u32 i;

	for (i = 0; i < g_sel.nsuppress; i++)
		if (!memcmp(comm, g_sel.suppress[i].name, sizeof(g_sel.suppress[i].name)))
			return true;
	return false;
}

static bool task_suppressed(struct task_struct *t)
{
	return comm_listed(t->comm) || comm_listed(t->group_leader->comm);
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
	    ((f & SCAP_BPF_F_SUPPRESS) && task_suppressed(t))) {
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

static void find_fork(struct tracepoint *tp, void *priv)
{
	if (!strcmp(tp->name, "sched_process_fork"))
		tp_fork = tp;
}

static int fork_attach(void)
{
	int err;

	if (g_fork_attached)
		return 0;
	if (!tp_fork)
		for_each_kernel_tracepoint(find_fork, NULL);
	if (!tp_fork)
		return -ENOENT;
	err = tracepoint_probe_register(tp_fork, probe_fork, NULL);
	if (!err)
		g_fork_attached = true;
	return err;
}

static int bitmaps_alloc(void)
{
	size_t bytes = BITS_TO_LONGS(SCAP_BPF_PID_LIMIT) * sizeof(long);

	if (g_sel.tgids) {
		memset(g_sel.tgids, 0, bytes);
		memset(g_sel.tids, 0, bytes);
		return 0;
	}
	g_sel.tgids = vzalloc(bytes);
	g_sel.tids = vzalloc(bytes);
	if (g_sel.tgids && g_sel.tids)
		return 0;
	vfree(g_sel.tgids);
	vfree(g_sel.tids);
	g_sel.tgids = NULL;
	g_sel.tids = NULL;
	return -ENOMEM;
}

long kmod_select_set(const void __user *uarg)
{
	struct kmod_select ks;
	long err = 0;

	if (copy_from_user(&ks, uarg, sizeof(ks)))
		return -EFAULT;
	if ((ks.flags & ~SELECT_FLAGS) || ks.nsuppress > SCAP_BPF_MAX_SUPPRESSED ||
	    ((ks.flags & (SCAP_BPF_F_TREE | SCAP_BPF_F_TIDS)) && !(ks.flags & SCAP_BPF_F_PIDS)))
		return -EINVAL;
	mutex_lock(&g_sel_lock);
	if (g_sel.flags) {
		/* no probe still reads the old rules (they run with
		 * preemption disabled) */
		WRITE_ONCE(g_sel.flags, 0);
		synchronize_rcu();
	}
	if (ks.flags & SCAP_BPF_F_PIDS)
		err = bitmaps_alloc();
	if (!err && (ks.flags & SCAP_BPF_F_TREE))
		err = fork_attach();
	if (!err) {
		memcpy(g_sel.comm, ks.comm, sizeof(g_sel.comm));
		memcpy(g_sel.comm_mask, ks.comm_mask, sizeof(g_sel.comm_mask));
		memcpy(g_sel.suppress, ks.suppress, sizeof(g_sel.suppress));
		g_sel.nsuppress = ks.nsuppress;
		smp_store_release(&g_sel.flags, ks.flags);
	}
	mutex_unlock(&g_sel_lock);
	return err;
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
	if (g_fork_attached) {
		tracepoint_probe_unregister(tp_fork, probe_fork, NULL);
		g_fork_attached = false;
	}
	/* the other probes are detached already */
	tracepoint_synchronize_unregister();
	vfree(g_sel.tgids);
	vfree(g_sel.tids);
	g_sel.tgids = NULL;
	g_sel.tids = NULL;
	g_sel.nsuppress = 0;
	mutex_unlock(&g_sel_lock);
}
