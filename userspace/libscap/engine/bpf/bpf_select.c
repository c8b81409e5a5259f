/*
 * bpf_select.c - which tasks the BPF driver captures, from the open options
 * (scap_live_opts comm / comms / select / suppress, planned by
 * live_select.c): the settings flags, the sel_tgids / sel_tids bitmaps, the
 * sel_comms / want_comms maps and the container cgroups of
 * driver/bpf/select.bpf.h.  A process tree is seeded from the /proc
 * snapshot (its existing descendants); the driver adds the ones forked
 * later.
 */
#define _GNU_SOURCE	/* nftw's FTW_ACTIONRETVAL */
#include <errno.h>
#include <ftw.h>
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

/* ------------------------------------------------ container cgroups */

/* the walk of one cgroup hierarchy (nftw has no context argument) */
static struct {
	struct probe_bpf *s;
	const struct scap_select *sel;
	size_t root_len;
	int failed;
} cg_walk;

static void cgroup_select(struct probe_bpf *s, uint64_t id)
{
	uint8_t one = 1;

	if (bpf_map__update_elem(s->maps.sel_cgroups, &id, sizeof(id), &one, sizeof(one), BPF_ANY))
		cg_walk.failed = errno;
	__atomic_fetch_or(&s->bss->sel_cg_hint[(id / 64) % SCAP_BPF_CG_HINT_WORDS],
			  1ULL << (id % 64), __ATOMIC_RELAXED);
}

/* a cgroup directory whose path (from its hierarchy's root) names a
 * wanted id: its inode number is its kernfs id, which the driver sees */
static int cgroup_dir(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	const char *rel = path + cg_walk.root_len;

	(void)ftw;
	if (type != FTW_D)
		return FTW_CONTINUE;
	for (uint32_t i = 0; i < cg_walk.sel->ncontainer_ids; i++)
		if (strstr(rel, cg_walk.sel->container_ids[i])) {
			cgroup_select(cg_walk.s, (uint64_t)st->st_ino);
			break;
		}
	return FTW_CONTINUE;
}

/* every mounted cgroup hierarchy (v1 and v2) of /proc/self/mountinfo */
static int select_cgroups(struct probe_bpf *s, const struct scap_select *sel, char *err)
{
	FILE *f = fopen("/proc/self/mountinfo", "r");
	char line[4096];

	if (!f) {
		snprintf(err, SCAP_ERRBUF_SIZE, "live capture: /proc/self/mountinfo: %s",
			 strerror(errno));
		return -1;
	}
	cg_walk.s = s;
	cg_walk.sel = sel;
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

/* container.id values the driver follows: 12 characters each */
static int set_container_ids(struct probe_bpf *s, const struct scap_select *sel, char *err)
{
	uint8_t one = 1;

	if (!sel || !sel->ncontainer_ids)
		return 0;
	for (uint32_t i = 0; i < sel->ncontainer_ids; i++)
		if (strlen(sel->container_ids[i]) != SCAP_BPF_CID_LEN)
			return 0;	/* not pushed down */
	for (uint32_t i = 0; i < sel->ncontainer_ids; i++) {
		struct scap_bpf_cid k = { { 0 } };

		memcpy(k.id, sel->container_ids[i], SCAP_BPF_CID_LEN);
		if (bpf_map__update_elem(s->maps.want_ids, &k, sizeof(k), &one, sizeof(one), BPF_ANY)) {
			snprintf(err, SCAP_ERRBUF_SIZE, "live capture: cannot select container %s: %s",
				 sel->container_ids[i], strerror(errno));
			return -1;
		}
	}
	if (select_cgroups(s, sel, err))
		return -1;
	s->bss->settings.flags |= SCAP_BPF_F_CGROUPS;
	return 0;
}

/* names the kernel can have (up to 15 characters) into map m of the
 * driver, flag set when one went in */
static int add_comms(struct probe_bpf *s, struct bpf_map *m, const char *const *names, int n,
		     uint32_t flag, const char *what, char *err)
{
	uint8_t one = 1;

	for (int i = 0; i < n; i++) {
		struct scap_bpf_comm k = { { 0 } };
		size_t len = strlen(names[i]);

		if (!len || len >= sizeof(k.name))
			continue;
		memcpy(k.name, names[i], len);
		if (bpf_map__update_elem(m, &k, sizeof(k), &one, sizeof(one), BPF_ANY)) {
			snprintf(err, SCAP_ERRBUF_SIZE, "live capture: cannot %s %s: %s", what,
				 names[i], strerror(errno));
			return -1;
		}
		s->bss->settings.flags |= flag;
	}
	return 0;
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
	if (add_comms(s, s->maps.want_comms, o->comms, o->ncomms, SCAP_BPF_F_COMMS, "select", err))
		return -1;
	return set_container_ids(s, o->select, err);
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

	/* the cgroups made between the first walk and the attach (the
	 * mkdir hook follows those made since) */
	if (s->bss->settings.flags & SCAP_BPF_F_CGROUPS)
		select_cgroups(s, o->select, err);
	live_select_descendants(o, m, has_tgid, add_id, s);
}
