/*
 * bpf_select.c - which tasks the BPF driver captures, from the open options
 * (scap_live_opts comm / select / suppress): the settings flags and the
 * sel_pids / sel_comms maps of driver/bpf/select.bpf.h.  A process tree is
 * seeded from the /proc snapshot (its existing descendants); the driver
 * adds the ones forked later.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/libbpf.h>
#include "event_format.h"
#include "bpf_select.h"
#include "syscall_table.h"
#include "fill_spec.h"
#include "probe.skel.h"

#define SEL_TGID 1
#define SEL_TID 2

void bpf_select_hooks(struct probe_bpf *s, const struct scap_live_opts *o)
{
	bpf_program__set_autoattach(s->progs.sched_process_fork, o->select && o->select->nroots);
}

/* opts->comm as the driver compares it; not pushed down if no task can
 * have that name (empty or longer than the kernel's 15 characters) */
static void set_comm(volatile struct scap_bpf_settings *st, const char *comm)
{
	uint8_t name[16] = { 0 }, mask[16] = { 0 };
	size_t n = comm ? strlen(comm) : 0;

	if (!n || n >= sizeof(name))
		return;
	memcpy(name, comm, n);
	memset(mask, 0xff, n + 1);
	memcpy((void *)st->comm, name, sizeof(name));
	memcpy((void *)st->comm_mask, mask, sizeof(mask));
	st->flags |= SCAP_BPF_F_COMM;
}

static int add_id(struct probe_bpf *s, uint32_t id, uint8_t bit, char *err)
{
	uint8_t v = 0;

	bpf_map__lookup_elem(s->maps.sel_pids, &id, sizeof(id), &v, sizeof(v), 0);
	v |= bit;
	if (bpf_map__update_elem(s->maps.sel_pids, &id, sizeof(id), &v, sizeof(v), BPF_ANY)) {
		snprintf(err, SCAP_ERRBUF_SIZE, "live capture: cannot select pid %u: %s", id, strerror(errno));
		return -1;
	}
	return 0;
}

static int add_ids(struct probe_bpf *s, const uint32_t *ids, uint32_t n, uint8_t bit, char *err)
{
	for (uint32_t i = 0; i < n; i++)
		if (add_id(s, ids[i], bit, err))
			return -1;
	return 0;
}

/* -U names the kernel can have (up to 15 characters) */
static int set_suppress(struct probe_bpf *s, const struct scap_live_opts *o, char *err)
{
	uint8_t one = 1;

	for (int i = 0; i < o->nsuppress; i++) {
		struct scap_bpf_comm k = { { 0 } };
		size_t n = strlen(o->suppress[i]);

		if (!n || n >= sizeof(k.name))
			continue;
		memcpy(k.name, o->suppress[i], n);
		if (bpf_map__update_elem(s->maps.sel_comms, &k, sizeof(k), &one, sizeof(one), BPF_ANY)) {
			snprintf(err, SCAP_ERRBUF_SIZE, "live capture: cannot suppress %s: %s",
				 o->suppress[i], strerror(errno));
			return -1;
		}
		s->bss->settings.flags |= SCAP_BPF_F_SUPPRESS;
	}
	return 0;
}

int bpf_select_apply(struct probe_bpf *s, const struct scap_live_opts *o, char *err)
{
	const struct scap_select *sel = o->select;

	set_comm(&s->bss->settings, o->comm);
	if (set_suppress(s, o, err))
		return -1;
	if (!sel || !(sel->npids + sel->ntids + sel->nroots))
		return 0;
	if (add_ids(s, sel->pids, sel->npids, SEL_TGID, err) ||
	    add_ids(s, sel->tids, sel->ntids, SEL_TID, err) ||
	    add_ids(s, sel->roots, sel->nroots, SEL_TGID, err))
		return -1;
	s->bss->settings.flags |= SCAP_BPF_F_PIDS | (sel->nroots ? SCAP_BPF_F_TREE : 0);
	return 0;
}

static int bit_get(const uint8_t *set, uint64_t i, uint64_t n)
{
	return i < n && (set[i / 8] >> (i % 8) & 1);
}

/* the processes of m below the roots: marked in a pid bitmap until no
 * parent adds a child (one pass per generation) */
int bpf_select_snapshot(struct probe_bpf *s, const struct scap_live_opts *o,
			const struct scap_metadata *m, char *err)
{
	const struct scap_select *sel = o->select;
	uint64_t n = 0;
	uint8_t *set;
	int grew = 1, rc = 0;

	if (!sel || !sel->nroots)
		return 0;
	for (uint32_t i = 0; i < m->nthreads; i++)
		if (m->threads[i].pid + 1 > n)
			n = m->threads[i].pid + 1;
	for (uint32_t i = 0; i < sel->nroots; i++)
		if (sel->roots[i] + 1ull > n)
			n = sel->roots[i] + 1ull;
	set = calloc(n / 8 + 1, 1);
	if (!set) {
		snprintf(err, SCAP_ERRBUF_SIZE, "live capture: out of memory");
		return -1;
	}
	for (uint32_t i = 0; i < sel->nroots; i++)
		set[sel->roots[i] / 8] |= (uint8_t)(1 << (sel->roots[i] % 8));
	while (grew && !rc) {
		grew = 0;
		for (uint32_t i = 0; i < m->nthreads && !rc; i++) {
			const struct scap_threadinfo *t = &m->threads[i];

			if (t->tid != t->pid || bit_get(set, t->pid, n) || !bit_get(set, t->ptid, n))
				continue;
			set[t->pid / 8] |= (uint8_t)(1 << (t->pid % 8));
			rc = add_id(s, (uint32_t)t->pid, SEL_TGID, err);
			grew = 1;
		}
	}
	free(set);
	return rc;
}
