/*
 * scap_metadata.c - ownership helpers for struct scap_metadata (scap.h).
 *
 * Every engine (savefile reader, live /proc snapshot) fills the same
 * metadata structure: machine info, threads with their fds, interfaces and
 * users.  These helpers grow the arrays, set the reader defaults of absent
 * fields (docs/scap_format.md, "Process list") and free everything.
 */
#include <stdlib.h>
#include <string.h>
#include "scap.h"

/* Make room for one more element of size sz in *arr (count n, capacity *cap). */
static int grow(void **arr, uint32_t n, uint32_t *cap, size_t sz)
{
	uint32_t ncap;
	void *p;

	if (n < *cap)
		return 0;
	if (*cap >= UINT32_MAX / 2)
		return -1;
	ncap = *cap ? *cap * 2 : 16;
	p = realloc(*arr, (size_t)ncap * sz);
	if (!p)
		return -1;
	*arr = p;
	*cap = ncap;
	return 0;
}

struct scap_threadinfo *scap_metadata_add_thread(struct scap_metadata *m)
{
	struct scap_threadinfo *t;

	if (grow((void **)&m->threads, m->nthreads, &m->threads_cap, sizeof(*t)))
		return NULL;
	t = &m->threads[m->nthreads++];
	memset(t, 0, sizeof(*t));
	t->sid = -1;
	t->vpgid = -1;
	t->vtid = -1;
	t->vpid = -1;
	t->loginuid = UINT32_MAX;
	return t;
}

/* A zeroed slot after the n elements of *arr, growing it to the next power
 * of two (at least 4) when n reaches one; NULL when out of memory. */
static void *new_slot(void **arr, uint32_t n, size_t sz)
{
	void *p = *arr;

	if (n == 0 || (n >= 4 && !(n & (n - 1)))) {
		if (n >= UINT32_MAX / 2)
			return NULL;
		p = realloc(*arr, (size_t)(n ? n * 2 : 4) * sz);
		if (!p)
			return NULL;
		*arr = p;
	}
	p = (char *)p + (size_t)n * sz;
	memset(p, 0, sz);
	return p;
}

struct scap_userinfo *scap_metadata_new_user(struct scap_metadata *m)
{
	return new_slot((void **)&m->users, m->nusers, sizeof(*m->users));
}

struct scap_groupinfo *scap_metadata_new_group(struct scap_metadata *m)
{
	return new_slot((void **)&m->groups, m->ngroups, sizeof(*m->groups));
}

struct scap_ifinfo_ipv4 *scap_metadata_new_ipv4(struct scap_metadata *m)
{
	return new_slot((void **)&m->ipv4, m->nipv4, sizeof(*m->ipv4));
}

struct scap_ifinfo_ipv6 *scap_metadata_new_ipv6(struct scap_metadata *m)
{
	return new_slot((void **)&m->ipv6, m->nipv6, sizeof(*m->ipv6));
}

struct scap_fdinfo *scap_thread_add_fd(struct scap_threadinfo *t)
{
	struct scap_fdinfo *f;

	if (grow((void **)&t->fds, t->nfds, &t->fds_cap, sizeof(*f)))
		return NULL;
	f = &t->fds[t->nfds++];
	memset(f, 0, sizeof(*f));
	return f;
}

static void free_thread(struct scap_threadinfo *t)
{
	uint32_t i;

	for (i = 0; i < t->nfds; i++)
		free(t->fds[i].name);
	free(t->fds);
	free(t->comm);
	free(t->exe);
	free(t->exepath);
	free(t->cwd);
	free(t->root);
	free(t->args);
	free(t->env);
	free(t->cgroups);
}

void scap_thread_free(struct scap_threadinfo *t)
{
	free_thread(t);
	memset(t, 0, sizeof(*t));
}

void scap_metadata_remove_thread(struct scap_metadata *m, uint32_t i)
{
	if (i >= m->nthreads)
		return;
	free_thread(&m->threads[i]);
	memmove(&m->threads[i], &m->threads[i + 1], (m->nthreads - i - 1) * sizeof(m->threads[0]));
	m->nthreads--;
}

void scap_metadata_drop_users(struct scap_metadata *m)
{
	free(m->users);
	free(m->groups);
	m->users = NULL;
	m->groups = NULL;
	m->nusers = m->ngroups = 0;
	m->has_userlist = 0;
}

void scap_metadata_free(struct scap_metadata *m)
{
	uint32_t i;

	for (i = 0; i < m->nthreads; i++)
		free_thread(&m->threads[i]);
	free(m->threads);
	free(m->ipv4);
	free(m->ipv6);
	free(m->users);
	free(m->groups);
	memset(m, 0, sizeof(*m));
}
