/*
 * live_select.h - the kernel-side selection both live engines push into
 * their driver (engine/bpf/bpf_select.c, engine/kmod/kmod_engine.c) from
 * the open options: comm (proc.name), lists of names, -U names, pids,
 * threads, process trees and container cgroups, by the rules of
 * driver/event_format.h's SCAP_BPF_F_* flags.
 */
#ifndef LIVE_SELECT_H
#define LIVE_SELECT_H

#include "scap.h"
#include "event_format.h"

struct live_select {
	uint32_t flags;		/* SCAP_BPF_F_COMM | _COMMS | _CGROUPS | _SUPPRESS | _PIDS | ... */
	uint64_t comm[2];	/* SCAP_BPF_F_COMM: the name, NUL-padded, and */
	uint64_t comm_mask[2];	/* which bytes to compare (up to its NUL) */
	struct scap_bpf_comm suppress[SCAP_BPF_MAX_SUPPRESSED];
	uint32_t nsuppress;
	struct scap_bpf_comm comms[SCAP_BPF_MAX_COMMS];	/* SCAP_BPF_F_COMMS */
	uint32_t ncomms;
	struct scap_bpf_cid cids[SCAP_BPF_MAX_CIDS];	/* SCAP_BPF_F_CGROUPS */
	uint32_t ncids;
};

/* o's selection; names no task can have (empty, over 15 characters) and
 * container ids of another length than SCAP_BPF_CID_LEN are not pushed
 * down.  0, or -1 with err (too many names) */
int live_select_plan(const struct scap_live_opts *o, struct live_select *ls, char *err);

/* the cgroups (of every mounted hierarchy, v1 and v2) whose path names one
 * of ls's container ids: cgroup_add(drv, id) with the cgroup's kernfs id
 * (its inode number), which the drivers see.  0, or -1 with err (no
 * mountinfo, or cgroup_add failed: its errno) */
int live_select_cgroups(const struct live_select *ls, int (*cgroup_add)(void *drv, uint64_t id),
			void *drv, char *err);

/* the ids to select (o->select's pids, tids and roots), id_add(drv, pid, tid)
 * with tid 0 for a process; ids beyond the driver's limit are left out */
void live_select_ids(const struct scap_live_opts *o, void (*id_add)(void *drv, uint32_t pid, uint32_t tid),
		     void *drv);

/* after the /proc snapshot m: the processes below the selected ones of a
 * process tree (one pass per generation; the driver adds those forked
 * since it attached) */
void live_select_descendants(const struct scap_live_opts *o, const struct scap_metadata *m,
			     int (*has)(void *drv, uint32_t pid), void (*id_add)(void *drv, uint32_t pid, uint32_t tid),
			     void *drv);

/* clone/fork/vfork/clone3/execve/execveat enter and exit events and
 * procexit: they pass the comm rules (userspace follows the processes) */
int live_select_lifecycle(uint16_t ev);

#endif
