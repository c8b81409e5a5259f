/* SPDX-License-Identifier: GPL-2.0 */
/*
 * select.bpf.h - which tasks the BPF driver captures (the kernel side of
 * the filter pushdown, see driver/bpf/README.md "Kernel-side selection").
 *
 * Settings (driver/event_format.h, filled by the bpf engine from the
 * compiled capture filter and the command line):
 * - SCAP_BPF_F_COMM: only tasks named settings.comm (or whose thread group
 *   leader is), plus every process's lifecycle (clone/execve/procexit);
 * - SCAP_BPF_F_COMMS: the same for the names of want_comms (a list);
 * - SCAP_BPF_F_CGROUPS: only tasks with a cgroup in sel_cgroups (checked
 *   after sel_cg_hint, a bitmap of their ids: one plain load per cgroup),
 *   lifecycle kept; cgroups made later join it (cgroup_mkdir) when their
 *   parent is in it or their name ends in an id of want_ids;
 * - SCAP_BPF_F_SUPPRESS (-U): not the tasks named one of sel_comms (same
 *   rule, lifecycle kept: userspace follows their descendants);
 * - SCAP_BPF_F_PIDS: only the processes of sel_tgids and (SCAP_BPF_F_TIDS)
 *   the threads of sel_tids, lifecycle and procexit included;
 * - SCAP_BPF_F_TREE: a process forked by a process of sel_tgids is added
 *   to it (sched_process_fork) and leaves it with its last thread.
 * Included by probe.bpf.c after `settings` and `counters`.
 */
#ifndef SELECT_BPF_H
#define SELECT_BPF_H

/* the selected processes and threads: one bit per pid (a plain load per
 * check, cheaper than a map lookup on every syscall of every process) */
__u64 sel_tgids[SCAP_BPF_PID_WORDS];
__u64 sel_tids[SCAP_BPF_PID_WORDS];

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, SCAP_BPF_MAX_SUPPRESSED);
	__type(key, struct scap_bpf_comm);
	__type(value, __u8);
} sel_comms SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, SCAP_BPF_MAX_COMMS);
	__type(key, struct scap_bpf_comm);
	__type(value, __u8);
} want_comms SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, SCAP_BPF_MAX_CGROUPS);
	__type(key, __u64);
	__type(value, __u8);
} sel_cgroups SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, SCAP_BPF_MAX_CIDS);
	__type(key, struct scap_bpf_cid);
	__type(value, __u8);
} want_ids SEC(".maps");

__u64 sel_cg_hint[SCAP_BPF_CG_HINT_WORDS];

/*
 * settings.comm: compared on its bytes up to its NUL (comm_mask), two
 * 8-byte words, with plain loads of the BTF task pointer (no helper call)
 */
static __always_inline int comm_is(__u64 w0, __u64 w1)
{
	return !(((w0 ^ settings.comm[0]) & settings.comm_mask[0]) |
		 ((w1 ^ settings.comm[1]) & settings.comm_mask[1]));
}

static __always_inline int task_named(struct task_struct *t)
{
	const __u64 *n = (const __u64 *)t->comm;

	if (comm_is(n[0], n[1]))
		return 1;
	n = (const __u64 *)t->group_leader->comm;
	return comm_is(n[0], n[1]);
}

/* the kernel keeps comm NUL-padded (strscpy_pad): the 16 bytes are the key */
static __always_inline int comm_listed(void *names, const char *comm)
{
	struct scap_bpf_comm k;

	__builtin_memcpy(&k, comm, sizeof(k));
	return bpf_map_lookup_elem(names, &k) != NULL;
}

/* t or its thread group leader is named one of names */
static __always_inline int task_listed(void *names, struct task_struct *t)
{
	return comm_listed(names, t->comm) || comm_listed(names, t->group_leader->comm);
}

static __always_inline int bit_has(const __u64 *bits, __u32 id)
{
	return (bits[(id >> 6) & (SCAP_BPF_PID_WORDS - 1)] >> (id & 63)) & 1;
}

static __always_inline __u64 *bit_word(__u64 *bits, __u32 id)
{
	return &bits[(id >> 6) & (SCAP_BPF_PID_WORDS - 1)];
}

static __always_inline int pid_selected(struct task_struct *t, __u32 f)
{
	return bit_has(sel_tgids, t->tgid) || ((f & SCAP_BPF_F_TIDS) && bit_has(sel_tids, t->pid));
}

static __always_inline int cgroup_selected(struct cgroup *cg)
{
	__u64 id = BPF_CORE_READ(cg, kn, id);

	if (!((sel_cg_hint[(id >> 6) & (SCAP_BPF_CG_HINT_WORDS - 1)] >> (id & 63)) & 1))
		return 0;
	return bpf_map_lookup_elem(&sel_cgroups, &id) != NULL;
}

/* one of t's cgroups (each controller's, and the v2 one) is selected */
static __always_inline int task_in_cgroups(struct task_struct *t)
{
	struct css_set *cs = t->cgroups;
	struct cgroup *last = cs->dfl_cgrp;
	/* the running kernel's css_set.subsys[] (its length differs between
	 * kernels: a constant index past it fails the CO-RE relocation) */
	char *subsys = (char *)cs + bpf_core_field_offset(struct css_set, subsys);
	__u32 n = bpf_core_field_size(struct css_set, subsys) / sizeof(void *);

	if (cgroup_selected(last))
		return 1;
#pragma unroll
	for (int i = 0; i < CGROUP_SUBSYS_COUNT; i++) {
		struct cgroup_subsys_state *css = NULL;
		struct cgroup *cg;

		if (i >= n)
			break;
		bpf_probe_read_kernel(&css, sizeof(css), subsys + i * sizeof(void *));
		if (!css)
			continue;
		cg = BPF_CORE_READ(css, cgroup);
		if (cg == last)
			continue;
		last = cg;
		if (cgroup_selected(cg))
			return 1;
	}
	return 0;
}

/*
 * 1: task t's events are not captured (counted as suppressed or as not
 * selected).  lifecycle: a clone/fork/execve or procexit, kept for the comm
 * rules.
 */
static __always_inline int task_dropped(struct task_struct *t, int lifecycle,
					struct scap_bpf_counters *c, __u32 nevts)
{
	__u32 f = settings.flags;

	/* a plain add: the hottest drop (every syscall of every other
	 * process); an update is lost only when two of our programs
	 * interleave on one CPU, and a locked add measurably costs them */
	if ((f & SCAP_BPF_F_PIDS) && !pid_selected(t, f)) {
		c->n_unselected += nevts;
		return 1;
	}
	if (lifecycle)
		return 0;
	if (((f & SCAP_BPF_F_COMM) && !task_named(t)) ||
	    ((f & SCAP_BPF_F_COMMS) && !task_listed(&want_comms, t)) ||
	    ((f & SCAP_BPF_F_CGROUPS) && !task_in_cgroups(t)) ||
	    ((f & SCAP_BPF_F_SUPPRESS) && task_listed(&sel_comms, t))) {
		__sync_fetch_and_add(&c->n_suppressed, nevts);
		return 1;
	}
	return 0;
}

/* the process tree: a child process of a selected one is selected */
SEC("tp_btf/sched_process_fork")
int BPF_PROG(sched_process_fork, struct task_struct *parent, struct task_struct *child)
{
	__u32 tgid = child->tgid;

	if (!(settings.flags & SCAP_BPF_F_TREE) || tgid == parent->tgid ||
	    !bit_has(sel_tgids, parent->tgid))
		return 0;
	__sync_fetch_and_or(bit_word(sel_tgids, tgid), 1ULL << (tgid & 63));
	return 0;
}

/* ... and leaves the tree with its last thread (p is exiting) */
static __always_inline void tree_exit(struct task_struct *p)
{
	__u32 tgid = p->tgid;

	if ((settings.flags & SCAP_BPF_F_TREE) && !p->signal->live.counter)
		__sync_fetch_and_and(bit_word(sel_tgids, tgid), ~(1ULL << (tgid & 63)));
}

/* the id a cgroup name ends in: at len - 64 ("<64 hex>", "crio-<64>",
 * ":cri-containerd:<64>") or before ".scope" ("docker-<64>.scope") */
static __always_inline int name_wanted(const char *name, long len)
{
	static const char scope[] = ".scope";
	struct scap_bpf_cid k = { { 0 } };
	long at = len - 64;
	int i;

	if (len >= 70) {
		for (i = 0; i < 6; i++)
			if (name[(len - 6 + i) & 255] != scope[i])
				break;
		if (i == 6)
			at = len - 70;
	}
	if (at < 0)
		return 0;
	for (i = 0; i < SCAP_BPF_CID_LEN; i++)
		k.id[i] = name[(at + i) & 255];
	return bpf_map_lookup_elem(&want_ids, &k) != NULL;
}

static __always_inline void cgroup_select(__u64 id)
{
	__u8 one = 1;

	bpf_map_update_elem(&sel_cgroups, &id, &one, BPF_ANY);
	__sync_fetch_and_or(&sel_cg_hint[(id >> 6) & (SCAP_BPF_CG_HINT_WORDS - 1)], 1ULL << (id & 63));
}

/* a cgroup made during the capture: selected below a selected one, or
 * when its name ends in a wanted container id */
SEC("tp_btf/cgroup_mkdir")
int BPF_PROG(cgroup_mkdir, struct cgroup *cg, const char *path)
{
	struct cgroup_subsys_state *parent = cg->self.parent;
	char name[256];
	long n;

	if (!(settings.flags & SCAP_BPF_F_CGROUPS))
		return 0;
	if (parent && cgroup_selected(parent->cgroup)) {
		cgroup_select(cg->kn->id);
		return 0;
	}
	n = bpf_probe_read_kernel_str(name, sizeof(name), cg->kn->name);
	if (n > 1 && name_wanted(name, n - 1))
		cgroup_select(cg->kn->id);
	return 0;
}

#endif
