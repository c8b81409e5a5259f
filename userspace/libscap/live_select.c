/*
 * live_select.c - the kernel-side selection of a live capture
 * (live_select.h), shared by the bpf and the kmod engine.
 */
#include <stdio.h>
#include <string.h>
#include "live_select.h"

/* opts->comm as the drivers compare it */
static void plan_comm(struct live_select *ls, const char *comm)
{
	uint8_t name[16] = { 0 }, mask[16] = { 0 };
	size_t n = comm ? strlen(comm) : 0;

	if (!n || n >= sizeof(name))
		return;
	memcpy(name, comm, n);
	memset(mask, 0xff, n + 1);
	memcpy(ls->comm, name, sizeof(name));
	memcpy(ls->comm_mask, mask, sizeof(mask));
	ls->flags |= SCAP_BPF_F_COMM;
}

int live_select_plan(const struct scap_live_opts *o, struct live_select *ls, char *err)
{
	const struct scap_select *sel = o->select;

	memset(ls, 0, sizeof(*ls));
	plan_comm(ls, o->comm);
	for (int i = 0; i < o->nsuppress; i++) {
		size_t n = strlen(o->suppress[i]);

		if (!n || n >= sizeof(ls->suppress[0].name))
			continue;
		if (ls->nsuppress == SCAP_BPF_MAX_SUPPRESSED) {
			snprintf(err, SCAP_ERRBUF_SIZE, "live capture: cannot suppress %s: at most %d names",
				 o->suppress[i], SCAP_BPF_MAX_SUPPRESSED);
			return -1;
		}
		memcpy(ls->suppress[ls->nsuppress++].name, o->suppress[i], n);
		ls->flags |= SCAP_BPF_F_SUPPRESS;
	}
	if (sel && sel->npids + sel->ntids + sel->nroots)
		ls->flags |= SCAP_BPF_F_PIDS | (sel->nroots ? SCAP_BPF_F_TREE : 0) |
			     (sel->ntids ? SCAP_BPF_F_TIDS : 0);
	return 0;
}

static void add_all(const uint32_t *ids, uint32_t n, int is_tid,
		    void (*id_add)(void *, uint32_t, uint32_t), void *drv)
{
	for (uint32_t i = 0; i < n; i++)
		if (ids[i] && ids[i] < SCAP_BPF_PID_LIMIT)
			id_add(drv, is_tid ? 0 : ids[i], is_tid ? ids[i] : 0);
}

void live_select_ids(const struct scap_live_opts *o, void (*id_add)(void *, uint32_t, uint32_t), void *drv)
{
	const struct scap_select *sel = o->select;

	if (!sel)
		return;
	add_all(sel->pids, sel->npids, 0, id_add, drv);
	add_all(sel->tids, sel->ntids, 1, id_add, drv);
	add_all(sel->roots, sel->nroots, 0, id_add, drv);
}

void live_select_descendants(const struct scap_live_opts *o, const struct scap_metadata *m,
			     int (*has)(void *, uint32_t), void (*id_add)(void *, uint32_t, uint32_t),
			     void *drv)
{
	int grew = 1;

	if (!o->select || !o->select->nroots)
		return;
	while (grew) {
		grew = 0;
		for (uint32_t i = 0; i < m->nthreads; i++) {
			const struct scap_threadinfo *t = &m->threads[i];

			if (t->tid != t->pid || !t->pid || t->pid >= SCAP_BPF_PID_LIMIT ||
			    !t->ptid || t->ptid >= SCAP_BPF_PID_LIMIT ||
			    has(drv, (uint32_t)t->pid) || !has(drv, (uint32_t)t->ptid))
				continue;
			id_add(drv, (uint32_t)t->pid, 0);
			grew = 1;
		}
	}
}

int live_select_lifecycle(uint16_t ev)
{
	switch (ev) {
	case PPME_SYSCALL_CLONE_20_E:
	case PPME_SYSCALL_CLONE_20_X:
	case PPME_SYSCALL_FORK_20_E:
	case PPME_SYSCALL_FORK_20_X:
	case PPME_SYSCALL_VFORK_20_E:
	case PPME_SYSCALL_VFORK_20_X:
	case PPME_SYSCALL_CLONE3_E:
	case PPME_SYSCALL_CLONE3_X:
	case PPME_SYSCALL_EXECVE_19_E:
	case PPME_SYSCALL_EXECVE_19_X:
	case PPME_SYSCALL_EXECVEAT_E:
	case PPME_SYSCALL_EXECVEAT_X:
	case PPME_PROCEXIT_1_E:
		return 1;
	}
	return 0;
}
