/*
 * suppress.c - the comm suppression of -U (--suppress-comm).
 *
 * The rule of libscap 0.29: a thread is suppressed when its comm is one
 * of the given names or its parent is suppressed; this is decided for each
 * thread of a live process table and again on every clone,
 * fork, vfork, clone3 and execve exit (the comm and ptid parameters of the
 * event), so a thread leaves the set when it execs another program.  All
 * events of a suppressed thread are dropped, its procexit included (which
 * also takes it out of the set).  Live, the threads of the /proc snapshot
 * are decided first (in table order) and removed from the process table;
 * a file's process table is left alone, as sysdig 0.29.3 does (measured:
 * same output with -U init / sysdig / ls / cat on ref029_light).
 * scap_next() applies it to every engine.
 */
#include <stdlib.h>
#include <string.h>
#include "scap.h"

struct scap_suppress {
	char **comms;
	int ncomms;
	uint64_t *tids;		/* open addressing, 0 = empty, ~0 = deleted */
	size_t cap, used;
	uint64_t n_suppressed;
};

#define TID_EMPTY 0
#define TID_GONE UINT64_MAX

static size_t slot_of(uint64_t tid, size_t cap)
{
	return (size_t)((tid * 0x9E3779B97F4A7C15ULL) >> 20) & (cap - 1);
}

/* index of tid, or of the empty slot where it would go */
static size_t tid_find(const struct scap_suppress *sp, uint64_t tid, int *found)
{
	size_t i = slot_of(tid, sp->cap), gone = (size_t)-1;

	for (;; i = (i + 1) & (sp->cap - 1)) {
		if (sp->tids[i] == tid) {
			*found = 1;
			return i;
		}
		if (sp->tids[i] == TID_GONE && gone == (size_t)-1)
			gone = i;
		if (sp->tids[i] == TID_EMPTY) {
			*found = 0;
			return gone != (size_t)-1 ? gone : i;
		}
	}
}

static int tid_has(const struct scap_suppress *sp, uint64_t tid)
{
	int found;

	if (tid == TID_EMPTY || tid == TID_GONE)
		return 0;
	tid_find(sp, tid, &found);
	return found;
}

static void tid_grow(struct scap_suppress *sp)
{
	uint64_t *old = sp->tids;
	size_t oldcap = sp->cap, ncap = sp->cap * 2;
	uint64_t *n = calloc(ncap, sizeof(*n));

	if (!n)
		return;	/* keep the old table; it still has a free slot */
	sp->tids = n;
	sp->cap = ncap;
	sp->used = 0;
	for (size_t i = 0; i < oldcap; i++) {
		int found;

		if (old[i] != TID_EMPTY && old[i] != TID_GONE) {
			n[tid_find(sp, old[i], &found)] = old[i];
			sp->used++;
		}
	}
	free(old);
}

static void tid_add(struct scap_suppress *sp, uint64_t tid)
{
	int found;
	size_t i;

	if (tid == TID_EMPTY || tid == TID_GONE)
		return;
	if ((sp->used + 1) * 2 > sp->cap)
		tid_grow(sp);
	i = tid_find(sp, tid, &found);
	if (!found) {
		if (sp->tids[i] == TID_EMPTY)
			sp->used++;
		sp->tids[i] = tid;
	}
}

static void tid_del(struct scap_suppress *sp, uint64_t tid)
{
	int found;
	size_t i;

	if (tid == TID_EMPTY || tid == TID_GONE)
		return;
	i = tid_find(sp, tid, &found);
	if (found)
		sp->tids[i] = TID_GONE;
}

static int comm_listed(const struct scap_suppress *sp, const char *comm, size_t len)
{
	for (int i = 0; i < sp->ncomms; i++)
		if (strlen(sp->comms[i]) == len && !memcmp(sp->comms[i], comm, len))
			return 1;
	return 0;
}

/* the decision for a thread with this comm and parent; 1: suppressed */
static int update(struct scap_suppress *sp, const char *comm, size_t len, uint64_t tid, uint64_t ptid)
{
	int s = tid_has(sp, ptid) || comm_listed(sp, comm, len);

	if (s)
		tid_add(sp, tid);
	else
		tid_del(sp, tid);
	return s;
}

void scap_suppress_table(struct scap_suppress *sp, struct scap_metadata *m)
{
	for (uint32_t i = 0; i < m->nthreads;) {
		const struct scap_threadinfo *t = &m->threads[i];
		const char *comm = t->comm ? t->comm : "";

		if (update(sp, comm, strlen(comm), t->tid, t->ptid))
			scap_metadata_remove_thread(m, i);
		else
			i++;
	}
}

static uint64_t load_u64(const uint8_t *p, uint32_t len)
{
	uint64_t v = 0;

	if (len >= 8)
		memcpy(&v, p, 8);
	return v;
}

/* an exit event carrying the new comm (param 13) and the ptid (param 5) */
static int names_a_comm(const struct scap_evt *evt)
{
	const struct ppm_event_info *info;

	if (evt->type >= PPM_EVENT_MAX || ppm_event_is_enter(evt->type) || evt->nparams < 14)
		return 0;
	info = &g_event_info[evt->type];
	return info->params[13].name && !strcmp(info->params[13].name, "comm") &&
	       info->params[5].name && !strcmp(info->params[5].name, "ptid");
}

int scap_suppress_event(struct scap_suppress *sp, const struct scap_evt *evt)
{
	int s;

	if (names_a_comm(evt)) {
		uint32_t len = evt->plen[13];
		const char *comm = (const char *)evt->pval[13];

		if (len && comm[len - 1] == 0)
			len--;
		s = update(sp, comm, len, evt->tid, load_u64(evt->pval[5], evt->plen[5]));
	} else if (evt->type == PPME_PROCEXIT_1_E || evt->type == PPME_PROCEXIT_E) {
		s = tid_has(sp, evt->tid);
		tid_del(sp, evt->tid);
	} else {
		s = tid_has(sp, evt->tid);
	}
	if (s)
		sp->n_suppressed++;
	return s;
}

int scap_suppress_comms(struct scap *h, const char *const *comms, int n, int from_table)
{
	struct scap_suppress *sp;

	if (n <= 0)
		return 0;
	sp = calloc(1, sizeof(*sp));
	if (!sp)
		return -1;
	sp->cap = 1024;
	sp->tids = calloc(sp->cap, sizeof(*sp->tids));
	sp->comms = calloc((size_t)n, sizeof(*sp->comms));
	if (!sp->tids || !sp->comms) {
		free(sp->tids);
		free(sp->comms);
		free(sp);
		return -1;
	}
	for (int i = 0; i < n; i++)
		if ((sp->comms[i] = strdup(comms[i])))
			sp->ncomms++;
	h->suppress = sp;
	if (from_table)
		scap_suppress_table(sp, &h->meta);
	return 0;
}

uint64_t scap_suppressed_count(const struct scap *h)
{
	return h->suppress ? h->suppress->n_suppressed : 0;
}

void scap_suppress_free(struct scap_suppress *sp)
{
	if (!sp)
		return;
	for (int i = 0; i < sp->ncomms; i++)
		free(sp->comms[i]);
	free(sp->comms);
	free(sp->tids);
	free(sp);
}
