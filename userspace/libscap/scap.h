/*
 * scap.h - libscap public interface: capture engines and the metadata they
 * carry.
 *
 * An engine (savefile, bpf, kmod) produces a stream of events in the format
 * of driver/event_format.h plus the metadata of the captured system
 * (machine info, process list with fds, interfaces, users).  The savefile
 * engine reads both from a .scap file; the live engines build the metadata
 * from a /proc snapshot.  libsinsp only talks to this interface.
 */
#ifndef SCAP_H
#define SCAP_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "event_table.h"

#define SCAP_ERRBUF_SIZE 512

enum scap_rc {
	SCAP_SUCCESS = 0,
	SCAP_FAILURE = 1,
	SCAP_TIMEOUT = -1,	/* live: nothing available right now */
	SCAP_EOF = 6,
	SCAP_NEW_SECTION = 100,	/* file: a new section began, metadata was reloaded */
};

/* .scap dump flags of EVF blocks */
#define SCAP_DF_STATE_ONLY 1
#define SCAP_DF_TRACER 2
#define SCAP_DF_LARGE 4

/* One event as returned by an engine.  Pointers stay valid until the next
 * call to scap_next(). */
struct scap_evt {
	const uint8_t *data;	/* the whole event: v2 header, lengths, values */
	uint32_t len;		/* == header len */
	uint64_t ts;
	uint64_t tid;
	uint16_t type;
	uint16_t cpuid;
	uint32_t dump_flags;	/* SCAP_DF_* from EVF blocks */
	uint32_t nparams;	/* parameters usable: min(event, table) */
	const uint8_t *pval[PPM_MAX_EVENT_PARAMS];
	uint32_t plen[PPM_MAX_EVENT_PARAMS];
};

/* fd types of the fd list (docs/scap_format.md, "Fd list") */
enum scap_fd_type {
	SCAP_FD_UNINITIALIZED = -1,
	SCAP_FD_UNKNOWN = 0,
	SCAP_FD_FILE = 1,
	SCAP_FD_DIRECTORY = 2,
	SCAP_FD_IPV4_SOCK = 3,
	SCAP_FD_IPV6_SOCK = 4,
	SCAP_FD_IPV4_SERVSOCK = 5,
	SCAP_FD_IPV6_SERVSOCK = 6,
	SCAP_FD_FIFO = 7,
	SCAP_FD_UNIX_SOCK = 8,
	SCAP_FD_EVENT = 9,
	SCAP_FD_UNSUPPORTED = 10,
	SCAP_FD_SIGNALFD = 11,
	SCAP_FD_EVENTPOLL = 12,
	SCAP_FD_INOTIFY = 13,
	SCAP_FD_TIMERFD = 14,
	SCAP_FD_NETLINK = 15,
	SCAP_FD_FILE_V2 = 16,
	SCAP_FD_BPF = 17,
	SCAP_FD_USERFAULTFD = 18,
	SCAP_FD_IOURING = 19,
	SCAP_FD_MEMFD = 20,
	SCAP_FD_PIDFD = 21,
};

enum scap_l4_proto {
	SCAP_L4_UNKNOWN = 0,
	SCAP_L4_NA = 1,
	SCAP_L4_TCP = 2,
	SCAP_L4_UDP = 3,
	SCAP_L4_ICMP = 4,
	SCAP_L4_RAW = 5,
};

struct scap_fdinfo {
	int64_t fd;
	uint64_t ino;
	int32_t type;		/* enum scap_fd_type */
	union {
		struct {
			uint32_t sip, dip;	/* network byte order */
			uint16_t sport, dport;
			uint8_t l4proto;
		} ipv4;
		struct {
			uint8_t sip[16], dip[16];
			uint16_t sport, dport;
			uint8_t l4proto;
		} ipv6;
		struct {
			uint32_t ip;
			uint16_t port;
			uint8_t l4proto;
		} ipv4serv;
		struct {
			uint8_t ip[16];
			uint16_t port;
			uint8_t l4proto;
		} ipv6serv;
		struct {
			uint64_t source, destination;
		} unix_sock;
	} info;
	uint32_t open_flags;	/* FILE_V2 */
	uint32_t dev;		/* FILE_V2 */
	int has_dev;
	char *name;		/* malloc'd, "" when none; unix sockets: path */
};

struct scap_threadinfo {
	uint64_t tid, pid, ptid;
	int64_t sid, vpgid;
	char *comm, *exe, *exepath, *cwd, *root;
	char *args;		/* NUL-separated, args_len bytes */
	uint32_t args_len;
	char *env;
	uint32_t env_len;
	char *cgroups;
	uint32_t cgroups_len;
	uint64_t fdlimit;
	uint32_t flags, uid, gid;
	uint32_t vmsize_kb, vmrss_kb, vmswap_kb;
	uint64_t pfmajor, pfminor;
	int64_t vtid, vpid;
	uint32_t loginuid;
	uint8_t exe_writable;
	struct scap_fdinfo *fds;
	uint32_t nfds, fds_cap;
};

struct scap_machine_info {
	uint32_t num_cpus;
	uint64_t memory_size_bytes;
	uint64_t max_pid;
	char hostname[128];
	uint64_t boot_ts_epoch;
	uint64_t flags;
	uint64_t reserved3, reserved4;
};

struct scap_ifinfo_ipv4 {
	uint16_t type;		/* 1 (or 3: no linkspeed) */
	uint32_t addr, netmask, bcast;	/* network byte order */
	uint64_t linkspeed;
	char ifname[1024];
};

struct scap_ifinfo_ipv6 {
	uint16_t type;		/* 2 (or 4) */
	uint8_t addr[16], netmask[16], bcast[16];
	uint64_t linkspeed;
	char ifname[1024];
};

struct scap_userinfo {
	uint32_t uid, gid;
	char name[256], homedir[256], shell[256];
};

struct scap_groupinfo {
	uint32_t gid;
	char name[256];
};

/* Everything an engine knows about the system besides the events. */
struct scap_metadata {
	struct scap_machine_info machine;
	int has_machine;
	struct scap_threadinfo *threads;
	uint32_t nthreads, threads_cap;
	struct scap_ifinfo_ipv4 *ipv4;
	uint32_t nipv4;
	struct scap_ifinfo_ipv6 *ipv6;
	uint32_t nipv6;
	int has_iflist;
	struct scap_userinfo *users;
	uint32_t nusers;
	struct scap_groupinfo *groups;
	uint32_t ngroups;
	int has_userlist;
};

struct scap_stats {
	uint64_t n_evts;	/* events seen by the driver */
	uint64_t n_drops;	/* events the driver could not write */
	uint64_t n_drops_buffer;
	uint64_t n_suppressed;
	uint64_t n_unselected;	/* left out by the driver: not a selected pid */
};

struct scap;

/* One engine = one vtable (falcosecurity libscap style). */
struct scap_engine_ops {
	const char *name;
	/* next event; SCAP_SUCCESS, SCAP_TIMEOUT, SCAP_EOF, SCAP_NEW_SECTION
	 * or SCAP_FAILURE (message in scap->err) */
	int (*next)(struct scap *h, struct scap_evt *evt);
	int (*get_stats)(struct scap *h, struct scap_stats *st);
	/* fraction of the input consumed, 0..1 (files) or -1; NULL where
	 * it has no end (live engines) */
	double (*progress)(struct scap *h);
	/* optional: the fraction sysdig 0.29.3 would report here (its
	 * reader's buffered file position, savefile_progress.h), 0..1 or -1;
	 * costlier than progress (chisels' sysdig.get_read_progress) */
	double (*reference_progress)(struct scap *h);
	void (*close)(struct scap *h);
	/* live: 0 when the driver leaves the thread out (scap_live_opts
	 * select), so userspace makes no events of it either; NULL: all */
	int (*selected)(struct scap *h, uint64_t pid, uint64_t tid);
};

struct scap_suppress;

struct scap {
	const struct scap_engine_ops *ops;
	void *engine;		/* engine private state */
	struct scap_metadata meta;
	struct scap_suppress *suppress;	/* -U, NULL: none (suppress.c) */
	char err[SCAP_ERRBUF_SIZE];
	/* savefile --recover: set recover before reading; after a damaged
	 * region was skipped, scap_next returns the next valid event with
	 * recovered set and note saying what was skipped (the caller clears
	 * recovered once it reported it) */
	int recover;
	int recovered;
	char note[SCAP_ERRBUF_SIZE];
	uint64_t skipped_regions, skipped_bytes;
};

/* savefile engine (savefile_read.c). Returns NULL and fills err on error. */
struct scap *scap_open_file(const char *path, char *err);

/* suppress.c: leave out the processes named so (-U, as libscap does: the
 * threads of the process table with that comm, the clone/execve children
 * taking that comm, and the descendants of both, until their procexit).
 * from_table (live): the process table of h is decided and loses them
 * too. 0, or -1 (no memory). */
int scap_suppress_comms(struct scap *h, const char *const *comms, int n, int from_table);
/* 1 when evt comes from a suppressed thread (the set is updated) */
int scap_suppress_event(struct scap_suppress *sp, const struct scap_evt *evt);
void scap_suppress_table(struct scap_suppress *sp, struct scap_metadata *m);
uint64_t scap_suppressed_count(const struct scap *h);
void scap_suppress_free(struct scap_suppress *sp);

static inline int scap_next(struct scap *h, struct scap_evt *evt)
{
	int rc;

	do {
		rc = h->ops->next(h, evt);
		if (rc == SCAP_NEW_SECTION && h->suppress)
			scap_suppress_table(h->suppress, &h->meta);
	} while (rc == SCAP_SUCCESS && h->suppress && scap_suppress_event(h->suppress, evt));
	return rc;
}

void scap_close(struct scap *h);

/* live capture (engine/bpf, engine/kmod) */
enum scap_live_driver { SCAP_DRIVER_AUTO = 0, SCAP_DRIVER_BPF, SCAP_DRIVER_KMOD };
struct scap_live_opts {
	enum scap_live_driver driver;
	uint32_t snaplen;	/* bytes of I/O buffers captured (default 80) */
	uint64_t buffer_bytes_per_cpu;	/* 0: default */
	int skip_self;		/* do not capture the calling process */
	const uint8_t *syscall_mask;	/* NULL: all; else [PPM_EVENT_MAX] 0/1 */
	int page_faults;	/* also capture page_fault events (--page-faults) */
	/* --exit-only (bpf): enter events written at syscall exit, with the
	 * exit time, instead of at entry (cheaper: one hook per syscall, but
	 * evt.latency is 0 and a blocked call is seen only when it returns) */
	int exit_only;
	/* non-NULL: only tasks named so (comm, or the thread group leader's),
	 * plus every process's clone/fork/execve/procexit; a hint, the caller
	 * still filters (engines may ignore it) */
	const char *comm;
	/* --stacks: NULL none; else [PPM_EVENT_MAX] 1 where the call stack of
	 * the event's syscall is taken (a PPME_STACK_E before its enter event) */
	const uint8_t *stack_mask;
	int kernel_stacks;	/* --kernel-stacks: the stack events carry the kernel stack */
	/* non-NULL: only these processes, threads and process trees (a hint
	 * like comm: the caller still filters; engines may ignore it) */
	const struct scap_select *select;
	/* -U: tasks named so are left out by the driver, their lifecycle kept
	 * (scap_suppress_comms still follows their descendants) */
	const char *const *suppress;
	int nsuppress;
};
struct scap_select {
	const uint32_t *pids, *tids;	/* processes (all threads), threads */
	uint32_t npids, ntids;
	/* the process trees of roots: roots and their descendants, those of
	 * the /proc snapshot and those forked later */
	const uint32_t *roots;
	uint32_t nroots;
	/* 1: the caller relies on it (sysdig -- CMD): an engine that cannot
	 * select refuses to open */
	int exact;
};
/* NULL with one clear line in err ("needs root", "no BTF", ...) */
struct scap *scap_open_live(const struct scap_live_opts *opts, char *err);
/*
 * 1 when the live driver must capture the event pair of enter event
 * enter_ev under opts->syscall_mask: the mask names its enter or exit, or
 * the pair feeds the thread/fd state (clone, execve, procexit, close, the
 * fd-creating calls...), which every engine keeps whatever the mask says
 */
int scap_live_wants_pair(const struct scap_live_opts *opts, uint16_t enter_ev);

/* Fill evt->pval/plen/nparams from evt->data (shared by every engine).
 * Returns 0, or -1 when the lengths do not fit in the event. */
int scap_decode_params(struct scap_evt *evt);

/* offset of a field of the event header (struct ppm_evt_hdr); the v1
 * header of old files has the same first four fields */
#define PPM_HDR_OFF(field) offsetof(struct ppm_evt_hdr, field)

/* evt->ts, tid, len and type from the event header at evt->data (at least
 * PPM_EVT_HDR_LEN bytes); scap_evt_write_header() writes one */
static inline void scap_evt_read_header(struct scap_evt *evt)
{
	const uint8_t *d = evt->data;

	memcpy(&evt->ts, d + PPM_HDR_OFF(ts), sizeof(evt->ts));
	memcpy(&evt->tid, d + PPM_HDR_OFF(tid), sizeof(evt->tid));
	memcpy(&evt->len, d + PPM_HDR_OFF(len), sizeof(evt->len));
	memcpy(&evt->type, d + PPM_HDR_OFF(type), sizeof(evt->type));
}
void scap_evt_write_header(uint8_t *hdr, uint64_t ts, uint64_t tid, uint32_t len, uint16_t type,
			   uint32_t nparams);

/* metadata helpers (scap_metadata.c) */
void scap_metadata_free(struct scap_metadata *m);
void scap_metadata_remove_thread(struct scap_metadata *m, uint32_t i);
/* frees what a thread entry owns (strings, fds) and zeroes it */
void scap_thread_free(struct scap_threadinfo *t);
/* forget the user and group tables (-E) */
void scap_metadata_drop_users(struct scap_metadata *m);
struct scap_threadinfo *scap_metadata_add_thread(struct scap_metadata *m);
struct scap_fdinfo *scap_thread_add_fd(struct scap_threadinfo *t);
/* a zeroed slot at index n{users,groups,ipv4,ipv6}; the caller fills it
 * and then counts it (so a half-parsed entry is never counted) */
struct scap_userinfo *scap_metadata_new_user(struct scap_metadata *m);
struct scap_groupinfo *scap_metadata_new_group(struct scap_metadata *m);
struct scap_ifinfo_ipv4 *scap_metadata_new_ipv4(struct scap_metadata *m);
struct scap_ifinfo_ipv6 *scap_metadata_new_ipv6(struct scap_metadata *m);

/* writer (savefile_write.c) */
struct scap_dumper;
/* compress: gzip; returns NULL and fills err */
struct scap_dumper *scap_dump_open(const char *path, int compress, char *err);
/* SHB, MI, IL, UL, PL, FDL blocks of the given metadata */
int scap_dump_metadata(struct scap_dumper *d, const struct scap_metadata *m);
/* one event (flags: SCAP_DF_*) */
int scap_dump_event(struct scap_dumper *d, const struct scap_evt *evt, uint16_t cpuid, uint32_t flags);
/* flush and close; returns 0 or -1 with err filled (e.g. disk full) */
int scap_dump_close(struct scap_dumper *d, char *err);
const char *scap_dump_error(struct scap_dumper *d);
/* hand what is buffered to the file (gzip: a sync flush); 0 or -1 */
int scap_dump_flush(struct scap_dumper *d);
/* bytes of the file so far, headers and metadata included (gzip: what
 * zlib wrote plus what waits in the buffer, an upper bound) */
uint64_t scap_dump_size(struct scap_dumper *d);
/* bytes an event block of an event of len bytes takes, at most */
#define SCAP_DUMP_BLOCK_MAX(len) ((uint64_t)(len) + 8 + 6 + 3 + 4)

#endif
