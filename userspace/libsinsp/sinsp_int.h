/*
 * sinsp_int.h - private declarations of the libsinsp state engine.
 *
 * Shared by threads.c (thread table), fds.c (fd tables, fd naming),
 * parser.c (per-event state updates, docs/architecture.md) and sinsp.c
 * (open/close/next).  Nothing here is part of the public API (sinsp.h).
 */
#ifndef SINSP_INT_H
#define SINSP_INT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "sinsp.h"
#include "ppm_flags.h"	/* PPM_CL_*, PPM_AF_*, PPM_O_*, PPM_FCNTL_*: the event table's values */

/* Thread flags: flags.tsv clone_flags (ppm_flags.h) plus libsinsp's own bits */
#define PPM_CL_ACTIVE (1u << 19)
#define PPM_CL_PIPE_SRC (1u << 21)
#define PPM_CL_PIPE_DST (1u << 22)
#define PPM_CL_IS_MAIN_THREAD (1u << 30)

#define PPM_AT_FDCWD (-100)	/* the dirfd value of AT_FDCWD in events */

#define SINSP_MAX_PATH 1024	/* SCAP_MAX_PATH_SIZE */
#define SINSP_ENTER_BUF_SIZE 4096	/* SP_EVT_BUF_SIZE: larger enters are not stored */
#define SINSP_MAX_THREADS 131072	/* no placeholders beyond this */
#define SINSP_CANCELED_FD INT64_MAX	/* slot of an fd whose close was canceled */

/* ---- int64 -> pointer hash map (open addressing, linear probing) ---- */
struct i64map {
	int64_t *keys;
	void **vals;		/* NULL = empty slot */
	uint32_t cap;		/* power of two, 0 when unallocated */
	uint32_t count;
};

void *i64map_get(const struct i64map *m, int64_t key);
int i64map_put(struct i64map *m, int64_t key, void *val);	/* replaces; 0 or -1 (ENOMEM) */
void *i64map_del(struct i64map *m, int64_t key);	/* returns the removed value */
void i64map_free(struct i64map *m);
/* calls cb for every value until it returns non-zero; cb must not modify m */
void i64map_foreach(const struct i64map *m, int (*cb)(void *val, void *arg), void *arg);

/* ---- fd tables (fds.c) ---- */
#define FDF_CLOSE_IN_PROGRESS 1
#define FDF_CLOSE_CANCELED 2

/* What a name made from a unix socket tuple was made of (see
 * fdinfo_set_unix_tuple_name): "src->dst path", header length and length */
struct tuple_name {
	uint64_t src, dst;
	uint32_t hlen, len;
	int valid;
};

/* An fd entry: the public info plus bookkeeping.  Entries are recycled
 * through a free list so that opening files does not malloc. */
struct fd_entry {
	struct sinsp_fdinfo info;	/* must stay first */
	uint32_t name_cap;
	uint32_t flags;		/* FDF_* */
	struct fd_entry *next_free;
	/* the unix tuple names of info.name and of the name before it (the
	 * receive and send tuples of a connection alternate) */
	struct tuple_name cur, alt;
	char *alt_name;
	uint32_t alt_cap;
};

struct fd_pool {
	struct fd_entry *free_list;
};

struct sinsp_fdtable {
	struct i64map map;
	struct fd_pool *pool;
};

struct sinsp_fdtable *fdtable_new(struct fd_pool *pool);
void fdtable_free(struct sinsp_fdtable *ft);
void fdtable_clear(struct sinsp_fdtable *ft);
/* adds (a copy of) src under number fd, replacing an existing entry with the
 * close-in-progress/canceled handling of libsinsp; returns the stored entry */
struct sinsp_fdinfo *fdtable_add(struct sinsp_fdtable *ft, int64_t fd, const struct sinsp_fdinfo *src);
void fdtable_remove(struct sinsp_fdtable *ft, int64_t fd);
/* copies every entry of src into dst */
void fdtable_copy(struct sinsp_fdtable *dst, const struct sinsp_fdtable *src);
void fd_pool_free(struct fd_pool *pool);
static inline uint32_t *fd_flags(struct sinsp_fdinfo *fdi)
{
	return &((struct fd_entry *)fdi)->flags;
}

/* a zeroed fdinfo template with name "" (stack use; name not owned) */
void fdinfo_init(struct sinsp_fdinfo *fdi, int32_t type);
/* set the name of a stored entry (copy, bounded) */
void fdinfo_set_name(struct sinsp_fdinfo *fdi, const char *name);
/* the name ss_render_socktuple() gives a unix tuple (v[0] == PPM_AF_UNIX,
 * len >= 17), reusing the current or the previous name when the tuple is
 * the same; fdi must be a table entry */
void fdinfo_set_unix_tuple_name(struct sinsp_fdinfo *fdi, const uint8_t *v, uint32_t len);
void fdinfo_from_scap(struct sinsp_fdinfo *fdi, const struct scap_fdinfo *sfd, char *namebuf, size_t nbsize);
void fd_set_role_server(struct sinsp_fdinfo *fdi);
void fd_set_role_client(struct sinsp_fdinfo *fdi);
static inline int fd_role_none(const struct sinsp_fdinfo *fdi)
{
	return !fdi->is_server && !fdi->is_role_client;
}

/* interfaces of the file (ifaces.c): local addresses, zero-address fill */
int iface_ipv4_local(const struct scap_metadata *m, const uint8_t *ip);
int iface_ipv6_local(const struct scap_metadata *m, const uint8_t *ip);
void iface_fill_zero_addr(const struct scap_metadata *m, struct sinsp_fdinfo *fdi);

/* names: "sip:sport->dip:dport" / "ip:port" */
void fd_tuple_name(const struct sinsp_fdinfo *fdi, char *buf, size_t size);
void fd_tuple_name_by_proto(const struct sinsp_fdinfo *fdi, char *buf, size_t size);
int is_ipv4_mapped(const uint8_t *a);
/* PT_SOCKTUPLE / PT_SOCKADDR values rendered as sysdig does (PF_SIMPLE) */
void ss_render_socktuple(const uint8_t *v, uint32_t len, char *buf, size_t size);
void ss_render_sockaddr(const uint8_t *v, uint32_t len, char *buf, size_t size);
void ss_copy_sanitized(char *dst, size_t size, const char *src, size_t srclen);
/* sinsp_utils::concatenate_paths; returns 1 when path2 was relative */
int ss_concatenate_paths(char *target, size_t tsize, const char *p1, size_t l1, const char *p2, size_t l2);

/* ---- thread table (threads.c) ---- */
struct sinsp_threadtable {
	struct i64map map;
	/* the threads in the order the reference walks its thread table (a
	 * std::unordered_map keyed by tid): the end-of-sample thread pass of
	 * csysdig and sinsp_foreach_thread */
	struct stl_hash walk;
	struct sinsp_threadinfo *last;	/* one-entry lookup cache */
};

struct sinsp_threadinfo *thread_find(struct sinsp *s, int64_t tid);
/* lookup, creating a "<NA>" placeholder when missing (unless the table is full) */
/* ts: the time of the event the thread is made up for (made_ts) */
struct sinsp_threadinfo *thread_get_or_create(struct sinsp *s, int64_t tid, uint64_t ts);
struct sinsp_threadinfo *thread_new(void);
/* adds t (replacing nothing: the tid must be free); counts it in its main
 * thread's children when it is a CLONE_THREAD thread and count_child */
int thread_add(struct sinsp *s, struct sinsp_threadinfo *t, int count_child);
void thread_remove(struct sinsp *s, int64_t tid, int force);
void thread_free(struct sinsp_threadinfo *t);
void threads_clear(struct sinsp *s);
int threads_load(struct sinsp *s, const struct scap_metadata *meta);
struct sinsp_fdinfo *thread_fd(struct sinsp *s, struct sinsp_threadinfo *t, int64_t fd);
/* a tracer write was recognised: live, the driver captures tracer writes
 * with the tracer snaplen from now on (enable_tracers_capture) */
void sinsp_enable_tracers(struct sinsp *s);
struct sinsp_fdinfo *thread_add_fd(struct sinsp *s, struct sinsp_threadinfo *t, int64_t fd, const struct sinsp_fdinfo *src);
const char *thread_cwd(struct sinsp *s, struct sinsp_threadinfo *t);
void thread_set_cwd(struct sinsp *s, struct sinsp_threadinfo *t, const char *path, size_t len);
/* replace a malloc'd string with len bytes of src (+ NUL) */
void ss_set_str(char **dst, const char *src, size_t len);
void ss_set_buf(char **dst, uint32_t *dlen, const uint8_t *src, uint32_t len);

/* ---- containers.c ---- */
/* a container event (sinsp_is_container_event) into the table */
void containers_event(struct sinsp *s, const struct scap_evt *e);
/* the container t's cgroups name into t (cid_*) and, unless the table
 * has it, into the table; after every change of t->cgroups */
void containers_add_thread(struct sinsp *s, struct sinsp_threadinfo *t);
void containers_clear(struct sinsp *s);

/* ---- parser.c ---- */
void parse_event(struct sinsp *s, struct sinsp_evt *evt);
/* the per-type flags parse_event() reads: sinsp_open() calls it once */
void parser_init(void);
/* decodes evt->enter's parameters on first use; 0 when evt->enter is usable
 * (clears has_enter when its parameters cannot be decoded) */
int sinsp_evt_enter_params(struct sinsp_evt *evt);

/* ---- event parameter access (bounds-checked) ---- */
static inline int evt_has(const struct scap_evt *e, uint32_t i)
{
	return i < e->nparams && e->plen[i] > 0;
}

/* integer parameter of any width (1/2/4/8 bytes), sign-extended */
static inline int64_t evt_int(const struct scap_evt *e, uint32_t i)
{
	if (i >= e->nparams)
		return 0;
	switch (e->plen[i]) {
	case 1: { int8_t v; memcpy(&v, e->pval[i], 1); return v; }
	case 2: { int16_t v; memcpy(&v, e->pval[i], 2); return v; }
	case 4: { int32_t v; memcpy(&v, e->pval[i], 4); return v; }
	case 8: { int64_t v; memcpy(&v, e->pval[i], 8); return v; }
	default: return 0;
	}
}

/* unsigned integer parameter of any width, zero-extended */
static inline uint64_t evt_uint(const struct scap_evt *e, uint32_t i)
{
	if (i >= e->nparams)
		return 0;
	switch (e->plen[i]) {
	case 1: return e->pval[i][0];
	case 2: { uint16_t v; memcpy(&v, e->pval[i], 2); return v; }
	case 4: { uint32_t v; memcpy(&v, e->pval[i], 4); return v; }
	case 8: { uint64_t v; memcpy(&v, e->pval[i], 8); return v; }
	default: return 0;
	}
}

/* string parameter as a NUL-terminated C string: points into the event
 * when terminated there, else copied into buf; *len = strlen */
const char *evt_str(const struct scap_evt *e, uint32_t i, char *buf, size_t size, size_t *len);
/* index of the parameter called name in the event table, or -1 */
int evt_param_index(uint16_t type, const char *name);

#endif
