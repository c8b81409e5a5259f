/*
 * state_metadata.c - the state engine's thread and fd tables as a .scap
 * process table (PL + FDL blocks), for a file written in the middle of a
 * capture (sysdig --flight-recorder): its reader starts from the threads
 * and fds as they are now, as a file written from the start starts from
 * the /proc snapshot.  The inverse of threads_load() / fdinfo_from_scap().
 */
#include <stdlib.h>
#include <string.h>
#include "sinsp_int.h"

struct table_ctx {
	struct scap_metadata *m;
	uint64_t born_before;
	int failed;
};

void sinsp_fd_to_scap(struct scap_fdinfo *o, const struct sinsp_fdinfo *fdi)
{
	memset(o, 0, sizeof(*o));
	o->fd = fdi->fd;
	o->ino = fdi->ino;
	o->type = fdi->type;
	o->name = fdi->name;
	switch (fdi->type) {
	case SCAP_FD_IPV4_SOCK:
		memcpy(&o->info.ipv4.sip, fdi->sip, 4);
		memcpy(&o->info.ipv4.dip, fdi->dip, 4);
		o->info.ipv4.sport = fdi->sport;
		o->info.ipv4.dport = fdi->dport;
		o->info.ipv4.l4proto = fdi->l4proto;
		break;
	case SCAP_FD_IPV6_SOCK:
		memcpy(o->info.ipv6.sip, fdi->sip, 16);
		memcpy(o->info.ipv6.dip, fdi->dip, 16);
		o->info.ipv6.sport = fdi->sport;
		o->info.ipv6.dport = fdi->dport;
		o->info.ipv6.l4proto = fdi->l4proto;
		break;
	case SCAP_FD_IPV4_SERVSOCK:
		memcpy(&o->info.ipv4serv.ip, fdi->sip, 4);
		o->info.ipv4serv.port = fdi->sport;
		o->info.ipv4serv.l4proto = fdi->l4proto;
		break;
	case SCAP_FD_IPV6_SERVSOCK:
		memcpy(o->info.ipv6serv.ip, fdi->sip, 16);
		o->info.ipv6serv.port = fdi->sport;
		o->info.ipv6serv.l4proto = fdi->l4proto;
		break;
	case SCAP_FD_UNIX_SOCK:
		o->info.unix_sock.source = fdi->unix_src;
		o->info.unix_sock.destination = fdi->unix_dst;
		break;
	case SCAP_FD_FILE:
	case SCAP_FD_FILE_V2:
		/* the state keeps FILE_V2's flags and device on FILE */
		o->type = SCAP_FD_FILE_V2;
		o->open_flags = fdi->open_flags;
		o->dev = fdi->dev;
		break;
	default:
		break;
	}
}

static int add_fd(struct sinsp_fdinfo *fdi, void *arg)
{
	struct scap_threadinfo *t = arg;

	if (fdi->type <= SCAP_FD_UNKNOWN)
		return 0;
	if (t->nfds == t->fds_cap) {
		uint32_t cap = t->fds_cap ? t->fds_cap * 2 : 16;
		struct scap_fdinfo *n = realloc(t->fds, cap * sizeof(*n));

		if (!n)
			return 1;
		t->fds = n;
		t->fds_cap = cap;
	}
	sinsp_fd_to_scap(&t->fds[t->nfds++], fdi);
	return 0;
}

/* st as a process table entry; the strings are borrowed */
static void thread_to_scap(const struct sinsp_threadinfo *st, struct scap_threadinfo *t)
{
	memset(t, 0, sizeof(*t));
	t->tid = (uint64_t)st->tid;
	t->pid = (uint64_t)st->pid;
	t->ptid = (uint64_t)st->ptid;
	t->sid = st->sid;
	t->vpgid = st->vpgid;
	t->comm = st->comm;
	t->exe = st->exe;
	t->exepath = st->exepath;
	t->cwd = st->cwd;
	t->root = st->root;
	t->args = st->args;
	t->args_len = st->args_len;
	t->env = st->env;
	t->env_len = st->env_len;
	t->cgroups = st->cgroups;
	t->cgroups_len = st->cgroups_len;
	t->fdlimit = st->fdlimit;
	t->flags = st->flags & ~(uint32_t)PPM_CL_CLOSED;	/* its procexit closes it */
	t->uid = st->uid;
	t->gid = st->gid;
	t->vmsize_kb = st->vmsize_kb;
	t->vmrss_kb = st->vmrss_kb;
	t->vmswap_kb = st->vmswap_kb;
	t->pfmajor = st->pfmajor;
	t->pfminor = st->pfminor;
	t->vtid = st->vtid;
	t->vpid = st->vpid;
	t->loginuid = st->loginuid;
	t->exe_writable = st->exe_writable;
}

static int add_thread(struct sinsp_threadinfo *st, void *arg)
{
	struct table_ctx *c = arg;
	struct scap_metadata *m = c->m;
	struct scap_threadinfo *t;

	/* born in the window, or made up for an event of an unknown thread
	 * (a reader makes it up alike) */
	if (sinsp_thread_born_in(st->clone_ts, st->made_ts, c->born_before) ||
	    !strcmp(st->comm, "<NA>"))
		return 0;
	if (m->nthreads == m->threads_cap) {
		uint32_t cap = m->threads_cap ? m->threads_cap * 2 : 256;
		struct scap_threadinfo *n = realloc(m->threads, cap * sizeof(*n));

		if (!n) {
			c->failed = 1;
			return 1;
		}
		m->threads = n;
		m->threads_cap = cap;
	}
	t = &m->threads[m->nthreads++];
	thread_to_scap(st, t);
	/* threads sharing their process's table have none of their own */
	if (st->fdtable)
		sinsp_foreach_fd(st->fdtable, add_fd, t);
	return 0;
}

static char *dup_bytes(const char *p, size_t n, size_t *total)
{
	char *d = malloc(n + 1);

	if (d) {
		memcpy(d, p, n);
		d[n] = 0;
		*total += n + 1;
	}
	return d;
}

long sinsp_thread_copy(struct sinsp *s, struct sinsp_threadinfo *st, struct scap_threadinfo *out)
{
	struct sinsp_fdtable *ft = st->fdtable;
	size_t total = sizeof(*out);
	int failed = 0;

	thread_to_scap(st, out);
	out->comm = dup_bytes(st->comm, strlen(st->comm), &total);
	out->exe = dup_bytes(st->exe, strlen(st->exe), &total);
	out->exepath = dup_bytes(st->exepath, strlen(st->exepath), &total);
	out->cwd = dup_bytes(st->cwd, strlen(st->cwd), &total);
	out->root = dup_bytes(st->root, strlen(st->root), &total);
	out->args = st->args ? dup_bytes(st->args, st->args_len, &total) : NULL;
	out->env = st->env ? dup_bytes(st->env, st->env_len, &total) : NULL;
	out->cgroups = st->cgroups ? dup_bytes(st->cgroups, st->cgroups_len, &total) : NULL;
	if (!ft && st->tid == st->pid)
		ft = sinsp_thread_fdtable(s, st);
	if (ft)
		sinsp_foreach_fd(ft, add_fd, out);
	for (uint32_t i = 0; i < out->nfds; i++) {
		out->fds[i].name = dup_bytes(out->fds[i].name, strlen(out->fds[i].name), &total);
		total += sizeof(out->fds[i]);
		if (!out->fds[i].name)
			failed = 1;
	}
	if (failed || !out->comm || !out->exe || !out->exepath || !out->cwd || !out->root ||
	    (st->args && !out->args) || (st->env && !out->env) || (st->cgroups && !out->cgroups)) {
		scap_thread_free(out);
		return -1;
	}
	return (long)total;
}

int sinsp_thread_born_in(uint64_t clone_ts, uint64_t made_ts, uint64_t born_before)
{
	return (clone_ts && clone_ts >= born_before) || (made_ts && made_ts >= born_before);
}

int sinsp_state_metadata(struct sinsp *s, struct scap_metadata *m, uint64_t born_before)
{
	struct table_ctx c = { m, born_before, 0 };

	*m = s->scap->meta;
	m->threads = NULL;
	m->nthreads = m->threads_cap = 0;
	sinsp_foreach_thread(s, add_thread, &c);
	if (c.failed) {
		sinsp_state_metadata_free(m);
		return -1;
	}
	return 0;
}

void sinsp_state_metadata_free(struct scap_metadata *m)
{
	for (uint32_t i = 0; i < m->nthreads; i++)
		free(m->threads[i].fds);
	free(m->threads);
	m->threads = NULL;
	m->nthreads = m->threads_cap = 0;
}
