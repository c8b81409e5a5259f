/*
 * sinsp.h - libsinsp: the system state rebuilt from an event stream.
 *
 * struct sinsp owns a libscap handle, the thread table and the per-process fd
 * tables.  sinsp_next() reads one event, updates the state exactly as the
 * libsinsp of sysdig 0.29.3 does (docs/architecture.md) and returns a
 * struct sinsp_evt that carries the event plus its resolved context (thread,
 * fd, paired enter event).  Rendering (render.c), fields (fields.c), the
 * formatter and the filter all work on struct sinsp_evt.
 */
#ifndef SINSP_H
#define SINSP_H

#include <stdint.h>
#include "scap.h"
#include "stl_hash.h"

struct sinsp_fdinfo {
	int64_t fd;
	int32_t type;		/* enum scap_fd_type; FILE_V2 is stored as FILE */
	char *name;		/* malloc'd: path, "ip:port->ip:port", ... ; never NULL */
	uint32_t open_flags;
	uint64_t ino;
	uint32_t dev;
	/* sockets (addresses in network byte order, ports in host order) */
	uint8_t l4proto;	/* enum scap_l4_proto */
	uint8_t sip[16], dip[16];	/* ipv4 uses the first 4 bytes */
	uint16_t sport, dport;
	uint8_t is_server;	/* listening / server role */
	uint8_t is_role_client;
	uint8_t is_socket_connected;
	uint64_t unix_src, unix_dst;
	uint8_t tracer;		/* enum tracer_fd_kind (tracer.h) */
};

struct sinsp_fdtable;		/* hash fd -> sinsp_fdinfo, opaque */

struct sinsp_threadinfo {
	int64_t tid, pid, ptid, sid, vpgid, vtid, vpid;
	char *comm, *exe, *exepath, *cwd, *root;	/* malloc'd, never NULL */
	char *args;		/* NUL-separated */
	uint32_t args_len;
	char *env;
	uint32_t env_len;
	char *cgroups;		/* "subsys=path\0" repeated */
	uint32_t cgroups_len;
	/* the container the cgroups name, worked out when they are set
	 * (containers_add_thread): the id at cgroups + cid_off, cid_len bytes
	 * (0: the host); cid_known 0: not worked out */
	uint32_t cid_off, cid_len, cid_type;
	uint8_t cid_known;
	uint64_t fdlimit;
	uint32_t flags;		/* PPM_CL_* */
	uint32_t uid, gid, loginuid;
	uint32_t vmsize_kb, vmrss_kb, vmswap_kb;
	uint64_t pfmajor, pfminor;
	uint64_t clone_ts;
	uint64_t made_ts;	/* made up for an event of an unknown tid at this
				 * time (thread_get_or_create); 0: from a table */
	struct sinsp_fdtable *fdtable;	/* own table; use sinsp_thread_fdtable() */
	/* enter/exit pairing */
	uint16_t lastevent_type;
	int64_t lastevent_fd;
	uint64_t lastevent_ts;
	uint8_t *last_enter;	/* copy of the stored enter event, or NULL */
	uint32_t last_enter_cap;
	int last_enter_valid;
	uint64_t prevevent_ts;	/* for evt.latency etc. */
	uint32_t nchildren;
	int closed;
	/* additions (state engine) */
	uint16_t last_enter_cpuid;
	uint16_t stored_type;	/* type of the enter libsinsp would have stored */
	uint32_t tty;
	uint64_t latency;	/* exit ts - enter ts of the last syscall */
	uint64_t last_latency_entertime;
	/* field state (fields.c): thread.cpu* last reads, thread.totexectime */
	uint64_t last_cpu_total, last_cpu_user, last_cpu_system;
	uint64_t totexectime;
	uint8_t exe_writable;	/* proc.is_exe_writable (PL, execve flags) */
	struct tracer_parser *tracer;	/* its last tracer write (tracer.h), or NULL */
	struct stl_hash_node table_node;	/* its place in the table's walk (threads.c) */
};

/* Context of the event returned by sinsp_next(). */
struct sinsp_evt {
	struct scap_evt scap;	/* the raw event, params decoded */
	uint64_t num;		/* evt.num, 1-based, counts every event */
	const struct ppm_event_info *info;
	struct sinsp_threadinfo *thread;	/* NULL when none */
	struct sinsp_fdinfo *fdinfo;	/* fd the event refers to, or NULL */
	int64_t fd;		/* fd number (-1 if none) */
	int32_t errorcode;	/* positive errno on failure, else 0 */
	int filtered_out;	/* state-only, or internal and not shown */
	/* the enter event paired with this exit (valid when has_enter) */
	int has_enter;
	struct scap_evt enter;
	/* name of the fd before a close removed it etc. is kept in fdinfo */
	/* additions (state engine): 1 when the event refers to an fd (an
	 * EF_USES_FD enter, a paired EF_USES_FD exit, or an fd a parser
	 * created): fd.* fields exist, fd.name is "" when fdinfo is NULL */
	int uses_fd;
	/* rejected by the capture filter of struct sinsp (see there) */
	int rejected;
	/* enter.pval/plen are filled on first use (sinsp_evt_enter_params) */
	int enter_decoded;
	/* fd.name_changed: parsing the event changed its fd's name */
	int fd_name_changed;
	/* a write that is a tracer (tracer.h): SINSP_TRACER_EVENT, scap is
	 * then the tracer event and tracer_write the write as read (what -w
	 * writes, flagged SCAP_DF_TRACER); SINSP_TRACER_HIDDEN: a write the
	 * reference shows nobody (the enter of a tracer write, a message not
	 * ended yet) but writes to files */
	int tracer;
	struct scap_evt tracer_write;
};

enum { SINSP_TRACER_NONE = 0, SINSP_TRACER_EVENT = 1, SINSP_TRACER_HIDDEN = 2 };

/* a container of the container table (containers.c) */
enum sinsp_container_type {	/* sysdig's sinsp_container_type numbering */
	SINSP_CT_DOCKER = 0, SINSP_CT_LXC = 1, SINSP_CT_LIBVIRT_LXC = 2, SINSP_CT_MESOS = 3,
	SINSP_CT_RKT = 4, SINSP_CT_CUSTOM = 5, SINSP_CT_CRI = 6, SINSP_CT_CONTAINERD = 7,
	SINSP_CT_CRIO = 8, SINSP_CT_BPM = 9, SINSP_CT_STATIC = 10, SINSP_CT_PODMAN = 11,
};

struct sinsp_container {
	char *id;		/* 12 hex digits for docker; the strings are never NULL */
	char *name, *image;	/* "" when no container event described it */
	char *image_id, *image_repo, *image_tag, *image_digest;
	uint32_t type;		/* enum sinsp_container_type */
	int privileged;
};

struct sinsp_threadtable;
struct fd_pool;

/* how buffers are shown (render.c) */
enum render_bufmode {
	RB_DOTS = 0,		/* default: non-printables as '.' */
	RB_ASCII,		/* -A */
	RB_HEX,			/* -x */
	RB_HEXASCII,		/* -X */
	RB_BASE64,		/* -b */
};

/* output options: set by the command line and the chisel API, read by the
 * field extractors and the formatter */
struct render_opts {
	enum render_bufmode bufmode;
	int json;		/* -j: JSON output (no 80-char cap; evt.time etc. as numbers) */
	int truncate;		/* cap dotted buffers at 80 chars (not -v, no chisel) */
	char timemode;		/* -t: 'h' (default), 'a', 'r', 'd', 'D' */
};

#define RENDER_OPTS_DEFAULT { RB_DOTS, 0, 1, 'h' }

struct sinsp {
	struct scap *scap;
	struct sinsp_threadtable *threads;
	uint64_t nevents;	/* events read so far (evt.num of the last one) */
	uint64_t first_ts;	/* ts of the first event of the capture */
	int is_live;
	/* deferred removals, applied before the next event is parsed */
	int64_t pending_thread_removal;
	int64_t pending_fd_removal_tid;
	int64_t pending_fd_removal;
	char err[SCAP_ERRBUF_SIZE];
	/* users and groups for uid/gid rendering */
	const struct scap_metadata *meta;
	/* additions (state engine) */
	struct fd_pool *fd_pool;	/* recycled fd entries */
	/* optional capture filter, run inside the parser as sinsp does: after
	 * the thread/fd lookup and before the event's state update, or after
	 * it for EF_MODIFIES_STATE events.  An event rejected before its
	 * update does not change the state (vm counters, socket roles...).
	 * Returns 1 to keep the event; evt->rejected is set otherwise. */
	int (*capture_filter)(void *ctx, struct sinsp *s, struct sinsp_evt *e);
	void *capture_filter_ctx;
	/* set by a caller that never reads the fd state (sysdig -w with a
	 * proc.name-only filter): the read/write family (read, recvfrom,
	 * sendto, pwrite...) then skips its fd lookup and leaves the socket's
	 * tuple, name and role as they were; fds are still created, duplicated
	 * and closed, and threads are updated as always */
	int fd_state_unread;
	/* the thread a container event shows (the reference's per-container
	 * thread: comm "container:ID", pid -1), reused; NULL until needed */
	struct sinsp_threadinfo *container_thread;
	/* the container table, oldest first (containers.c) */
	struct sinsp_container *containers;
	size_t ncontainers;
	/* --large-environment: live, an execve environment the driver cut at
	 * SINSP_DRIVER_ENV_MAX bytes is read again from /proc/<tid>/environ */
	int large_env;
	/* call stacks (stacks.c, --stacks); NULL until a stack event comes */
	struct sinsp_stacks *stacks;
	struct render_opts render;	/* output options (RENDER_OPTS_DEFAULT) */
	/* tracers (tracer.h): the open spans, the tracer event being shown */
	struct tracer_spans *spans;
	uint8_t *tracer_evt;
	uint32_t tracer_evt_cap;
	int tracers_enabled;	/* the driver was told (live) */
};

/* open: takes ownership of the scap handle and loads its metadata */
struct sinsp *sinsp_open(struct scap *scap, char *err);
void sinsp_close(struct sinsp *s);

/* SCAP_SUCCESS with *evt filled (valid until the next call), SCAP_EOF,
 * SCAP_TIMEOUT, or SCAP_FAILURE with s->err */
int sinsp_next(struct sinsp *s, struct sinsp_evt *evt);
/* the state update of sinsp_next() for an event evt->scap that the caller
 * read from s->scap itself (live only: no new sections); SCAP_SUCCESS */
int sinsp_parse(struct sinsp *s, struct sinsp_evt *evt);
/* count evt->scap as the next event and reset what the state update fills
 * (number, info, no thread/fd/error): the first step of sinsp_parse(), for
 * callers that pass an event on without its state update */
void sinsp_evt_begin(struct sinsp *s, struct sinsp_evt *evt);

/* thread table */
struct sinsp_threadinfo *sinsp_get_thread(struct sinsp *s, int64_t tid);
struct sinsp_threadinfo *sinsp_get_main_thread(struct sinsp *s, struct sinsp_threadinfo *t);
struct sinsp_threadinfo *sinsp_get_parent(struct sinsp *s, struct sinsp_threadinfo *t);
/* iterate: calls cb for every thread until it returns non-zero */
void sinsp_foreach_thread(struct sinsp *s, int (*cb)(struct sinsp_threadinfo *t, void *arg), void *arg);

/* container table: the container events and the containers the threads'
 * cgroups name (containers.c) */
int sinsp_is_container_event(uint16_t type);
/* the entry of container ID (LEN bytes), NULL when unknown */
const struct sinsp_container *sinsp_container_find(const struct sinsp *s, const char *id,
						   size_t len);
/* "docker", "cri-o", ... as container.type prints it; NULL for other types */
const char *sinsp_container_type_name(uint32_t type);
/* the container a cgroup list ("subsys=path\0"...) names, by sysdig
 * 0.29.3's rules (cgroup_container.c): id points into the list (len
 * bytes, not NUL-terminated), type is a sinsp_container_type; returns
 * len, 0 on the host */
struct sinsp_cgroup_match {
	const char *id;
	size_t len;
	uint32_t type;
};
size_t sinsp_cgroups_container(const char *cgroups, size_t len, struct sinsp_cgroup_match *m);
/* the same for a thread's cgroups (t may be NULL) */
size_t sinsp_thread_container(const struct sinsp_threadinfo *t, struct sinsp_cgroup_match *m);

/* fd tables */
struct sinsp_fdtable *sinsp_thread_fdtable(struct sinsp *s, struct sinsp_threadinfo *t);
struct sinsp_fdinfo *sinsp_fd_lookup(struct sinsp_fdtable *ft, int64_t fd);
void sinsp_foreach_fd(struct sinsp_fdtable *ft, int (*cb)(struct sinsp_fdinfo *fd, void *arg), void *arg);

/* the fd type letter as in "<f>" (fd.typechar) */
char sinsp_fd_typechar(const struct sinsp_fdinfo *fd);
/* libsinsp get_l4proto(): SCAP_L4_NA for sockets without a role yet (so
 * "<4>" after socket()), the server proto for server sockets.  Server
 * sockets keep their address in sip/sport. */
uint8_t sinsp_fd_l4proto(const struct sinsp_fdinfo *fd);

/* state_metadata.c: the metadata of s->scap with the process table made
 * from the thread and fd tables as they are now (a file written in the
 * middle of a capture starts from it), without the threads cloned or made
 * up for an event of their own at or after born_before (UINT64_MAX: all;
 * those of the /proc snapshot are always in): the reader gets them from
 * that event, as the whole capture gives them (a made-up thread keeps an
 * empty cwd, which a table entry cannot: its reader makes it "/").  The
 * strings are the state's own: valid until the next event.  0, or -1 (no
 * memory).  Free with sinsp_state_metadata_free(), which frees only what
 * this allocated. */
int sinsp_state_metadata(struct sinsp *s, struct scap_metadata *m, uint64_t born_before);
/* 1 when a thread of clone_ts / made_ts (sinsp_threadinfo) was born at or
 * after born_before */
int sinsp_thread_born_in(uint64_t clone_ts, uint64_t made_ts, uint64_t born_before);
void sinsp_state_metadata_free(struct scap_metadata *m);
/* a process table entry of st that owns its strings and fds (those of its
 * process for a main thread), e.g. kept after its exit; its size in bytes,
 * or -1 (no memory).  Free with scap_thread_free(). */
long sinsp_thread_copy(struct sinsp *s, struct sinsp_threadinfo *st, struct scap_threadinfo *out);
/* an fd as an fd list entry (the name is borrowed) */
void sinsp_fd_to_scap(struct scap_fdinfo *o, const struct sinsp_fdinfo *fdi);

/* users / groups from the metadata; NULL when unknown */
const char *sinsp_user_name(struct sinsp *s, uint32_t uid);
const char *sinsp_group_name(struct sinsp *s, uint32_t gid);

#endif
