/*
 * savefile_input.c - the byte source of the .scap reader: plain read(2) or
 * zlib inflate (savefile_input.h).  Gzip members follow each other as in
 * gzip(1); bytes after the last member that do not start a new one are
 * ignored, as zcat does.  A read interrupted by a signal is an error
 * ("Interrupted system call"), not retried: the CLI catches its stop
 * signals without SA_RESTART so that a pipe or FIFO that never delivers
 * can be stopped.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "savefile_input.h"

#define RAW_BUF_SIZE (256u * 1024)

static int in_fail(struct scap_input *in, int err, const char *fmt, const char *what)
{
	in->err = err;
	snprintf(in->msg, sizeof(in->msg), fmt, what);
	return -1;
}

/* refill raw with at least one byte unless at the end; -1 on error */
static int fill_raw(struct scap_input *in)
{
	ssize_t r = read(in->fd, in->raw, in->rawcap);

	if (r < 0)
		return in_fail(in, errno, "read error: %s", strerror(errno));
	if (r == 0)
		in->in_eof = 1;
	in->in_off += (uint64_t)r;
	in->zs.next_in = in->raw;
	in->zs.avail_in = (uInt)r;
	return 0;
}

int input_open(struct scap_input *in, int fd)
{
	struct stat st;
	size_t have = 0;

	memset(in, 0, sizeof(*in));
	in->fd = fd;
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode))
		return in_fail(in, EISDIR, "%s", "it is a directory, not a capture file");
	in->rawcap = RAW_BUF_SIZE;
	in->raw = malloc(in->rawcap);
	if (!in->raw)
		return in_fail(in, ENOMEM, "%s", "out of memory");
	/* the first two bytes decide; a pipe may hand them out one by one */
	while (have < 2) {
		ssize_t r = read(fd, in->raw + have, in->rawcap - have);

		if (r < 0)
			return in_fail(in, errno, "read error: %s", strerror(errno));
		if (r == 0) {
			in->in_eof = 1;
			break;
		}
		have += (size_t)r;
	}
	in->in_off = have;
	in->gzip = have >= 2 && in->raw[0] == 0x1f && in->raw[1] == 0x8b;
	if (!in->gzip) {
		in->pending = have;
		return 0;
	}
	if (inflateInit2(&in->zs, 15 + 16) != Z_OK)
		return in_fail(in, ENOMEM, "%s", "gzip: out of memory");
	in->zinit = 1;
	in->zs.next_in = in->raw;
	in->zs.avail_in = (uInt)have;
	return 0;
}

static ssize_t read_plain(struct scap_input *in, uint8_t *dst, size_t n)
{
	ssize_t r;

	if (in->pending) {
		size_t k = n < in->pending ? n : in->pending;

		memcpy(dst, in->raw + in->pending_off, k);
		in->pending -= k;
		in->pending_off += k;
		return (ssize_t)k;
	}
	if (in->in_eof)
		return 0;
	r = read(in->fd, dst, n);
	if (r < 0)
		return in_fail(in, errno, "read error: %s", strerror(errno));
	if (r == 0)
		in->in_eof = 1;
	in->in_off += (uint64_t)r;
	return r;
}

/* after a member's end: another member, or the end of the input */
static int next_member(struct scap_input *in)
{
	if (!in->zs.avail_in && !in->in_eof && fill_raw(in))
		return -1;
	if (!in->zs.avail_in)
		return 0;
	if (in->zs.avail_in >= 2 && in->zs.next_in[0] == 0x1f && in->zs.next_in[1] == 0x8b) {
		inflateReset(&in->zs);
		in->member_end = 0;
		return 1;
	}
	in->zs.avail_in = 0;	/* trailing bytes: not a member, ignored */
	in->in_eof = 1;
	return 0;
}

static ssize_t read_gzip(struct scap_input *in, uint8_t *dst, size_t n)
{
	for (;;) {
		size_t got;
		int zr;

		if (in->member_end) {
			int m = next_member(in);

			if (m <= 0)
				return m;
		}
		if (!in->zs.avail_in && !in->in_eof && fill_raw(in))
			return -1;
		in->zs.next_out = dst;
		in->zs.avail_out = (uInt)n;
		zr = inflate(&in->zs, Z_NO_FLUSH);
		got = n - in->zs.avail_out;
		if (zr == Z_STREAM_END) {
			in->member_end = 1;
		} else if (zr == Z_BUF_ERROR && !got && in->in_eof && !in->zs.avail_in) {
			return in_fail(in, EIO, "gzip: %s", "unexpected end of compressed data");
		} else if (zr != Z_OK && zr != Z_BUF_ERROR) {
			/* the bytes decoded before the damage go out first */
			if (got)
				return (ssize_t)got;
			return in_fail(in, EIO, "gzip: %s", in->zs.msg ? in->zs.msg : "data error");
		}
		if (got)
			return (ssize_t)got;
	}
}

ssize_t input_read(struct scap_input *in, void *dst, size_t n)
{
	if (in->err)
		return -1;
	if (n > 1u << 30)
		n = 1u << 30;
	return in->gzip ? read_gzip(in, dst, n) : read_plain(in, dst, n);
}

uint64_t input_raw_offset(const struct scap_input *in)
{
	return in->in_off - (in->gzip ? in->zs.avail_in : in->pending);
}

void input_close(struct scap_input *in)
{
	if (in->zinit)
		inflateEnd(&in->zs);
	if (in->fd >= 0)
		close(in->fd);
	free(in->raw);
	memset(in, 0, sizeof(*in));
	in->fd = -1;
}
