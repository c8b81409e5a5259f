/*
 * bpf_select.c - which tasks the BPF driver captures, from the open options
 * (scap_live_opts comm / comms / select / suppress, planned by
 * live_select.c): the settings flags, the sel_tgids / sel_tids bitmaps, the
 * sel_comms / want_comms maps and the container cgroups of
 * driver/bpf/select.bpf.h.  A process tree is seeded from the /proc
 * snapshot (its existing descendants); the driver adds the ones forked
 * later.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/libbpf.h>
#include "event_format.h"
#include "bpf_select.h"
#include "live_select.h"
#include "syscall_table.h"
#include "fill_table.h"
#include "probe.skel.h"

void bpf_select_hooks(struct probe_bpf *s, const struct scap_live_opts *o)
{
	bpf_program__set_autoattach(s->progs.sched_process_fork, o->select && o->select->nroots);
	bpf_program__set_autoattach(s->progs.cgroup_mkdir,
				    o->select && o->select->ncontainer_ids);
}

/* a container cgroup (live_select_cgroups): its kernfs id into
 * sel_cgroups and its bit into the hint */
static int cgroup_add(void *drv, uint64_t id)
{
	struct probe_bpf *s = drv;
	uint8_t one = 1;
	int e = 0;

	if (bpf_map__update_elem(s->maps.sel_cgroups, &id, sizeof(id), &one, sizeof(one), BPF_ANY))
		e = errno;
	__atomic_fetch_or(&s->bss->sel_cg_hint[(id / 64) % SCAP_BPF_CG_HINT_WORDS],
			  1ULL << (id % 64), __ATOMIC_RELAXED);
	return e;
}

/* the names of a list into map m of the driver */
static int add_names(struct bpf_map *m, const struct scap_bpf_comm *names, uint32_t n,
		     const char *what, char *err)
{
	uint8_t one = 1;

	for (uint32_t i = 0; i < n; i++)
		if (bpf_map__update_elem(m, &names[i], sizeof(names[i]), &one, sizeof(one), BPF_ANY)) {
			snprintf(err, SCAP_ERRBUF_SIZE, "live capture: cannot %s %.16s: %s", what,
				 names[i].name, strerror(errno));
			return -1;
		}
	return 0;
}

/* container.id values the driver follows (want_ids, for the cgroups made
 * later) and the cgroups naming them now */
static int set_container_ids(struct probe_bpf *s, const struct live_select *ls, char *err)
{
	uint8_t one = 1;

	for (uint32_t i = 0; i < ls->ncids; i++)
		if (bpf_map__update_elem(s->maps.want_ids, &ls->cids[i], sizeof(ls->cids[i]),
					 &one, sizeof(one), BPF_ANY)) {
			snprintf(err, SCAP_ERRBUF_SIZE, "live capture: cannot select container %.12s: %s",
				 ls->cids[i].id, strerror(errno));
			return -1;
		}
	return ls->ncids ? live_select_cgroups(ls, cgroup_add, s, err) : 0;
}

/* a pid into a selection bitmap (the driver may set bits at the same time) */
static void add_id(void *drv, uint32_t pid, uint32_t tid)
{
	struct probe_bpf *s = drv;
	volatile __u64 *bits = tid ? s->bss->sel_tids : s->bss->sel_tgids;
	uint32_t id = tid ? tid : pid;

	__atomic_fetch_or(&bits[id / 64], 1ULL << (id % 64), __ATOMIC_RELAXED);
}

static int has_id(const volatile __u64 *bits, uint64_t id)
{
	return id < SCAP_BPF_PID_LIMIT && (bits[id / 64] >> (id % 64) & 1);
}

static int has_tgid(void *drv, uint32_t pid)
{
	return has_id(((struct probe_bpf *)drv)->bss->sel_tgids, pid);
}

int bpf_select_apply(struct probe_bpf *s, const struct scap_live_opts *o, char *err)
{
	volatile struct scap_bpf_settings *st = &s->bss->settings;
	struct live_select ls;

	if (live_select_plan(o, &ls, err))
		return -1;
	memcpy((void *)st->comm, ls.comm, sizeof(ls.comm));
	memcpy((void *)st->comm_mask, ls.comm_mask, sizeof(ls.comm_mask));
	if (add_names(s->maps.sel_comms, ls.suppress, ls.nsuppress, "suppress", err) ||
	    add_names(s->maps.want_comms, ls.comms, ls.ncomms, "select", err) ||
	    set_container_ids(s, &ls, err))
		return -1;
	live_select_ids(o, add_id, s);
	st->flags |= ls.flags;
	return 0;
}

int bpf_select_has(const struct probe_bpf *s, uint64_t pid, uint64_t tid)
{
	uint32_t f = s->bss->settings.flags;

	return !(f & SCAP_BPF_F_PIDS) || has_id(s->bss->sel_tgids, pid) ||
	       ((f & SCAP_BPF_F_TIDS) && has_id(s->bss->sel_tids, tid));
}

void bpf_select_snapshot(struct probe_bpf *s, const struct scap_live_opts *o,
			 const struct scap_metadata *m)
{
	char err[SCAP_ERRBUF_SIZE];
	struct live_select ls;

	/* the cgroups made between the first walk and the attach (the
	 * mkdir hook follows those made since) */
	if ((s->bss->settings.flags & SCAP_BPF_F_CGROUPS) && !live_select_plan(o, &ls, err))
		live_select_cgroups(&ls, cgroup_add, s, err);
	live_select_descendants(o, m, has_tgid, add_id, s);
}
