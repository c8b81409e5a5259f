/*
 * threads.c - the thread table of the libsinsp state engine.
 *
 * Threads are kept in an int64 hash keyed by tid (one-entry lookup cache
 * in front).  The table is filled from the metadata of the capture
 * (sinsp_threadinfo::init + add_fd_from_scap of libsinsp e5c53d64, then
 * child counts and the direction of /proc sockets are fixed), and changed
 * by parser.c.  Also: placeholders for unknown tids, main thread / parent
 * lookups, per-process cwd and fd table resolution, users and groups.
 */
#include <stdlib.h>
#include "sinsp_int.h"
#include "tracer.h"

static char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = malloc(n);

	if (d)
		memcpy(d, s, n);
	return d;
}

void ss_set_str(char **dst, const char *src, size_t len)
{
	char *n = malloc(len + 1);

	if (!n)
		return;
	memcpy(n, src, len);
	n[len] = 0;
	free(*dst);
	*dst = n;
}

void ss_set_buf(char **dst, uint32_t *dlen, const uint8_t *src, uint32_t len)
{
	char *n = malloc(len + 1);

	if (!n)
		return;
	if (len)
		memcpy(n, src, len);
	n[len] = 0;
	free(*dst);
	*dst = n;
	*dlen = len;
}

struct sinsp_threadinfo *thread_new(void)
{
	struct sinsp_threadinfo *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->comm = xstrdup("");
	t->exe = xstrdup("");
	t->exepath = xstrdup("");
	t->cwd = xstrdup("");
	t->root = xstrdup("");
	t->args = xstrdup("");
	t->env = xstrdup("");
	t->cgroups = xstrdup("");
	if (!t->comm || !t->exe || !t->exepath || !t->cwd || !t->root || !t->args ||
	    !t->env || !t->cgroups) {
		thread_free(t);
		return NULL;
	}
	t->pid = t->ptid = t->sid = t->vpgid = t->vtid = t->vpid = -1;
	t->lastevent_fd = -1;
	return t;
}

void thread_free(struct sinsp_threadinfo *t)
{
	if (!t)
		return;
	free(t->comm);
	free(t->exe);
	free(t->exepath);
	free(t->cwd);
	free(t->root);
	free(t->args);
	free(t->env);
	free(t->cgroups);
	free(t->last_enter);
	tracer_parser_free(t->tracer);
	fdtable_free(t->fdtable);
	free(t);
}

struct sinsp_threadinfo *thread_find(struct sinsp *s, int64_t tid)
{
	struct sinsp_threadtable *tt = s->threads;
	struct sinsp_threadinfo *t;

	if (tt->last && tt->last->tid == tid)
		return tt->last;
	t = i64map_get(&tt->map, tid);
	if (t)
		tt->last = t;
	return t;
}

struct sinsp_threadinfo *sinsp_get_thread(struct sinsp *s, int64_t tid)
{
	return thread_find(s, tid);
}

struct sinsp_threadinfo *sinsp_get_main_thread(struct sinsp *s, struct sinsp_threadinfo *t)
{
	if (!t)
		return NULL;
	if (t->pid == t->tid || (t->flags & PPM_CL_IS_MAIN_THREAD))
		return t;
	return thread_find(s, t->pid);
}

struct sinsp_threadinfo *sinsp_get_parent(struct sinsp *s, struct sinsp_threadinfo *t)
{
	return t ? thread_find(s, t->ptid) : NULL;
}

/* in the reference's order (see sinsp_threadtable.walk) */
void sinsp_foreach_thread(struct sinsp *s, int (*cb)(struct sinsp_threadinfo *t, void *arg), void *arg)
{
	for (struct stl_hash_node *n = stl_hash_first(&s->threads->walk); n; n = n->next) {
		struct sinsp_threadinfo *t = (struct sinsp_threadinfo *)
			((char *)n - offsetof(struct sinsp_threadinfo, table_node));

		if (cb(t, arg))
			return;
	}
}

/* the table holding t's fds: its main thread's when it shares (CLONE_FILES) */
struct sinsp_fdtable *sinsp_thread_fdtable(struct sinsp *s, struct sinsp_threadinfo *t)
{
	struct sinsp_threadinfo *root = t;

	if (!t)
		return NULL;
	if (t->flags & PPM_CL_CLONE_FILES) {
		root = sinsp_get_main_thread(s, t);
		if (!root)
			return NULL;
	}
	if (!root->fdtable)
		root->fdtable = fdtable_new(s->fd_pool);
	return root->fdtable;
}

struct sinsp_fdinfo *thread_fd(struct sinsp *s, struct sinsp_threadinfo *t, int64_t fd)
{
	struct sinsp_threadinfo *root = t;

	if (!t)
		return NULL;
	if (t->flags & PPM_CL_CLONE_FILES) {
		root = sinsp_get_main_thread(s, t);
		if (!root)
			return NULL;
	}
	return root->fdtable ? i64map_get(&root->fdtable->map, fd) : NULL;
}

struct sinsp_fdinfo *thread_add_fd(struct sinsp *s, struct sinsp_threadinfo *t, int64_t fd, const struct sinsp_fdinfo *src)
{
	struct sinsp_fdtable *ft = sinsp_thread_fdtable(s, t);

	return ft ? fdtable_add(ft, fd, src) : NULL;
}

/* get_cwd(): the main thread's cwd, "./" when there is none */
const char *thread_cwd(struct sinsp *s, struct sinsp_threadinfo *t)
{
	struct sinsp_threadinfo *m = sinsp_get_main_thread(s, t);

	return m ? m->cwd : "./";
}

/* set_cwd(): resolved against the old cwd, always ending in '/' */
void thread_set_cwd(struct sinsp *s, struct sinsp_threadinfo *t, const char *path, size_t len)
{
	char buf[SINSP_MAX_PATH + 1];
	struct sinsp_threadinfo *root = (t->flags & PPM_CL_CLONE_FS) ? sinsp_get_main_thread(s, t) : t;
	size_t n;

	if (!root)
		return;
	ss_concatenate_paths(buf, SINSP_MAX_PATH, root->cwd, strlen(root->cwd), path, len);
	n = strlen(buf);
	if (n == 0 || buf[n - 1] != '/') {
		buf[n] = '/';
		buf[n + 1] = 0;
	}
	ss_set_str(&root->cwd, buf, strlen(buf));
}

static void count_child(struct sinsp *s, struct sinsp_threadinfo *t)
{
	struct sinsp_threadinfo *m;

	if (!(t->flags & PPM_CL_CLONE_THREAD) || t->pid == t->tid)
		return;
	m = thread_find(s, t->pid);
	if (m)
		m->nchildren++;
}

int thread_add(struct sinsp *s, struct sinsp_threadinfo *t, int count)
{
	struct sinsp_threadtable *tt = s->threads;
	struct sinsp_threadinfo *old = i64map_get(&tt->map, t->tid);

	if (old != t && i64map_put(&tt->map, t->tid, t))
		return -1;
	if (!old) {	/* std::hash of a tid is the tid */
		if (stl_hash_insert(&tt->walk, &t->table_node, (size_t)t->tid)) {
			i64map_del(&tt->map, t->tid);
			return -1;
		}
	} else if (old != t) {	/* a thread replacing one takes its place */
		stl_hash_replace(&tt->walk, &old->table_node, &t->table_node);
		if (tt->last == old)
			tt->last = NULL;
	}
	if (count)
		count_child(s, t);
	return 0;
}

/* sinsp_thread_manager::remove_thread */
void thread_remove(struct sinsp *s, int64_t tid, int force)
{
	struct sinsp_threadinfo *t = thread_find(s, tid), *m;

	if (!t || (t->nchildren != 0 && !force))
		return;
	m = sinsp_get_main_thread(s, t);
	if (m && m != t && m->nchildren > 0)
		m->nchildren--;
	i64map_del(&s->threads->map, tid);
	stl_hash_erase(&s->threads->walk, &t->table_node);
	if (s->threads->last == t)
		s->threads->last = NULL;
	thread_free(t);
}

struct sinsp_threadinfo *thread_get_or_create(struct sinsp *s, int64_t tid, uint64_t ts)
{
	struct sinsp_threadinfo *t = thread_find(s, tid);

	if (t || s->threads->map.count >= SINSP_MAX_THREADS)
		return t;
	t = thread_new();
	if (!t)
		return NULL;
	t->tid = t->pid = tid;
	t->ptid = -1;
	t->made_ts = ts;
	ss_set_str(&t->comm, "<NA>", 4);
	ss_set_str(&t->exe, "<NA>", 4);
	t->uid = t->gid = t->loginuid = 0xFFFFFFFF;
	t->fdlimit = (uint64_t)-1;
	t->flags = PPM_CL_NAME_CHANGED;	/* as the reference's thread table shows */
	if (thread_add(s, t, 1)) {
		thread_free(t);
		return NULL;
	}
	return t;
}

static int free_cb(void *val, void *arg)
{
	(void)arg;
	thread_free(val);
	return 0;
}

void threads_clear(struct sinsp *s)
{
	i64map_foreach(&s->threads->map, free_cb, NULL);
	i64map_free(&s->threads->map);
	stl_hash_free(&s->threads->walk);
	s->threads->last = NULL;
}

/* sinsp_threadinfo::init(scap_threadinfo *) */
static struct sinsp_threadinfo *thread_from_scap(struct sinsp *s, const struct scap_threadinfo *p)
{
	struct sinsp_threadinfo *t = thread_new();
	char name[SINSP_MAX_PATH + 64];
	uint32_t i;

	if (!t)
		return NULL;
	t->tid = (int64_t)p->tid;
	t->pid = (int64_t)p->pid;
	t->ptid = (int64_t)p->ptid;
	t->sid = p->sid;
	t->vpgid = p->vpgid;
	ss_set_str(&t->comm, p->comm ? p->comm : "", p->comm ? strlen(p->comm) : 0);
	ss_set_str(&t->exe, p->exe ? p->exe : "", p->exe ? strlen(p->exe) : 0);
	ss_set_str(&t->exepath, p->exepath ? p->exepath : "", p->exepath ? strlen(p->exepath) : 0);
	ss_set_str(&t->root, p->root ? p->root : "", p->root ? strlen(p->root) : 0);
	if (p->args)
		ss_set_buf(&t->args, &t->args_len, (const uint8_t *)p->args, p->args_len);
	if (p->env)
		ss_set_buf(&t->env, &t->env_len, (const uint8_t *)p->env, p->env_len);
	if (p->cgroups)
		ss_set_buf(&t->cgroups, &t->cgroups_len, (const uint8_t *)p->cgroups, p->cgroups_len);
	t->flags = p->flags | PPM_CL_ACTIVE | PPM_CL_NAME_CHANGED;	/* as the reference */
	t->fdlimit = p->fdlimit;
	t->uid = p->uid;
	t->gid = p->gid;
	t->loginuid = p->loginuid;
	t->vmsize_kb = p->vmsize_kb;
	t->vmrss_kb = p->vmrss_kb;
	t->vmswap_kb = p->vmswap_kb;
	t->pfmajor = p->pfmajor;
	t->pfminor = p->pfminor;
	t->vtid = p->vtid;
	t->vpid = p->vpid;
	t->exe_writable = p->exe_writable;
	if (p->cwd)
		thread_set_cwd(s, t, p->cwd, strlen(p->cwd));
	if (p->nfds) {
		t->fdtable = fdtable_new(s->fd_pool);
		for (i = 0; t->fdtable && i < p->nfds; i++) {
			struct sinsp_fdinfo fdi;

			if (p->fds[i].type <= SCAP_FD_UNKNOWN)
				continue;
			fdinfo_from_scap(&fdi, &p->fds[i], name, sizeof(name));
			fdtable_add(t->fdtable, fdi.fd, &fdi);
		}
	}
	return t;
}

/* server ports of the snapshot (sinsp m_server_ports), as a bitmap */
struct fix_ctx {
	uint8_t ports[65536 / 8];
};

static int collect_ports_fd(struct sinsp_fdinfo *fdi, void *arg)
{
	struct fix_ctx *c = arg;

	if (fdi->type == SCAP_FD_IPV4_SERVSOCK || fdi->type == SCAP_FD_IPV6_SERVSOCK)
		c->ports[fdi->sport / 8] |= (uint8_t)(1u << (fdi->sport % 8));
	return 0;
}

static int collect_ports(struct sinsp_threadinfo *t, void *arg)
{
	sinsp_foreach_fd(t->fdtable, collect_ports_fd, arg);
	return 0;
}

/* fix_sockets_coming_from_proc: an IPv4 socket whose source port is a
 * server port is the server side: swap so that the client comes first */
static int fix_socket(struct sinsp_fdinfo *fdi, void *arg)
{
	struct fix_ctx *c = arg;
	char name[128];

	if (fdi->type != SCAP_FD_IPV4_SOCK)
		return 0;
	if (c->ports[fdi->sport / 8] & (1u << (fdi->sport % 8))) {
		uint8_t ip[4];
		uint16_t port = fdi->sport;

		memcpy(ip, fdi->sip, 4);
		memcpy(fdi->sip, fdi->dip, 4);
		memcpy(fdi->dip, ip, 4);
		fdi->sport = fdi->dport;
		fdi->dport = port;
		fd_tuple_name(fdi, name, sizeof(name));
		fdinfo_set_name(fdi, name);
		fd_set_role_server(fdi);
	} else {
		fd_set_role_client(fdi);
	}
	return 0;
}

static int fix_sockets(struct sinsp_threadinfo *t, void *arg)
{
	sinsp_foreach_fd(t->fdtable, fix_socket, arg);
	return 0;
}

static int count_children_cb(struct sinsp_threadinfo *t, void *arg)
{
	count_child(arg, t);
	return 0;
}

int threads_load(struct sinsp *s, const struct scap_metadata *meta)
{
	struct fix_ctx *fix;
	uint32_t i;

	for (i = 0; i < meta->nthreads; i++) {
		struct sinsp_threadinfo *t = thread_from_scap(s, &meta->threads[i]);
		struct sinsp_threadinfo *old;

		if (!t)
			return -1;
		old = i64map_get(&s->threads->map, t->tid);
		if (thread_add(s, t, 0)) {
			thread_free(t);
			return -1;
		}
		if (old && old != t)
			thread_free(old);
		containers_add_thread(s, t);
	}
	s->threads->last = NULL;
	sinsp_foreach_thread(s, count_children_cb, s);
	fix = calloc(1, sizeof(*fix));
	if (!fix)
		return -1;
	sinsp_foreach_thread(s, collect_ports, fix);
	sinsp_foreach_thread(s, fix_sockets, fix);
	free(fix);
	return 0;
}

const char *sinsp_user_name(struct sinsp *s, uint32_t uid)
{
	uint32_t i;

	if (!s->meta)
		return NULL;
	for (i = 0; i < s->meta->nusers; i++)
		if (s->meta->users[i].uid == uid)
			return s->meta->users[i].name;
	return NULL;
}

const char *sinsp_group_name(struct sinsp *s, uint32_t gid)
{
	uint32_t i;

	if (!s->meta)
		return NULL;
	for (i = 0; i < s->meta->ngroups; i++)
		if (s->meta->groups[i].gid == gid)
			return s->meta->groups[i].name;
	return NULL;
}
