/*
 * bpf_select.c - which tasks the BPF driver captures, from the open options
 * (scap_live_opts comm / select / suppress, planned by live_select.c): the
 * settings flags, the sel_tgids / sel_tids bitmaps and the sel_comms map of
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
	uint8_t one = 1;

	if (live_select_plan(o, &ls, err))
		return -1;
	memcpy((void *)st->comm, ls.comm, sizeof(ls.comm));
	memcpy((void *)st->comm_mask, ls.comm_mask, sizeof(ls.comm_mask));
	for (uint32_t i = 0; i < ls.nsuppress; i++)
		if (bpf_map__update_elem(s->maps.sel_comms, &ls.suppress[i], sizeof(ls.suppress[i]),
					 &one, sizeof(one), BPF_ANY)) {
			snprintf(err, SCAP_ERRBUF_SIZE, "live capture: cannot suppress %.16s: %s",
				 ls.suppress[i].name, strerror(errno));
			return -1;
		}
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
	live_select_descendants(o, m, has_tgid, add_id, s);
}
