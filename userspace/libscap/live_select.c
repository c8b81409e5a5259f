/*
 * live_select.c - the kernel-side selection of a live capture
 * (live_select.h), shared by the bpf and the kmod engine.
 */
#define _GNU_SOURCE	/* nftw's FTW_ACTIONRETVAL */
#include <errno.h>
#include <ftw.h>
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

/* the names the kernel can have (1 to 15 characters) of names[n] into
 * list[max], flag into ls->flags when one went in */
static int plan_names(struct live_select *ls, const char *const *names, int n,
		      struct scap_bpf_comm *list, uint32_t *nlist, uint32_t max,
		      uint32_t flag, const char *what, char *err)
{
	for (int i = 0; i < n; i++) {
		size_t len = strlen(names[i]);

		if (!len || len >= sizeof(list[0].name))
			continue;
		if (*nlist == max) {
			snprintf(err, SCAP_ERRBUF_SIZE, "live capture: cannot %s %s: at most %u names",
				 what, names[i], max);
			return -1;
		}
		memcpy(list[(*nlist)++].name, names[i], len);
		ls->flags |= flag;
	}
	return 0;
}

/* container.id values the drivers follow: SCAP_BPF_CID_LEN characters each */
static void plan_cids(struct live_select *ls, const struct scap_select *sel)
{
	if (!sel || !sel->ncontainer_ids || sel->ncontainer_ids > SCAP_BPF_MAX_CIDS)
		return;
	for (uint32_t i = 0; i < sel->ncontainer_ids; i++)
		if (strlen(sel->container_ids[i]) != SCAP_BPF_CID_LEN)
			return;	/* not pushed down */
	for (uint32_t i = 0; i < sel->ncontainer_ids; i++)
		memcpy(ls->cids[i].id, sel->container_ids[i], SCAP_BPF_CID_LEN);
	ls->ncids = sel->ncontainer_ids;
	ls->flags |= SCAP_BPF_F_CGROUPS;
}

int live_select_plan(const struct scap_live_opts *o, struct live_select *ls, char *err)
{
	const struct scap_select *sel = o->select;

	memset(ls, 0, sizeof(*ls));
	plan_comm(ls, o->comm);
	if (plan_names(ls, o->suppress, o->nsuppress, ls->suppress, &ls->nsuppress,
		       SCAP_BPF_MAX_SUPPRESSED, SCAP_BPF_F_SUPPRESS, "suppress", err) ||
	    plan_names(ls, o->comms, o->ncomms, ls->comms, &ls->ncomms, SCAP_BPF_MAX_COMMS,
		       SCAP_BPF_F_COMMS, "select", err))
		return -1;
	if (sel && sel->npids + sel->ntids + sel->nroots)
		ls->flags |= SCAP_BPF_F_PIDS | (sel->nroots ? SCAP_BPF_F_TREE : 0) |
			     (sel->ntids ? SCAP_BPF_F_TIDS : 0);
	plan_cids(ls, sel);
	return 0;
}

/* the walk of one cgroup hierarchy (nftw has no context argument) */
static struct {
	const struct live_select *ls;
	int (*add)(void *drv, uint64_t id);
	void *drv;
	size_t root_len;
	int failed;
} cg_walk;

/* a cgroup directory whose path (from its hierarchy's root) names a
 * wanted id: its inode number is its kernfs id */
static int cgroup_dir(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	const char *rel = path + cg_walk.root_len;
	char id[SCAP_BPF_CID_LEN + 1] = { 0 };

	(void)ftw;
	if (type != FTW_D)
		return FTW_CONTINUE;
	for (uint32_t i = 0; i < cg_walk.ls->ncids; i++) {
		memcpy(id, cg_walk.ls->cids[i].id, SCAP_BPF_CID_LEN);
		if (strstr(rel, id)) {
			int e = cg_walk.add(cg_walk.drv, (uint64_t)st->st_ino);

			if (e)
				cg_walk.failed = e;
			break;
		}
	}
	return FTW_CONTINUE;
}

int live_select_cgroups(const struct live_select *ls, int (*cgroup_add)(void *drv, uint64_t id),
			void *drv, char *err)
{
	FILE *f = fopen("/proc/self/mountinfo", "r");
	char line[4096];

	if (!f) {
		snprintf(err, SCAP_ERRBUF_SIZE, "live capture: /proc/self/mountinfo: %s",
			 strerror(errno));
		return -1;
	}
	cg_walk.ls = ls;
	cg_walk.add = cgroup_add;
	cg_walk.drv = drv;
	cg_walk.failed = 0;
	while (fgets(line, sizeof(line), f)) {
		char mnt[2048], fstype[64];
		const char *sep = strstr(line, " - ");

		if (!sep || sscanf(line, "%*s %*s %*s %*s %2047s", mnt) != 1 ||
		    sscanf(sep + 3, "%63s", fstype) != 1 ||
		    (strcmp(fstype, "cgroup") && strcmp(fstype, "cgroup2")))
			continue;
		cg_walk.root_len = strlen(mnt);
		nftw(mnt, cgroup_dir, 16, FTW_PHYS | FTW_MOUNT | FTW_ACTIONRETVAL);
	}
	fclose(f);
	if (cg_walk.failed) {
		snprintf(err, SCAP_ERRBUF_SIZE, "live capture: cannot select the container cgroups: %s",
			 strerror(cg_walk.failed));
		return -1;
	}
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
