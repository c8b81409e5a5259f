/*
 * savefile_read.c - the savefile engine: reads .scap capture files.
 *
 * Implements scap_open_file() and the engine vtable of scap.h following
 * docs/scap_format.md: SHB (pcapng options skipped through
 * block_total_length), every version of the MI/PL/FDL/IL/UL metadata
 * blocks, v1 and v2 event blocks (v1 events are converted to the v2 layout
 * in a private buffer so evt->data is always a v2 event), several sections
 * (SCAP_NEW_SECTION) and gzip input.
 *
 * Input layer: a window buffer (1 MiB, grown only for larger blocks) filled
 * with big reads from savefile_input.c (read(2), or zlib inflate for gzip
 * files and pipes); events point into the window (no per-event copy, syscall
 * or malloc; pointers stay valid until the next call).  read(2) beat mmap
 * here: page faults cost more than the copy in a VM, and RSS stays small.
 * Every length read from the file is checked against the bytes available
 * before use.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "scap.h"
#include "savefile.h"
#include "savefile_input.h"
#include "savefile_progress.h"

#define STREAM_BUF_INIT (1u << 20)
#define MAX_BLOCK_LEN (1u << 30)	/* larger blocks are corrupt */

struct savefile {
	struct scap_input in;
	uint8_t *buf;		/* window on the (decoded) stream */
	size_t cap;
	const uint8_t *base;	/* == buf */
	size_t pos, end;	/* window [pos, end) of base */
	uint64_t window_off;	/* stream offset of base[0] */
	uint64_t file_size;
	int eof, ioerr, failed;
	uint32_t fdl_hint;	/* index of the thread of the last FDL block */
	uint32_t last_total;	/* length of the last event block returned */
	uint8_t *conv;		/* v1 -> v2 conversion, allocated on first use */
	char *path;		/* a regular file: for the progress mirror */
	uint64_t first_event_off;	/* offset of the first event block */
	int have_first_event;
	struct read_mirror *mirror;	/* savefile_progress.c, on first use */
	int mirror_failed;
};

static void seterr(char *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void seterr(char *err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, SCAP_ERRBUF_SIZE, fmt, ap);
	va_end(ap);
}

/* ---------------------------------------------------------------------- */
/* metadata block parsers                                                 */

/* Read an lstr whose length must be <= max (or < max when strict). */
static char *take_str(struct cursor *c, uint32_t max, int strict,
		      uint32_t *lenp, const char *what, char *err)
{
	uint16_t len = cur_u16(c);
	const uint8_t *p;
	char *s;

	if (c->bad)
		return NULL;
	if (len > max || (strict && len == max)) {
		seterr(err, "invalid %s length %u", what, len);
		return NULL;
	}
	p = cur_take(c, len);
	if (!p)
		return NULL;
	s = malloc((size_t)len + 1);
	if (!s) {
		seterr(err, "out of memory");
		return NULL;
	}
	memcpy(s, p, len);
	s[len] = 0;
	if (lenp)
		*lenp = len;
	return s;
}

/* Copy an lstr into a fixed array of size max (length must be < max). */
static int take_fixed(struct cursor *c, char *dst, uint32_t max,
		      const char *what, char *err)
{
	uint16_t len = cur_u16(c);
	const uint8_t *p;

	if (c->bad)
		return -1;
	if (len >= max) {
		seterr(err, "invalid %s length %u", what, len);
		return -1;
	}
	p = cur_take(c, len);
	if (!p)
		return -1;
	memcpy(dst, p, len);
	dst[len] = 0;
	return 0;
}

#define TAKE_STR(field, max, strict, lenp, what)                          \
	do {                                                                \
		(field) = take_str(c, (max), (strict), (lenp), (what), err);  \
		if (!(field))                                               \
			goto bad;                                           \
	} while (0)

static int parse_mi(struct scap_metadata *m, struct cursor *c, char *err)
{
	struct scap_machine_info *mi = &m->machine;
	const uint8_t *host;

	if (cur_left(c) < MI_BODY_LEN) {
		seterr(err, "corrupted machine info block (%zu bytes)", cur_left(c));
		return -1;
	}
	mi->num_cpus = cur_u32(c);
	mi->memory_size_bytes = cur_u64(c);
	mi->max_pid = cur_u64(c);
	host = cur_take(c, sizeof(mi->hostname));
	memcpy(mi->hostname, host, sizeof(mi->hostname));
	mi->hostname[sizeof(mi->hostname) - 1] = 0;
	mi->boot_ts_epoch = cur_u64(c);
	mi->flags = cur_u64(c);
	mi->reserved3 = cur_u64(c);
	mi->reserved4 = cur_u64(c);
	m->has_machine = 1;
	return 0;
}

/* V9 tail after root: two layouts (docs/scap_format.md, "Process list"). */
static void parse_pl_tail(struct scap_threadinfo *t, struct cursor *c)
{
	if (cur_left(c) > 29) {
		cur_u64(c);	/* pidns_init_start_ts */
		cur_u32(c);	/* tty */
	}
	if (cur_left(c) >= 4)
		t->loginuid = cur_u32(c);
	if (cur_left(c) >= 1)
		t->exe_writable = cur_u8(c);
}

static int parse_pl_entry(struct scap_metadata *m, int ver, struct cursor *c,
			  char *err)
{
	struct scap_threadinfo *t = scap_metadata_add_thread(m);

	if (!t) {
		seterr(err, "out of memory");
		return -1;
	}
	t->tid = cur_u64(c);
	t->pid = cur_u64(c);
	t->ptid = cur_u64(c);
	if (ver >= 6)
		t->sid = (int64_t)cur_u64(c);
	if (ver >= 8)
		t->vpgid = (int64_t)cur_u64(c);
	TAKE_STR(t->comm, SCAP_MAX_PATH_SIZE, 0, NULL, "comm");
	TAKE_STR(t->exe, SCAP_MAX_PATH_SIZE, 0, NULL, "exe");
	if (ver >= 7)
		TAKE_STR(t->exepath, SCAP_MAX_PATH_SIZE, 0, NULL, "exepath");
	else if (!(t->exepath = calloc(1, 1)))
		goto oom;
	TAKE_STR(t->args, SCAP_MAX_ARGS_SIZE, 0, &t->args_len, "args");
	TAKE_STR(t->cwd, SCAP_MAX_PATH_SIZE, 0, NULL, "cwd");
	t->fdlimit = cur_u64(c);
	t->flags = cur_u32(c);
	t->uid = cur_u32(c);
	t->gid = cur_u32(c);
	if (ver >= 2) {
		t->vmsize_kb = cur_u32(c);
		t->vmrss_kb = cur_u32(c);
		t->vmswap_kb = cur_u32(c);
		t->pfmajor = cur_u64(c);
		t->pfminor = cur_u64(c);
	}
	if (ver >= 3)
		TAKE_STR(t->env, SCAP_MAX_ENV_SIZE, 0, &t->env_len, "env");
	else if (!(t->env = calloc(1, 1)))
		goto oom;
	if (ver >= 4) {
		t->vtid = (int64_t)cur_u64(c);
		t->vpid = (int64_t)cur_u64(c);
		TAKE_STR(t->cgroups, SCAP_MAX_CGROUPS_SIZE, 0, &t->cgroups_len,
			 "cgroups");
	} else if (!(t->cgroups = calloc(1, 1))) {
		goto oom;
	}
	if (ver >= 5)
		TAKE_STR(t->root, SCAP_MAX_PATH_SIZE, 0, NULL, "root");
	else if (!(t->root = calloc(1, 1)))
		goto oom;
	if (c->bad)
		goto bad;
	if (ver == 9)
		parse_pl_tail(t, c);
	return 0;
oom:
	seterr(err, "out of memory");
	return -1;
bad:
	if (!err[0] || c->bad)
		seterr(err, "corrupted process list block (thread %" PRIu64 ")",
		       t->tid);
	return -1;
}

static int parse_pl(struct scap_metadata *m, int ver, struct cursor *blk,
		    char *err)
{
	while (cur_left(blk) >= 4) {
		struct cursor c = *blk;

		if (ver == 9) {
			uint32_t elen = cur_u32(&c);

			if (elen < 4 || elen > cur_left(blk)) {
				seterr(err, "corrupted process list block: entry length %u, %zu bytes left",
				       elen, cur_left(blk));
				return -1;
			}
			c.end = blk->p + elen;
		}
		if (parse_pl_entry(m, ver, &c, err))
			return -1;
		blk->p = ver == 9 ? c.end : c.p;
	}
	return 0;
}

static int fd_has_name(int type)
{
	switch (type) {
	case SCAP_FD_FILE:
	case SCAP_FD_DIRECTORY:
	case SCAP_FD_FIFO:
	case SCAP_FD_EVENT:
	case SCAP_FD_UNSUPPORTED:
	case SCAP_FD_SIGNALFD:
	case SCAP_FD_EVENTPOLL:
	case SCAP_FD_INOTIFY:
	case SCAP_FD_TIMERFD:
	case SCAP_FD_NETLINK:
	case SCAP_FD_BPF:
	case SCAP_FD_USERFAULTFD:
	case SCAP_FD_IOURING:
	case SCAP_FD_MEMFD:
	case SCAP_FD_PIDFD:
		return 1;
	default:
		return 0;
	}
}

static int parse_fd_entry(struct scap_threadinfo *t, int v2, struct cursor *c,
			  char *err)
{
	struct scap_fdinfo *f = scap_thread_add_fd(t);
	const uint8_t *p;
	uint8_t type;

	if (!f) {
		seterr(err, "out of memory");
		return -1;
	}
	f->fd = (int64_t)cur_u64(c);
	f->ino = cur_u64(c);
	type = cur_u8(c);
	f->type = type;
	if (fd_has_name(type) || type == SCAP_FD_FILE_V2 ||
	    type == SCAP_FD_UNIX_SOCK) {
		if (type == SCAP_FD_FILE_V2)
			f->open_flags = cur_u32(c);
		if (type == SCAP_FD_UNIX_SOCK) {
			f->info.unix_sock.source = cur_u64(c);
			f->info.unix_sock.destination = cur_u64(c);
		}
		f->name = take_str(c, SCAP_MAX_PATH_SIZE, 1, NULL, "fd name", err);
		if (!f->name)
			goto bad;
		if (type == SCAP_FD_FILE_V2 && v2 && cur_left(c) >= 4) {
			f->dev = cur_u32(c);
			f->has_dev = 1;
		}
		return 0;
	}
	if (!(f->name = calloc(1, 1))) {
		seterr(err, "out of memory");
		return -1;
	}
	switch (type) {
	case SCAP_FD_IPV4_SOCK:
		f->info.ipv4.sip = cur_u32(c);
		f->info.ipv4.dip = cur_u32(c);
		f->info.ipv4.sport = cur_u16(c);
		f->info.ipv4.dport = cur_u16(c);
		f->info.ipv4.l4proto = cur_u8(c);
		break;
	case SCAP_FD_IPV6_SOCK:
		if ((p = cur_take(c, 16)))
			memcpy(f->info.ipv6.sip, p, 16);
		if ((p = cur_take(c, 16)))
			memcpy(f->info.ipv6.dip, p, 16);
		f->info.ipv6.sport = cur_u16(c);
		f->info.ipv6.dport = cur_u16(c);
		f->info.ipv6.l4proto = cur_u8(c);
		break;
	case SCAP_FD_IPV4_SERVSOCK:
		f->info.ipv4serv.ip = cur_u32(c);
		f->info.ipv4serv.port = cur_u16(c);
		f->info.ipv4serv.l4proto = cur_u8(c);
		break;
	case SCAP_FD_IPV6_SERVSOCK:
		if ((p = cur_take(c, 16)))
			memcpy(f->info.ipv6serv.ip, p, 16);
		f->info.ipv6serv.port = cur_u16(c);
		f->info.ipv6serv.l4proto = cur_u8(c);
		break;
	default:
		if (!v2 || c->bad) {
			seterr(err, "corrupted fd list: wrong fd type %u", type);
			return -1;
		}
		/* v2: unknown type, skipped through entry_len (HEAD) */
		free(f->name);
		f->type = SCAP_FD_UNSUPPORTED;
		f->name = malloc(32);
		if (!f->name) {
			seterr(err, "out of memory");
			return -1;
		}
		snprintf(f->name, 32, "unknown-type:[%u]", type);
		return 0;
	}
	if (!c->bad)
		return 0;
bad:
	if (!err[0] || c->bad)
		seterr(err, "corrupted fd list block (fd %" PRId64 " of thread %" PRIu64 ")",
		       f->fd, t->tid);
	return -1;
}

static struct scap_threadinfo *find_thread(struct scap_metadata *m,
					   uint64_t tid, uint32_t *hint)
{
	uint32_t i, n = m->nthreads;

	for (i = 0; i < n; i++) {
		uint32_t k = (*hint + i) % n;

		if (m->threads[k].tid == tid) {
			*hint = k + 1 < n ? k + 1 : 0;
			return &m->threads[k];
		}
	}
	return NULL;
}

static int parse_fdl(struct scap_metadata *m, int v2, struct cursor *blk,
		     uint32_t *hint, char *err)
{
	struct scap_threadinfo *t;
	uint64_t tid = cur_u64(blk);

	if (blk->bad) {
		seterr(err, "corrupted fd list block: too short");
		return -1;
	}
	t = find_thread(m, tid, hint);
	if (!t) {
		seterr(err, "corrupted trace file. FD block references TID %" PRIu64 ", which doesn't exist.",
		       tid);
		return -1;
	}
	while (cur_left(blk) >= 4) {
		struct cursor c = *blk;

		if (v2) {
			uint32_t elen = cur_u32(&c);

			if (elen < 4 || elen > cur_left(blk)) {
				seterr(err, "corrupted fd list block: entry length %u, %zu bytes left",
				       elen, cur_left(blk));
				return -1;
			}
			c.end = blk->p + elen;
		}
		if (parse_fd_entry(t, v2, &c, err))
			return -1;
		blk->p = v2 ? c.end : c.p;
	}
	return 0;
}

static int parse_if_entry(struct scap_metadata *m, struct cursor *c, char *err)
{
	uint16_t type = cur_u16(c);
	const uint8_t *p;
	uint16_t namelen = cur_u16(c);

	if (c->bad)
		goto bad;
	if (namelen >= SCAP_MAX_PATH_SIZE) {
		seterr(err, "trace file has corrupted interface list: name length %u",
		       namelen);
		return -1;
	}
	if (type == SCAP_II_IPV4 || type == SCAP_II_IPV4_NOLINKSPEED) {
		struct scap_ifinfo_ipv4 *e = scap_metadata_new_ipv4(m);

		if (!e)
			goto oom;
		e->type = type;
		e->addr = cur_u32(c);
		e->netmask = cur_u32(c);
		e->bcast = cur_u32(c);
		if (type == SCAP_II_IPV4)
			e->linkspeed = cur_u64(c);
		p = cur_take(c, namelen);
		if (!p)
			goto bad;
		memcpy(e->ifname, p, namelen);
		m->nipv4++;
	} else if (type == SCAP_II_IPV6 || type == SCAP_II_IPV6_NOLINKSPEED) {
		struct scap_ifinfo_ipv6 *e = scap_metadata_new_ipv6(m);

		if (!e)
			goto oom;
		e->type = type;
		if ((p = cur_take(c, 16)))
			memcpy(e->addr, p, 16);
		if ((p = cur_take(c, 16)))
			memcpy(e->netmask, p, 16);
		if ((p = cur_take(c, 16)))
			memcpy(e->bcast, p, 16);
		if (type == SCAP_II_IPV6)
			e->linkspeed = cur_u64(c);
		p = cur_take(c, namelen);
		if (!p)
			goto bad;
		memcpy(e->ifname, p, namelen);
		m->nipv6++;
	} else {
		seterr(err, "trace file has corrupted interface list: unknown entry type %u",
		       type);
		return -1;
	}
	return 0;
oom:
	seterr(err, "out of memory");
	return -1;
bad:
	seterr(err, "trace file has corrupted interface list: truncated entry");
	return -1;
}

static int parse_il(struct scap_metadata *m, int v2, struct cursor *blk,
		    char *err)
{
	m->has_iflist = 1;
	while (cur_left(blk) >= 4) {
		struct cursor c = *blk;

		if (v2) {
			uint32_t esize = cur_u32(&c);

			if (esize > cur_left(&c)) {
				seterr(err, "trace file has corrupted interface list: entry size %u, %zu bytes left",
				       esize, cur_left(&c));
				return -1;
			}
			c.end = c.p + esize;
		}
		if (parse_if_entry(m, &c, err))
			return -1;
		blk->p = v2 ? c.end : c.p;
	}
	return 0;
}

static int parse_ul_entry(struct scap_metadata *m, struct cursor *c, char *err)
{
	uint8_t kind = cur_u8(c);

	if (kind == USERBLOCK_TYPE_USER) {
		struct scap_userinfo *u = scap_metadata_new_user(m);

		if (!u)
			goto oom;
		u->uid = cur_u32(c);
		u->gid = cur_u32(c);
		if (take_fixed(c, u->name, SCAP_MAX_CRED_LEN, "user name", err) ||
		    take_fixed(c, u->homedir, SCAP_MAX_CRED_LEN, "user homedir", err) ||
		    take_fixed(c, u->shell, SCAP_MAX_CRED_LEN, "user shell", err))
			goto bad;
		m->nusers++;
	} else {
		struct scap_groupinfo *g = scap_metadata_new_group(m);

		if (!g)
			goto oom;
		g->gid = cur_u32(c);
		if (take_fixed(c, g->name, SCAP_MAX_CRED_LEN, "group name", err))
			goto bad;
		m->ngroups++;
	}
	return 0;
oom:
	seterr(err, "out of memory");
	return -1;
bad:
	if (!err[0] || c->bad)
		seterr(err, "corrupted user list block: truncated entry");
	return -1;
}

static int parse_ul(struct scap_metadata *m, int v2, struct cursor *blk,
		    char *err)
{
	m->has_userlist = 1;
	while (cur_left(blk) >= 4) {
		struct cursor c = *blk;

		if (v2) {
			uint32_t elen = cur_u32(&c);

			if (elen < 5 || elen > cur_left(blk)) {
				seterr(err, "corrupted user list block: entry length %u, %zu bytes left",
				       elen, cur_left(blk));
				return -1;
			}
			c.end = blk->p + elen;
		}
		if (parse_ul_entry(m, &c, err))
			return -1;
		blk->p = v2 ? c.end : c.p;
	}
	return 0;
}

static int pl_version(uint32_t type)
{
	switch (type) {
	case PL_BLOCK_TYPE_V1:
	case PL_BLOCK_TYPE_V1_INT:
		return 1;
	case PL_BLOCK_TYPE_V2:
	case PL_BLOCK_TYPE_V2_INT:
		return 2;
	case PL_BLOCK_TYPE_V3:
	case PL_BLOCK_TYPE_V3_INT:
		return 3;
	case PL_BLOCK_TYPE_V4:
		return 4;
	case PL_BLOCK_TYPE_V5:
		return 5;
	case PL_BLOCK_TYPE_V6:
		return 6;
	case PL_BLOCK_TYPE_V7:
		return 7;
	case PL_BLOCK_TYPE_V8:
		return 8;
	case PL_BLOCK_TYPE_V9:
		return 9;
	default:
		return 0;
	}
}

/* One metadata block body (padding included); unknown types are ignored. */
static int parse_block(struct scap_metadata *m, uint32_t type,
		       const uint8_t *body, size_t len, uint32_t *hint,
		       char *err)
{
	struct cursor c = { body, body + len, 0 };
	int ver = pl_version(type);

	err[0] = 0;
	if (ver)
		return parse_pl(m, ver, &c, err);
	switch (type) {
	case MI_BLOCK_TYPE:
	case MI_BLOCK_TYPE_INT:
		return parse_mi(m, &c, err);
	case FDL_BLOCK_TYPE:
	case FDL_BLOCK_TYPE_INT:
		return parse_fdl(m, 0, &c, hint, err);
	case FDL_BLOCK_TYPE_V2:
		return parse_fdl(m, 1, &c, hint, err);
	case IL_BLOCK_TYPE:
	case IL_BLOCK_TYPE_INT:
		return parse_il(m, 0, &c, err);
	case IL_BLOCK_TYPE_V2:
		return parse_il(m, 1, &c, err);
	case UL_BLOCK_TYPE:
	case UL_BLOCK_TYPE_INT:
		return parse_ul(m, 0, &c, err);
	case UL_BLOCK_TYPE_V2:
		return parse_ul(m, 1, &c, err);
	default:
		return 0;
	}
}

int savefile_parse_block(struct scap_metadata *m, uint32_t type,
			 const uint8_t *body, size_t len, char *err)
{
	uint32_t hint = 0;

	return parse_block(m, type, body, len, &hint, err);
}

/* ---------------------------------------------------------------------- */
/* v1 events                                                              */

int savefile_convert_v1(const uint8_t *ev, size_t avail, uint8_t *out,
			char *err)
{
	uint32_t old, len, n, tn;
	uint16_t type;

	if (avail < EVT_HDR_V1_LEN) {
		seterr(err, "corrupted v1 event: %zu bytes", avail);
		return -1;
	}
	old = rd32(ev + PPM_HDR_OFF(len));
	type = rd16(ev + PPM_HDR_OFF(type));
	if (old < EVT_HDR_V1_LEN || old > avail) {
		seterr(err, "corrupted v1 event: length %u, block holds %zu",
		       old, avail);
		return -1;
	}
	memcpy(out, ev, EVT_HDR_V1_LEN);
	memcpy(out + PPM_EVT_HDR_LEN, ev + EVT_HDR_V1_LEN, old - EVT_HDR_V1_LEN);
	len = old + 4;
	if (type == PPME_NOTIFICATION_E || type == PPME_INFRASTRUCTURE_EVENT_E)
		len -= 3;
	tn = type < PPM_EVENT_MAX ? g_event_info[type].nparams : 0;
	for (n = tn + 1; n-- > 0;) {
		uint64_t end = PPM_EVT_HDR_LEN + 2ull * n;
		uint32_t i;

		if (end > len)
			continue;
		for (i = 0; i < n; i++)
			end += rd16(out + PPM_EVT_HDR_LEN + 2 * i);
		if (end < len) {
			seterr(err, "corrupted v1 event (type %u): can't calculate nparams",
			       type);
			return -1;
		}
		if (end == len) {
			memcpy(out + PPM_HDR_OFF(len), &len, sizeof(len));
			memcpy(out + PPM_HDR_OFF(nparams), &n, sizeof(n));
			return 0;
		}
	}
	seterr(err, "corrupted v1 event (type %u): can't calculate nparams (2)",
	       type);
	return -1;
}

/* ---------------------------------------------------------------------- */
/* input layer                                                            */

static uint64_t cur_offset(const struct savefile *f)
{
	return f->window_off + f->pos;
}

/* Make up to n bytes contiguous at base+pos; returns how many are. */
static size_t fetch(struct savefile *f, size_t n)
{
	size_t have = f->end - f->pos;

	if (have >= n || f->eof)
		return have < n ? have : n;
	if (f->pos) {
		memmove(f->buf, f->buf + f->pos, have);
		f->window_off += f->pos;
		f->end = have;
		f->pos = 0;
	}
	while (f->end < n && !f->eof) {
		size_t room;
		int r;

		if (f->end == f->cap) {
			size_t ncap = f->cap * 2;
			uint8_t *nb;

			/* a plain file never needs more than what is left of it */
			if (!f->in.gzip && f->file_size &&
			    f->window_off + f->cap >= f->file_size) {
				f->eof = 1;
				break;
			}
			nb = realloc(f->buf, ncap);

			if (!nb) {
				f->eof = 1;
				f->ioerr = ENOMEM;
				break;
			}
			f->buf = nb;
			f->cap = ncap;
			f->base = nb;
		}
		room = f->cap - f->end;
		if (room > INT_MAX)
			room = INT_MAX;
		r = (int)input_read(&f->in, f->buf + f->end, room);
		if (r < 0) {
			f->eof = 1;
			f->ioerr = f->in.err;
		} else if (r == 0) {
			f->eof = 1;
		} else {
			f->end += (size_t)r;
		}
	}
	have = f->end;
	return have < n ? have : n;
}

static const uint8_t *cur_ptr(const struct savefile *f)
{
	return f->base + f->pos;
}

static void truncated(struct scap *h, struct savefile *f, size_t want,
		      size_t got, const char *what)
{
	if (f->ioerr && f->ioerr != ENOMEM)
		seterr(h->err, "%s at offset %" PRIu64 ": expecting %zu bytes, read %zu (%s).%s",
		       what, cur_offset(f), want, got, f->in.msg,
		       strstr(f->in.msg, "unexpected end") ? " Is the file truncated?" : " The file is damaged.");
	else if (f->ioerr == ENOMEM)
		seterr(h->err, "%s at offset %" PRIu64 ": out of memory reading %zu bytes",
		       what, cur_offset(f), want);
	else
		seterr(h->err, "%s at offset %" PRIu64 ": expecting %zu bytes, read %zu. Is the file truncated?",
		       what, cur_offset(f), want, got);
}

/* ---------------------------------------------------------------------- */
/* sections                                                               */

static int read_shb(struct scap *h, struct savefile *f)
{
	const uint8_t *p;
	size_t got = fetch(f, 8);
	uint32_t type, total;

	if (got == 0 && cur_offset(f) == 0 && !f->ioerr) {
		seterr(h->err, "empty file");
		return -1;
	}
	if (got < 8) {
		truncated(h, f, 8, got, "section header block");
		return -1;
	}
	p = cur_ptr(f);
	type = rd32(p);
	total = rd32(p + 4);
	if (type != SHB_BLOCK_TYPE) {
		seterr(h->err, "invalid block type %#x at offset %" PRIu64 " (not a .scap file?)",
		       type, cur_offset(f));
		return -1;
	}
	if (total < SHB_BLOCK_LEN || total > MAX_BLOCK_LEN) {
		seterr(h->err, "invalid section header block length %u", total);
		return -1;
	}
	got = fetch(f, total);
	if (got < total) {
		truncated(h, f, total, got, "section header block");
		return -1;
	}
	p = cur_ptr(f);
	if (rd32(p + 8) != SHB_MAGIC) {
		seterr(h->err, "invalid magic number");
		return -1;
	}
	if (rd16(p + 12) > SHB_MAJOR) {
		seterr(h->err, "cannot correctly parse the capture (version %u.%u). Upgrade your version.",
		       rd16(p + 12), rd16(p + 14));
		return -1;
	}
	f->pos += total;	/* options, if any, are skipped */
	return 0;
}

/* SHB and metadata blocks up to (not including) the first event block.
 * first: an end of file right after the SHB means "no events in file"; a
 * file with metadata and no event (a capture stopped before its first
 * event) is an empty capture. */
static int read_section(struct scap *h, struct savefile *f, int first)
{
	int nmeta = 0;

	f->fdl_hint = 0;
	if (read_shb(h, f))
		return -1;
	for (;; nmeta++) {
		size_t got = fetch(f, 8);
		const uint8_t *p;
		uint32_t type, total;

		if (got == 0 && !f->ioerr) {
			if (first && !nmeta) {
				seterr(h->err, "no events in file");
				return -1;
			}
			return 0;
		}
		if (got < 8) {
			truncated(h, f, 8, got, "block header");
			return -1;
		}
		p = cur_ptr(f);
		type = rd32(p);
		total = rd32(p + 4);
		if (evblock_kind(type) != EVB_NONE)
			return 0;
		if (total < 12 || total > MAX_BLOCK_LEN) {
			seterr(h->err, "invalid block length %u at offset %" PRIu64,
			       total, cur_offset(f));
			return -1;
		}
		got = fetch(f, total);
		if (got < total) {
			truncated(h, f, total, got, "metadata block");
			return -1;
		}
		p = cur_ptr(f);
		if (rd32(p + total - 4) != total) {
			seterr(h->err, "wrong block total length, header=%u, trailer=%u",
			       total, rd32(p + total - 4));
			return -1;
		}
		if (parse_block(&h->meta, type, p + 8, total - 12, &f->fdl_hint,
				h->err))
			return -1;
		f->pos += total;
	}
}

/* ---------------------------------------------------------------------- */
/* event loop                                                             */

static int fail(struct savefile *f)
{
	f->failed = 1;
	return SCAP_FAILURE;
}

/* damaged data: no valid block at the current offset (h->err says why) */
#define BLOCK_DAMAGED (-100)

/* The block at the current offset: an event (SCAP_SUCCESS), a new section,
 * SCAP_EOF, or BLOCK_DAMAGED / SCAP_FAILURE with h->err (the offset is not
 * moved).  resync: probing for the next valid block after damage (blocks
 * larger than READER_BUF_SIZE and section headers are not taken). */
static int next_block(struct scap *h, struct savefile *f, struct scap_evt *evt, int resync)
{
	for (;;) {
		size_t got = fetch(f, 8), hdroff, evhdr, avail;
		const uint8_t *p, *ev;
		uint32_t type, total, len;
		uint16_t etype;
		int kind;

		if (got == 0 && !f->ioerr)
			return SCAP_EOF;
		if (got < 8) {
			truncated(h, f, 8, got, "block header");
			return BLOCK_DAMAGED;
		}
		p = cur_ptr(f);
		type = rd32(p);
		total = rd32(p + 4);
		kind = evblock_kind(type);
		if (resync && (kind == EVB_NONE || total > READER_BUF_SIZE))
			return BLOCK_DAMAGED;
		if (kind == EVB_NONE) {
			if (type != SHB_BLOCK_TYPE) {
				seterr(h->err, "invalid block type %#x at offset %" PRIu64,
				       type, cur_offset(f));
				return BLOCK_DAMAGED;
			}
			scap_metadata_free(&h->meta);
			if (read_section(h, f, 0))
				return SCAP_FAILURE;
			return SCAP_NEW_SECTION;
		}
		hdroff = (kind == EVB_V2F || kind == EVB_V1F) ? 6 : 2;
		evhdr = kind >= EVB_V1 ? EVT_HDR_V1_LEN : PPM_EVT_HDR_LEN;
		if (total < 8 + hdroff + evhdr + 4) {
			seterr(h->err, "block length too short (%u) at offset %" PRIu64,
			       total, cur_offset(f));
			return BLOCK_DAMAGED;
		}
		if (total > MAX_BLOCK_LEN || (!evblock_is_large(type) &&
		    total - 8 + (kind >= EVB_V1 ? 4 : 0) > READER_BUF_SIZE)) {
			seterr(h->err, "event block too large (%u bytes) at offset %" PRIu64,
			       total, cur_offset(f));
			return BLOCK_DAMAGED;
		}
		got = fetch(f, total);
		if (got < total) {
			truncated(h, f, total, got, "event block");
			return BLOCK_DAMAGED;
		}
		p = cur_ptr(f);
		ev = p + 8 + hdroff;
		avail = total - 12 - hdroff;
		etype = rd16(ev + PPM_HDR_OFF(type));
		/* a candidate after damage must look whole: its trailer repeats
		 * the length (readers otherwise ignore it), its type is known */
		if (resync && (rd32(p + total - 4) != total || !ppm_event_info_of(etype)))
			return BLOCK_DAMAGED;
		if (!ppm_event_info_of(etype)) {
			f->pos += total;
			continue;
		}
		if (kind >= EVB_V1) {
			if (!f->conv && !(f->conv = malloc(READER_BUF_SIZE + 8))) {
				seterr(h->err, "out of memory");
				return SCAP_FAILURE;
			}
			if (savefile_convert_v1(ev, avail, f->conv, h->err)) {
				size_t l = strlen(h->err);

				snprintf(h->err + l, SCAP_ERRBUF_SIZE - l,
					 " at offset %" PRIu64, cur_offset(f));
				return BLOCK_DAMAGED;
			}
			ev = f->conv;
			len = rd32(ev + PPM_HDR_OFF(len));
		} else {
			len = rd32(ev + PPM_HDR_OFF(len));
			if (len < PPM_EVT_HDR_LEN || len > avail) {
				seterr(h->err, "corrupted event at offset %" PRIu64 ": length %u, block holds %zu",
				       cur_offset(f), len, avail);
				return BLOCK_DAMAGED;
			}
		}
		evt->data = ev;
		evt->len = len;
		evt->ts = rd64(ev + PPM_HDR_OFF(ts));
		evt->tid = rd64(ev + PPM_HDR_OFF(tid));
		evt->type = etype;
		evt->cpuid = rd16(p + 8);
		evt->dump_flags = hdroff == 6 ? rd32(p + 10) : 0;
		if (scap_decode_params(evt)) {
			seterr(h->err, "corrupted event at offset %" PRIu64 ": parameter lengths exceed the event length %u",
			       cur_offset(f), len);
			return BLOCK_DAMAGED;
		}
		if (!f->have_first_event) {
			f->have_first_event = 1;
			f->first_event_off = cur_offset(f);
		}
		f->pos += total;
		f->last_total = total;
		return SCAP_SUCCESS;
	}
}

static uint32_t evt_block_len(const struct savefile *f)
{
	return f->last_total;
}

/* --recover: from one byte past the damaged offset, the first offset
 * holding a valid event block; its event is returned and the skip noted */
static int resync(struct scap *h, struct savefile *f, struct scap_evt *evt)
{
	uint64_t from = cur_offset(f);
	char why[SCAP_ERRBUF_SIZE];

	snprintf(why, sizeof(why), "%s", h->err);
	for (;;) {
		int r;

		f->pos++;
		if (fetch(f, 8) < 8) {
			snprintf(h->err, SCAP_ERRBUF_SIZE, "%s", why);
			return SCAP_FAILURE;	/* nothing valid after the damage */
		}
		r = next_block(h, f, evt, 1);
		if (r == BLOCK_DAMAGED)
			continue;
		if (r == SCAP_SUCCESS) {
			uint64_t to = cur_offset(f) - (uint64_t)evt_block_len(f);

			h->skipped_regions++;
			h->skipped_bytes += to - from;
			h->recovered = 1;
			snprintf(h->note, sizeof(h->note),
				 "skipped %" PRIu64 " damaged bytes at offset %" PRIu64 " (%.200s), reading on at offset %" PRIu64,
				 to - from, from, why, to);
		}
		return r;
	}
}

static int file_next(struct scap *h, struct scap_evt *evt)
{
	struct savefile *f = h->engine;
	int r;

	if (f->failed)
		return SCAP_FAILURE;
	r = next_block(h, f, evt, 0);
	if (r == BLOCK_DAMAGED && h->recover)
		r = resync(h, f, evt);
	if (r == BLOCK_DAMAGED || r == SCAP_FAILURE)
		return fail(f);
	return r;
}

static int file_get_stats(struct scap *h, struct scap_stats *st)
{
	(void)h;
	memset(st, 0, sizeof(*st));
	return SCAP_SUCCESS;
}

static double file_progress(struct scap *h)
{
	struct savefile *f = h->engine;
	uint64_t done;

	if (!f->file_size)
		return -1;
	done = f->in.gzip ? input_raw_offset(&f->in) : cur_offset(f);
	return done >= f->file_size ? 1.0 : (double)done / (double)f->file_size;
}

/* sysdig 0.29.3's figure (savefile_progress.c) where it can be had (a
 * regular file, events seen); else the share of the file consumed */
static double file_reference_progress(struct scap *h)
{
	struct savefile *f = h->engine;

	if (f->path && f->have_first_event && !f->mirror_failed) {
		double p;

		if (!f->mirror && !(f->mirror = read_mirror_open(f->path, f->first_event_off)))
			f->mirror_failed = 1;
		p = f->mirror ? read_mirror_progress(f->mirror, cur_offset(f), f->file_size) : -1;
		if (p >= 0)
			return p > 1 ? 1.0 : p;
		f->mirror_failed = 1;
	}
	return file_progress(h);
}

static void file_close(struct scap *h)
{
	struct savefile *f = h->engine;

	if (!f)
		return;
	input_close(&f->in);
	read_mirror_close(f->mirror);
	free(f->path);
	free(f->buf);
	free(f->conv);
	free(f);
	h->engine = NULL;
}

static const struct scap_engine_ops savefile_ops = {
	.name = "savefile",
	.next = file_next,
	.get_stats = file_get_stats,
	.progress = file_progress,
	.reference_progress = file_reference_progress,
	.close = file_close,
};

static int open_input(struct savefile *f, const char *path, char *err)
{
	struct stat st;
	int fd = strcmp(path, "-") ? open(path, O_RDONLY | O_CLOEXEC) : dup(0);

	if (fd < 0) {
		seterr(err, "can't open file %s: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
		f->file_size = (uint64_t)st.st_size;
		f->path = strcmp(path, "-") ? strdup(path) : NULL;
	}
	if (input_open(&f->in, fd)) {
		seterr(err, "can't read file %s: %s", path, f->in.msg);
		return -1;
	}
	/* small plain files get a small window (it grows when needed) */
	f->cap = STREAM_BUF_INIT;
	if (!f->in.gzip && f->file_size && f->file_size < STREAM_BUF_INIT)
		f->cap = f->file_size < 4096 ? 4096 : (size_t)f->file_size;
	f->buf = malloc(f->cap);
	if (!f->buf) {
		seterr(err, "can't open file %s: out of memory", path);
		return -1;
	}
	f->base = f->buf;
	return 0;
}

struct scap *scap_open_file(const char *path, char *err)
{
	struct scap *h = calloc(1, sizeof(*h));
	struct savefile *f = calloc(1, sizeof(*f));

	if (!h || !f) {
		free(h);
		free(f);
		seterr(err, "out of memory");
		return NULL;
	}
	f->in.fd = -1;
	h->ops = &savefile_ops;
	h->engine = f;
	if (open_input(f, path, err))
		goto fail;
	if (read_section(h, f, 1)) {
		snprintf(err, SCAP_ERRBUF_SIZE, "%s", h->err);
		goto fail;
	}
	return h;
fail:
	scap_close(h);
	return NULL;
}

int scap_enable_tracers(struct scap *h)
{
	return h && h->ops && h->ops->enable_tracers ? h->ops->enable_tracers(h) : 0;
}

void scap_close(struct scap *h)
{
	if (!h)
		return;
	if (h->ops && h->ops->close)
		h->ops->close(h);
	scap_metadata_free(&h->meta);
	scap_suppress_free(h->suppress);
	free(h);
}
