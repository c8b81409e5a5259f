/*
 * savefile_write.c - the .scap writer (scap_dump_* in scap.h).
 *
 * Writes the current v2 layout that sysdig 0.29.3 reads
 * (docs/scap_format.md): SHB (28 bytes, version 1.2), MI, IL_V2, UL_V2,
 * PL_V9 with the 5-byte loginuid/exe_writable tail, one FDL_V2 per thread
 * (FILE_V2 always with dev), then EV_V2 / EVF_V2 / _LARGE event blocks.
 * Block lengths are computed from the bytes actually written.  Output goes
 * through a large buffer to write(2) (plain) or to zlib (gzip); the first
 * write error is remembered and reported by every later call, and a plain
 * file is then cut back to its last whole block (a full disk leaves a file
 * that reads to its end without error).
 *
 * Files are created 0600 (captures hold buffers and environments; an
 * existing file keeps its mode).  A symlink is followed only where nobody
 * else could have planted it: not one owned by another user in a sticky
 * (world-writable, like /tmp) directory.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <sys/stat.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "scap.h"
#include "savefile.h"

#define DUMP_BUF_SIZE (1u << 20)

struct scap_dumper {
	int fd;
	gzFile gz;
	int close_fd;
	uint8_t *buf;
	size_t len;
	uint64_t flushed;	/* bytes handed to write(2) / zlib */
	uint64_t block_end;	/* stream offset of the end of the last whole block */
	uint64_t whole;		/* the last block end that is on disk */
	int failed;
	char err[SCAP_ERRBUF_SIZE];
};

/* growable scratch buffer for one metadata block body */
struct vec {
	uint8_t *p;
	size_t len, cap;
	int oom;
};

static void dump_seterr(struct scap_dumper *d, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void dump_seterr(struct scap_dumper *d, const char *fmt, ...)
{
	va_list ap;

	if (d->failed)
		return;
	d->failed = 1;
	va_start(ap, fmt);
	vsnprintf(d->err, sizeof(d->err), fmt, ap);
	va_end(ap);
}

/* ---------------------------------------------------------------------- */
/* output                                                                 */

/* After a failed write that got `written` bytes of the buffer out: cut the
 * file back to its last whole block (whole blocks or nothing).  The buffer
 * starts at a block boundary unless a huge event is being written in
 * pieces; then the block before it is the last whole one. */
static void cut_to_whole_blocks(struct scap_dumper *d, size_t written)
{
	uint64_t keep = d->whole;

	if (!d->close_fd)
		return;	/* stdout: it may hold more than our stream (>>) */
	if (d->whole == d->flushed) {
		size_t at = 0;

		while (at + 8 <= written) {
			uint32_t total;

			memcpy(&total, d->buf + at + 4, 4);
			if (total < 12 || total > written - at)
				break;
			at += total;
		}
		keep = d->flushed + at;
	}
	if (ftruncate(d->fd, (off_t)keep) == 0)
		lseek(d->fd, (off_t)keep, SEEK_SET);
}

static int flush_out(struct scap_dumper *d)
{
	size_t off = 0;

	if (d->failed)
		return -1;
	if (d->gz) {
		if (d->len && gzwrite(d->gz, d->buf, (unsigned)d->len) != (int)d->len) {
			int zerr;
			const char *msg = gzerror(d->gz, &zerr);

			dump_seterr(d, "error writing to file: %s",
				    zerr == Z_ERRNO ? strerror(errno) : msg);
			return -1;
		}
		d->flushed += d->len;
		d->len = 0;
		return 0;
	}
	while (off < d->len) {
		ssize_t r = write(d->fd, d->buf + off, d->len - off);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			dump_seterr(d, "error writing to file: %s",
				    r < 0 ? strerror(errno) : "short write");
			cut_to_whole_blocks(d, off);
			return -1;
		}
		off += (size_t)r;
	}
	d->flushed += d->len;
	d->len = 0;
	if (d->block_end <= d->flushed)
		d->whole = d->block_end;
	return 0;
}

/* Room for n contiguous bytes in the output buffer (n <= DUMP_BUF_SIZE). */
static uint8_t *out_reserve(struct scap_dumper *d, size_t n)
{
	if (d->len + n > DUMP_BUF_SIZE && flush_out(d))
		return NULL;
	return d->buf + d->len;
}

static int out_put(struct scap_dumper *d, const void *p, size_t n)
{
	const uint8_t *s = p;

	while (n) {
		size_t chunk = n < DUMP_BUF_SIZE ? n : DUMP_BUF_SIZE;
		uint8_t *dst = out_reserve(d, chunk);

		if (!dst)
			return -1;
		memcpy(dst, s, chunk);
		d->len += chunk;
		s += chunk;
		n -= chunk;
	}
	return 0;
}

/* ---------------------------------------------------------------------- */
/* block bodies                                                           */

static void vec_put(struct vec *v, const void *p, size_t n)
{
	if (v->oom || n == 0)	/* p may be NULL when n == 0 */
		return;
	if (v->len + n > v->cap) {
		size_t ncap = v->cap ? v->cap : 4096;
		uint8_t *np;

		while (ncap < v->len + n)
			ncap *= 2;
		np = realloc(v->p, ncap);
		if (!np) {
			v->oom = 1;
			return;
		}
		v->p = np;
		v->cap = ncap;
	}
	memcpy(v->p + v->len, p, n);
	v->len += n;
}

static void put8(struct vec *v, uint8_t x)
{
	vec_put(v, &x, 1);
}

static void put16(struct vec *v, uint16_t x)
{
	vec_put(v, &x, 2);
}

static void put32(struct vec *v, uint32_t x)
{
	vec_put(v, &x, 4);
}

static void put64(struct vec *v, uint64_t x)
{
	vec_put(v, &x, 8);
}

/* lstr of n bytes, clamped to max so the reader's limits always hold */
static void put_lbytes(struct vec *v, const char *s, size_t n, size_t max)
{
	if (!s)
		n = 0;
	if (n > max)
		n = max;
	put16(v, (uint16_t)n);
	vec_put(v, s, n);
}

static void put_lstr(struct vec *v, const char *s, size_t max)
{
	put_lbytes(v, s, s ? strlen(s) : 0, max);
}

/* Reserve a u32 entry-length slot; returns its offset. */
static size_t entry_begin(struct vec *v)
{
	size_t at = v->len;

	put32(v, 0);
	return at;
}

/* Patch the slot at `at` with the length of the entry written since,
 * counting the slot itself when include_self. */
static void entry_end(struct vec *v, size_t at, int include_self)
{
	uint32_t n = (uint32_t)(v->len - at - (include_self ? 0 : 4));

	if (!v->oom)
		memcpy(v->p + at, &n, 4);
}

static int emit_block(struct scap_dumper *d, uint32_t type, struct vec *v)
{
	static const uint8_t zero[4];
	uint32_t total;
	uint8_t hdr[8];

	if (v->oom) {
		dump_seterr(d, "out of memory");
		return -1;
	}
	total = block_total_len((uint32_t)v->len);
	memcpy(hdr, &type, 4);
	memcpy(hdr + 4, &total, 4);
	if (out_put(d, hdr, 8) || out_put(d, v->p, v->len) ||
	    out_put(d, zero, total - 12 - v->len) || out_put(d, &total, 4))
		return -1;
	d->block_end = d->flushed + d->len;
	v->len = 0;
	return 0;
}

static int write_shb(struct scap_dumper *d, struct vec *v)
{
	put32(v, SHB_MAGIC);
	put16(v, SHB_MAJOR);
	put16(v, SHB_MINOR);
	put64(v, UINT64_MAX);
	return emit_block(d, SHB_BLOCK_TYPE, v);
}

static int write_mi(struct scap_dumper *d, struct vec *v,
		    const struct scap_machine_info *mi)
{
	put32(v, mi->num_cpus);
	put64(v, mi->memory_size_bytes);
	put64(v, mi->max_pid);
	vec_put(v, mi->hostname, sizeof(mi->hostname));
	put64(v, mi->boot_ts_epoch);
	put64(v, mi->flags);
	put64(v, mi->reserved3);
	put64(v, mi->reserved4);
	return emit_block(d, MI_BLOCK_TYPE, v);
}

static int write_il(struct scap_dumper *d, struct vec *v,
		    const struct scap_metadata *m)
{
	uint32_t i;

	for (i = 0; i < m->nipv4; i++) {
		const struct scap_ifinfo_ipv4 *e = &m->ipv4[i];
		size_t at = entry_begin(v), n = strnlen(e->ifname, sizeof(e->ifname) - 1);

		put16(v, SCAP_II_IPV4);
		put16(v, (uint16_t)n);
		put32(v, e->addr);
		put32(v, e->netmask);
		put32(v, e->bcast);
		put64(v, e->linkspeed);
		vec_put(v, e->ifname, n);
		entry_end(v, at, 0);
	}
	for (i = 0; i < m->nipv6; i++) {
		const struct scap_ifinfo_ipv6 *e = &m->ipv6[i];
		size_t at = entry_begin(v), n = strnlen(e->ifname, sizeof(e->ifname) - 1);

		put16(v, SCAP_II_IPV6);
		put16(v, (uint16_t)n);
		vec_put(v, e->addr, 16);
		vec_put(v, e->netmask, 16);
		vec_put(v, e->bcast, 16);
		put64(v, e->linkspeed);
		vec_put(v, e->ifname, n);
		entry_end(v, at, 0);
	}
	return emit_block(d, IL_BLOCK_TYPE_V2, v);
}

static void put_cred(struct vec *v, const char *s, size_t size)
{
	put_lbytes(v, s, strnlen(s, size), SCAP_MAX_CRED_LEN - 1);
}

static int write_ul(struct scap_dumper *d, struct vec *v,
		    const struct scap_metadata *m)
{
	uint32_t i;

	for (i = 0; i < m->nusers; i++) {
		const struct scap_userinfo *u = &m->users[i];
		size_t at = entry_begin(v);

		put8(v, USERBLOCK_TYPE_USER);
		put32(v, u->uid);
		put32(v, u->gid);
		put_cred(v, u->name, sizeof(u->name));
		put_cred(v, u->homedir, sizeof(u->homedir));
		put_cred(v, u->shell, sizeof(u->shell));
		entry_end(v, at, 1);
	}
	for (i = 0; i < m->ngroups; i++) {
		const struct scap_groupinfo *g = &m->groups[i];
		size_t at = entry_begin(v);

		put8(v, USERBLOCK_TYPE_GROUP);
		put32(v, g->gid);
		put_cred(v, g->name, sizeof(g->name));
		entry_end(v, at, 1);
	}
	return emit_block(d, UL_BLOCK_TYPE_V2, v);
}

static void put_thread(struct vec *v, const struct scap_threadinfo *t)
{
	size_t at = entry_begin(v);

	put64(v, t->tid);
	put64(v, t->pid);
	put64(v, t->ptid);
	put64(v, (uint64_t)t->sid);
	put64(v, (uint64_t)t->vpgid);
	put_lstr(v, t->comm, SCAP_MAX_PATH_SIZE);
	put_lstr(v, t->exe, SCAP_MAX_PATH_SIZE);
	put_lstr(v, t->exepath, SCAP_MAX_PATH_SIZE);
	put_lbytes(v, t->args, t->args_len, SCAP_MAX_ARGS_SIZE);
	put_lstr(v, t->cwd, SCAP_MAX_PATH_SIZE);
	put64(v, t->fdlimit);
	put32(v, t->flags);
	put32(v, t->uid);
	put32(v, t->gid);
	put32(v, t->vmsize_kb);
	put32(v, t->vmrss_kb);
	put32(v, t->vmswap_kb);
	put64(v, t->pfmajor);
	put64(v, t->pfminor);
	put_lbytes(v, t->env, t->env_len, SCAP_MAX_ENV_SIZE);
	put64(v, (uint64_t)t->vtid);
	put64(v, (uint64_t)t->vpid);
	put_lbytes(v, t->cgroups, t->cgroups_len, SCAP_MAX_CGROUPS_SIZE);
	put_lstr(v, t->root, SCAP_MAX_PATH_SIZE);
	put32(v, t->loginuid);
	put8(v, t->exe_writable);
	entry_end(v, at, 1);
}

static void put_fd(struct vec *v, const struct scap_fdinfo *f)
{
	size_t at = entry_begin(v);

	put64(v, (uint64_t)f->fd);
	put64(v, f->ino);
	put8(v, (uint8_t)f->type);
	switch (f->type) {
	case SCAP_FD_IPV4_SOCK:
		put32(v, f->info.ipv4.sip);
		put32(v, f->info.ipv4.dip);
		put16(v, f->info.ipv4.sport);
		put16(v, f->info.ipv4.dport);
		put8(v, f->info.ipv4.l4proto);
		break;
	case SCAP_FD_IPV6_SOCK:
		vec_put(v, f->info.ipv6.sip, 16);
		vec_put(v, f->info.ipv6.dip, 16);
		put16(v, f->info.ipv6.sport);
		put16(v, f->info.ipv6.dport);
		put8(v, f->info.ipv6.l4proto);
		break;
	case SCAP_FD_IPV4_SERVSOCK:
		put32(v, f->info.ipv4serv.ip);
		put16(v, f->info.ipv4serv.port);
		put8(v, f->info.ipv4serv.l4proto);
		break;
	case SCAP_FD_IPV6_SERVSOCK:
		vec_put(v, f->info.ipv6serv.ip, 16);
		put16(v, f->info.ipv6serv.port);
		put8(v, f->info.ipv6serv.l4proto);
		break;
	case SCAP_FD_UNIX_SOCK:
		put64(v, f->info.unix_sock.source);
		put64(v, f->info.unix_sock.destination);
		put_lstr(v, f->name, SCAP_MAX_PATH_SIZE - 1);
		break;
	case SCAP_FD_FILE_V2:
		put32(v, f->open_flags);
		put_lstr(v, f->name, SCAP_MAX_PATH_SIZE - 1);
		put32(v, f->dev);
		break;
	default:
		put_lstr(v, f->name, SCAP_MAX_PATH_SIZE - 1);
		break;
	}
	entry_end(v, at, 1);
}

static int write_threads(struct scap_dumper *d, struct vec *v,
			 const struct scap_metadata *m)
{
	uint32_t i, j;

	if (!m->nthreads)
		return 0;
	for (i = 0; i < m->nthreads; i++)
		put_thread(v, &m->threads[i]);
	if (emit_block(d, PL_BLOCK_TYPE_V9, v))
		return -1;
	for (i = 0; i < m->nthreads; i++) {
		const struct scap_threadinfo *t = &m->threads[i];

		put64(v, t->tid);
		for (j = 0; j < t->nfds; j++)
			if (t->fds[j].type > SCAP_FD_UNKNOWN)
				put_fd(v, &t->fds[j]);
		if (emit_block(d, FDL_BLOCK_TYPE_V2, v))
			return -1;
	}
	return 0;
}

/* ---------------------------------------------------------------------- */
/* public API                                                             */

/* A symlink that another user owns in a sticky directory may have been
 * planted there to make us overwrite its target: 1 if path is one. */
static int planted_symlink(const char *path)
{
	struct stat lst, dst;
	char *copy = strdup(path);
	int r;

	if (!copy)
		return 1;
	r = lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode) && lst.st_uid != geteuid() &&
	    stat(dirname(copy), &dst) == 0 && (dst.st_mode & S_ISVTX);
	free(copy);
	return r;
}

static int open_output(const char *path, char *err)
{
	int flags = O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, fd;

	fd = open(path, flags | O_NOFOLLOW, 0600);
	/* ELOOP: a symlink; EACCES: also what fs.protected_symlinks says */
	if (fd < 0 && (errno == ELOOP || errno == EACCES)) {
		int e = errno;

		if (planted_symlink(path)) {
			snprintf(err, SCAP_ERRBUF_SIZE,
				 "can't open %s for writing: it is a symlink owned by another user in a sticky directory",
				 path);
			return -1;
		}
		fd = e == ELOOP ? open(path, flags, 0600) : -1;
		errno = e == ELOOP ? errno : e;
	}
	if (fd < 0)
		snprintf(err, SCAP_ERRBUF_SIZE, "can't open %s for writing: %s", path, strerror(errno));
	return fd;
}

struct scap_dumper *scap_dump_open(const char *path, int compress, char *err)
{
	struct scap_dumper *d = calloc(1, sizeof(*d));

	if (!d || !(d->buf = malloc(DUMP_BUF_SIZE))) {
		free(d);
		snprintf(err, SCAP_ERRBUF_SIZE, "out of memory");
		return NULL;
	}
	if (!strcmp(path, "-")) {
		d->fd = 1;
	} else {
		d->fd = open_output(path, err);
		d->close_fd = 1;
		if (d->fd < 0) {
			free(d->buf);
			free(d);
			return NULL;
		}
	}
	if (compress) {
		d->gz = gzdopen(d->close_fd ? d->fd : dup(d->fd), "wb");
		if (!d->gz) {
			snprintf(err, SCAP_ERRBUF_SIZE, "can't open %s for writing: gzip init failed",
				 path);
			if (d->close_fd)
				close(d->fd);
			free(d->buf);
			free(d);
			return NULL;
		}
	}
	return d;
}

int scap_dump_metadata(struct scap_dumper *d, const struct scap_metadata *m)
{
	struct vec v = { 0 };
	int rc = -1;

	if (d->failed)
		return -1;
	if (write_shb(d, &v))
		goto out;
	if (m->has_machine && write_mi(d, &v, &m->machine))
		goto out;
	if (m->has_iflist && write_il(d, &v, m))
		goto out;
	if (m->has_userlist && write_ul(d, &v, m))
		goto out;
	if (write_threads(d, &v, m))
		goto out;
	rc = 0;
out:
	free(v.p);
	return rc;
}

int scap_dump_event(struct scap_dumper *d, const struct scap_evt *evt,
		    uint16_t cpuid, uint32_t flags)
{
	uint32_t len = evt->len, type, total, hdr;
	uint16_t etype;
	int large;
	uint8_t *o;

	if (d->failed)
		return -1;
	if (!evt->data || len < PPM_EVT_HDR_LEN || len > UINT32_MAX - 64) {
		dump_seterr(d, "invalid event length %u", len);
		return -1;
	}
	memcpy(&etype, evt->data + PPM_HDR_OFF(type), sizeof(etype));	/* the header is authoritative */
	large = (flags & SCAP_DF_LARGE) ||
		(etype < PPM_EVENT_MAX &&
		 (g_event_info[etype].flags & EF_LARGE_PAYLOAD));
	flags &= ~(uint32_t)SCAP_DF_LARGE;
	if (flags)
		type = large ? EVF_BLOCK_TYPE_V2_LARGE : EVF_BLOCK_TYPE_V2;
	else
		type = large ? EV_BLOCK_TYPE_V2_LARGE : EV_BLOCK_TYPE_V2;
	hdr = flags ? 6 : 2;
	total = block_total_len(hdr + len);
	if (total > DUMP_BUF_SIZE) {
		/* huge (large payload) event: go through out_put in pieces */
		uint8_t head[14], pad[4] = { 0 };

		memcpy(head, &type, 4);
		memcpy(head + 4, &total, 4);
		memcpy(head + 8, &cpuid, 2);
		memcpy(head + 10, &flags, 4);
		if (out_put(d, head, 8 + hdr) || out_put(d, evt->data, len) ||
		    out_put(d, pad, total - 12 - hdr - len) || out_put(d, &total, 4))
			return -1;
		d->block_end = d->flushed + d->len;
		return 0;
	}
	o = out_reserve(d, total);
	if (!o)
		return -1;
	memcpy(o, &type, 4);
	memcpy(o + 4, &total, 4);
	memcpy(o + 8, &cpuid, 2);
	if (flags)
		memcpy(o + 10, &flags, 4);
	memcpy(o + 8 + hdr, evt->data, len);
	memset(o + 8 + hdr + len, 0, total - 12 - hdr - len);
	memcpy(o + total - 4, &total, 4);
	d->len += total;
	d->block_end = d->flushed + d->len;
	return 0;
}

int scap_dump_close(struct scap_dumper *d, char *err)
{
	int rc;

	if (!d)
		return 0;
	flush_out(d);
	if (d->gz) {
		int zrc = gzclose(d->gz);

		if (zrc != Z_OK)
			dump_seterr(d, "error writing to file: %s",
				    zrc == Z_ERRNO ? strerror(errno) : "gzip close failed");
	} else if (d->close_fd && close(d->fd)) {
		dump_seterr(d, "error writing to file: %s", strerror(errno));
	}
	rc = d->failed ? -1 : 0;
	if (rc && err)
		snprintf(err, SCAP_ERRBUF_SIZE, "%s", d->err);
	free(d->buf);
	free(d);
	return rc;
}

int scap_dump_flush(struct scap_dumper *d)
{
	if (flush_out(d))
		return -1;
	if (d->gz && gzflush(d->gz, Z_SYNC_FLUSH) != Z_OK) {
		dump_seterr(d, "error writing to file: %s", strerror(errno));
		return -1;
	}
	return 0;
}

uint64_t scap_dump_size(struct scap_dumper *d)
{
	if (d->gz)
		return (uint64_t)gzoffset(d->gz) + d->len;
	return d->flushed + d->len;
}

const char *scap_dump_error(struct scap_dumper *d)
{
	return d->err;
}
