/*
 * test_files.c - reader and writer tests on whole hand-made .scap files:
 * the cases of scap_format.md 13.2 that concern the reader (only_shb,
 * min_one_event, full, full.gz, shb_with_option, two_sections, misc,
 * fdl_before_pl, exit_only), truncated and corrupt files, large event
 * blocks, progress, and writer error reporting (disk full).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "scap.h"
#include "savefile.h"
#include "scapbuild.h"

#define TS0 1700000000000000000ull

static char path[256];
static char err[SCAP_ERRBUF_SIZE];

static void add_ev(struct sbuf *f, uint32_t btype, uint16_t cpu, uint32_t flags,
		   uint64_t ts, uint64_t tid, uint16_t type, uint32_t n,
		   const struct sparam *pv)
{
	struct sbuf ev = { 0 };
	int wide = type < PPM_EVENT_MAX &&
		   (g_event_info[type].flags & EF_LARGE_PAYLOAD);

	sb_event(&ev, ts, tid, type, n, pv, wide);
	sb_evblock(f, btype, cpu, flags, &ev);
	sb_free(&ev);
}

static void close_e(struct sbuf *f, uint64_t ts, uint64_t tid, int64_t fd)
{
	struct sparam p[1] = { { &fd, 8 } };

	add_ev(f, EV_BLOCK_TYPE_V2, 0, 0, ts, tid, PPME_SYSCALL_CLOSE_E, 1, p);
}

/* the `full` file of scap_format.md 13.2 */
static void build_full(struct sbuf *f)
{
	int64_t fd4 = 4, fd3 = 3, res5 = 5, enoent = -2, zero64 = 0;
	uint32_t fl = 4097, fl1 = 1, mode = 0, dev = 0, sz = 16;
	struct sparam oe[3] = { { "/etc/passwd", 12 }, { &fl, 4 }, { &mode, 4 } };
	struct sparam ox[5] = { { &fd4, 8 }, { "/etc/passwd", 12 }, { &fl, 4 },
		{ &mode, 4 }, { &dev, 4 } };
	struct sparam re[2] = { { &fd4, 8 }, { &sz, 4 } };
	struct sparam rx[2] = { { &res5, 8 }, { "root:", 5 } };
	struct sparam ne[3] = { { "/nope", 6 }, { &fl1, 4 }, { &mode, 4 } };
	struct sparam nx[5] = { { &enoent, 8 }, { "/nope", 6 }, { &fl1, 4 },
		{ &mode, 4 }, { &dev, 4 } };
	struct sparam ce[1] = { { &fd3, 8 } };
	struct sparam cx[1] = { { &zero64, 8 } };

	sb_shb(f);
	sb_mi(f, "vmtest", 2);
	sb_pl_mytool(f);
	sb_fdl_hosts(f, 1234);
	add_ev(f, EV_BLOCK_TYPE_V2, 0, 0, TS0 + 1, 1234, PPME_SYSCALL_OPEN_E, 3, oe);
	add_ev(f, EV_BLOCK_TYPE_V2, 0, 0, TS0 + 2, 1234, PPME_SYSCALL_OPEN_X, 5, ox);
	add_ev(f, EV_BLOCK_TYPE_V2, 0, 0, TS0 + 3, 1234, PPME_SYSCALL_READ_E, 2, re);
	add_ev(f, EV_BLOCK_TYPE_V2, 0, 0, TS0 + 4, 1234, PPME_SYSCALL_READ_X, 2, rx);
	add_ev(f, EV_BLOCK_TYPE_V2, 0, 0, TS0 + 5, 1234, PPME_SYSCALL_OPEN_E, 3, ne);
	add_ev(f, EV_BLOCK_TYPE_V2, 0, 0, TS0 + 6, 1234, PPME_SYSCALL_OPEN_X, 5, nx);
	add_ev(f, EVF_BLOCK_TYPE_V2, 1, 1, TS0 + 7, 1234, PPME_SYSCALL_CLOSE_E, 1, ce);
	add_ev(f, EVF_BLOCK_TYPE_V2, 1, 1, TS0 + 8, 1234, PPME_SYSCALL_CLOSE_X, 1, cx);
}

static struct scap *open_buf(const struct sbuf *b, int gz)
{
	sb_write(b, path, gz);
	return scap_open_file(path, err);
}

/* read all events; returns the count, rc of the last next() in *rc */
static int count_events(struct scap *h, int *rc)
{
	struct scap_evt e;
	int n = 0;

	while ((*rc = scap_next(h, &e)) == SCAP_SUCCESS)
		n++;
	return n;
}

static void test_only_shb(void **state)
{
	struct sbuf f = { 0 };

	(void)state;
	sb_shb(&f);
	assert_int_equal(f.len, 28);
	assert_null(open_buf(&f, 0));
	assert_string_equal(err, "no events in file");
	sb_free(&f);
}

static void test_min_one_event(void **state)
{
	struct sbuf f = { 0 };
	struct scap_evt e;
	struct scap *h;
	int64_t fd;

	(void)state;
	sb_shb(&f);
	close_e(&f, TS0, 42, 3);
	assert_int_equal(f.len, 80);
	h = open_buf(&f, 0);
	assert_non_null(h);
	assert_int_equal(h->meta.nthreads, 0);
	assert_false(h->meta.has_machine);
	assert_int_equal(scap_next(h, &e), SCAP_SUCCESS);
	assert_int_equal(e.tid, 42);
	assert_int_equal(e.ts, TS0);
	assert_int_equal(e.type, PPME_SYSCALL_CLOSE_E);
	assert_int_equal(e.len, 26 + 2 + 8);
	assert_int_equal(e.nparams, 1);
	assert_int_equal(e.plen[0], 8);
	memcpy(&fd, e.pval[0], 8);
	assert_int_equal(fd, 3);
	assert_int_equal(scap_next(h, &e), SCAP_EOF);
	assert_int_equal(scap_next(h, &e), SCAP_EOF);
	scap_close(h);
	sb_free(&f);
}

/* the `full` file, plus `extra` events at the end */
static void check_full(struct scap *h, int extra)
{
	struct scap_threadinfo *t;
	struct scap_evt e;
	int i, rc;

	assert_true(h->meta.has_machine);
	assert_string_equal(h->meta.machine.hostname, "vmtest");
	assert_int_equal(h->meta.nthreads, 1);
	t = &h->meta.threads[0];
	assert_int_equal(t->tid, 1234);
	assert_string_equal(t->comm, "mytool");
	assert_string_equal(t->exepath, "/usr/bin/mytool");
	assert_int_equal(t->args_len, 14);
	assert_string_equal(t->cwd, "/home/u/");
	assert_int_equal(t->loginuid, 1000);
	assert_int_equal(t->nfds, 1);
	assert_int_equal(t->fds[0].fd, 3);
	assert_int_equal(t->fds[0].type, SCAP_FD_FILE_V2);
	assert_string_equal(t->fds[0].name, "/etc/hosts");
	assert_int_equal(t->fds[0].dev, 0x803);
	for (i = 0; i < 8; i++) {
		assert_int_equal(scap_next(h, &e), SCAP_SUCCESS);
		assert_int_equal(e.ts, TS0 + 1 + i);
		assert_int_equal(e.cpuid, i >= 6 ? 1 : 0);
		assert_int_equal(e.dump_flags, i >= 6 ? SCAP_DF_STATE_ONLY : 0);
		if (i == 3) {
			assert_int_equal(e.type, PPME_SYSCALL_READ_X);
			assert_int_equal(e.nparams, 2);
			assert_int_equal(e.plen[1], 5);
			assert_memory_equal(e.pval[1], "root:", 5);
		}
		if (i == 1) {
			assert_int_equal(e.nparams, 5);
			assert_string_equal((const char *)e.pval[1], "/etc/passwd");
		}
	}
	assert_int_equal(count_events(h, &rc), extra);
	assert_int_equal(rc, SCAP_EOF);
	assert_true(h->ops->progress(h) == 1.0);
}

static void test_full(void **state)
{
	struct sbuf f = { 0 };
	struct scap *h;
	int gz;

	(void)state;
	build_full(&f);
	for (gz = 0; gz < 2; gz++) {
		h = open_buf(&f, gz);
		assert_non_null(h);
		if (!gz)
			assert_true(h->ops->progress(h) < 0.5);
		check_full(h, 0);
		scap_close(h);
	}
	sb_free(&f);
}

static void test_shb_with_option(void **state)
{
	struct sbuf f = { 0 }, b = { 0 };
	struct scap *h;
	int rc;

	(void)state;
	sb_u32(&b, SHB_MAGIC);
	sb_u16(&b, 1);
	sb_u16(&b, 2);
	sb_u64(&b, UINT64_MAX);
	sb_u16(&b, 1);		/* opt_comment */
	sb_u16(&b, 5);
	sb_put(&b, "hello\0\0\0", 8);
	sb_u32(&b, 0);		/* opt_endofopt */
	sb_block(&f, SHB_BLOCK_TYPE, &b);
	assert_int_equal(f.len, 44);
	close_e(&f, TS0, 42, 3);
	assert_int_equal(f.len, 96);
	h = open_buf(&f, 0);
	assert_non_null(h);
	assert_int_equal(count_events(h, &rc), 1);
	assert_int_equal(rc, SCAP_EOF);
	scap_close(h);
	sb_free(&f);
	sb_free(&b);
}

static void test_two_sections(void **state)
{
	struct sbuf f = { 0 };
	struct scap_evt e;
	struct scap *h;
	int rc;

	(void)state;
	build_full(&f);
	sb_shb(&f);
	close_e(&f, TS0 + 100, 42, 9);
	h = open_buf(&f, 0);
	assert_non_null(h);
	assert_int_equal(count_events(h, &rc), 8);
	assert_int_equal(rc, SCAP_NEW_SECTION);
	assert_int_equal(h->meta.nthreads, 0);
	assert_false(h->meta.has_machine);
	assert_int_equal(scap_next(h, &e), SCAP_SUCCESS);
	assert_int_equal(e.tid, 42);
	assert_int_equal(e.ts, TS0 + 100);
	assert_int_equal(scap_next(h, &e), SCAP_EOF);
	scap_close(h);
	sb_free(&f);
}

static void test_misc(void **state)
{
	struct sbuf f = { 0 }, b = { 0 }, ev = { 0 };
	struct scap_evt e;
	struct scap *h;
	int64_t fd3 = 3;
	uint32_t sz = 8;
	const char *json = "{\"container\":{\"id\":\"abcdef012345\",\"type\":0,\"name\":\"web\",\"image\":\"nginx\"}}";
	struct sparam re[2] = { { &fd3, 8 }, { &sz, 4 } };
	struct sparam js[1] = { { json, (uint32_t)strlen(json) + 1 } };
	int rc;

	(void)state;
	sb_shb(&f);
	sb_mi(&f, "vmtest", 1);
	sb_put(&b, "unknown block body", 18);
	sb_block(&f, 0x0BADF00D, &b);
	sb_pl_mytool(&f);
	sb_fdl_hosts(&f, 1234);
	add_ev(&f, EV_BLOCK_TYPE_V2, 0, 0, TS0 + 10, 1234, PPME_SYSCALL_READ_E, 2, re);
	add_ev(&f, EV_BLOCK_TYPE_V2, 0, 0, TS0 + 11, 1234, 1000, 2, re);
	/* v1 close_E: 22-byte header, one u16 length, 8-byte fd */
	sb_u64(&ev, TS0 + 12);
	sb_u64(&ev, 1234);
	sb_u32(&ev, 22 + 2 + 8);
	sb_u16(&ev, PPME_SYSCALL_CLOSE_E);
	sb_u16(&ev, 8);
	sb_u64(&ev, 3);
	sb_evblock(&f, EV_BLOCK_TYPE, 0, 0, &ev);
	ev.len = 0;
	sb_event(&ev, TS0 + 13, 1234, PPME_CONTAINER_JSON_2_E, 1, js, 1);
	sb_evblock(&f, EV_BLOCK_TYPE_V2_LARGE, 0, 0, &ev);
	add_ev(&f, EV_BLOCK_TYPE_V2, 0, 0, TS0 + 14, 1234, PPME_SYSCALL_READ_E, 2, re);

	h = open_buf(&f, 0);
	assert_non_null(h);
	assert_int_equal(h->meta.nthreads, 1);
	assert_int_equal(scap_next(h, &e), SCAP_SUCCESS);
	assert_int_equal(e.ts, TS0 + 10);
	assert_int_equal(scap_next(h, &e), SCAP_SUCCESS);
	assert_int_equal(e.ts, TS0 + 12);	/* type 1000 skipped */
	assert_int_equal(e.type, PPME_SYSCALL_CLOSE_E);
	assert_int_equal(e.len, 22 + 4 + 2 + 8);
	assert_int_equal(e.nparams, 1);
	assert_int_equal(rd32(e.data + 22), 1);
	assert_int_equal(rd64(e.pval[0]), 3);
	assert_int_equal(scap_next(h, &e), SCAP_SUCCESS);
	assert_int_equal(e.type, PPME_CONTAINER_JSON_2_E);
	assert_int_equal(e.nparams, 1);
	assert_int_equal(e.plen[0], strlen(json) + 1);
	assert_string_equal((const char *)e.pval[0], json);
	assert_int_equal(scap_next(h, &e), SCAP_SUCCESS);
	assert_int_equal(e.ts, TS0 + 14);
	assert_int_equal(count_events(h, &rc), 0);
	assert_int_equal(rc, SCAP_EOF);
	scap_close(h);
	sb_free(&f);
	sb_free(&b);
	sb_free(&ev);
}

/* v1 flagged (0x208) and the unofficial v1 id (0x8010ABCD) */
static void test_v1_blocks(void **state)
{
	struct sbuf f = { 0 }, ev = { 0 };
	struct scap_evt e;
	struct scap *h;

	(void)state;
	sb_shb(&f);
	sb_u64(&ev, TS0 + 1);
	sb_u64(&ev, 77);
	sb_u32(&ev, 22 + 2 + 8);
	sb_u16(&ev, PPME_SYSCALL_CLOSE_E);
	sb_u16(&ev, 8);
	sb_u64(&ev, 5);
	sb_evblock(&f, EVF_BLOCK_TYPE, 2, SCAP_DF_STATE_ONLY, &ev);
	sb_evblock(&f, EV_BLOCK_TYPE_INT, 3, 0, &ev);
	h = open_buf(&f, 0);
	assert_non_null(h);
	assert_int_equal(scap_next(h, &e), SCAP_SUCCESS);
	assert_int_equal(e.cpuid, 2);
	assert_int_equal(e.dump_flags, SCAP_DF_STATE_ONLY);
	assert_int_equal(e.tid, 77);
	assert_int_equal(e.nparams, 1);
	assert_int_equal(rd64(e.pval[0]), 5);
	assert_int_equal(scap_next(h, &e), SCAP_SUCCESS);
	assert_int_equal(e.cpuid, 3);
	assert_int_equal(e.dump_flags, 0);
	assert_int_equal(e.len, 36);
	assert_int_equal(scap_next(h, &e), SCAP_EOF);
	scap_close(h);
	sb_free(&f);
	sb_free(&ev);
}

static void test_fdl_before_pl(void **state)
{
	struct sbuf f = { 0 };

	(void)state;
	sb_shb(&f);
	sb_fdl_hosts(&f, 1234);
	sb_pl_mytool(&f);
	close_e(&f, TS0, 1234, 3);
	assert_null(open_buf(&f, 0));
	assert_string_equal(err, "corrupted trace file. FD block references TID 1234, which doesn't exist.");
	sb_free(&f);
}

static void test_exit_only(void **state)
{
	struct sbuf f = { 0 };
	struct scap_evt e;
	struct scap *h;
	int64_t res = 5, fd = 3;
	uint32_t sz = 16;
	struct sparam rx[4] = { { &res, 8 }, { "root:", 5 }, { &fd, 8 }, { &sz, 4 } };

	(void)state;
	sb_shb(&f);
	sb_pl_mytool(&f);
	add_ev(&f, EV_BLOCK_TYPE_V2, 0, 0, TS0 + 41, 1234, PPME_SYSCALL_READ_X, 4, rx);
	h = open_buf(&f, 0);
	assert_non_null(h);
	assert_int_equal(scap_next(h, &e), SCAP_SUCCESS);
	assert_int_equal(rd32(e.data + 22), 4);
	assert_int_equal(e.nparams, 2);
	assert_memory_equal(e.pval[1], "root:", 5);
	assert_int_equal(scap_next(h, &e), SCAP_EOF);
	scap_close(h);
	sb_free(&f);
}

static void test_truncated(void **state)
{
	struct sbuf f = { 0 };
	struct scap *h;
	size_t full;
	int rc, gz;

	(void)state;
	build_full(&f);
	full = f.len;
	for (gz = 0; gz < 2; gz++) {
		/* final event block cut: 7 events, then an error */
		f.len = full - 10;
		h = open_buf(&f, gz);
		assert_non_null(h);
		assert_int_equal(count_events(h, &rc), 7);
		assert_int_equal(rc, SCAP_FAILURE);
		assert_non_null(strstr(h->err, "Is the file truncated?"));
		assert_int_equal(count_events(h, &rc), 0);
		assert_int_equal(rc, SCAP_FAILURE);
		scap_close(h);
		/* block header cut */
		f.len = full + 3;
		memset(f.p + full, 0x16, 3);
		h = open_buf(&f, gz);
		assert_non_null(h);
		assert_int_equal(count_events(h, &rc), 8);
		assert_int_equal(rc, SCAP_FAILURE);
		assert_non_null(strstr(h->err, "truncated"));
		scap_close(h);
	}
	/* cut inside the process list */
	f.len = 28 + 192 + 30;
	assert_null(open_buf(&f, 0));
	assert_non_null(strstr(err, "Is the file truncated?"));
	f.len = full;
	sb_free(&f);
}

static void test_corrupt(void **state)
{
	struct sbuf f = { 0 };
	struct scap *h;
	int rc;

	(void)state;
	build_full(&f);
	f.p[8] ^= 0xff;
	assert_null(open_buf(&f, 0));
	assert_string_equal(err, "invalid magic number");
	f.p[8] ^= 0xff;
	f.p[12] = 2;		/* major 2 */
	assert_null(open_buf(&f, 0));
	assert_non_null(strstr(err, "Upgrade"));
	f.p[12] = 1;
	/* trailer of the MI block */
	f.p[28 + 188] ^= 1;
	assert_null(open_buf(&f, 0));
	assert_non_null(strstr(err, "wrong block total length, header=192, trailer=193"));
	f.p[28 + 188] ^= 1;
	/* not a scap file */
	f.len = 0;
	sb_put(&f, "hello world, this is text\n", 26);
	assert_null(open_buf(&f, 0));
	assert_non_null(strstr(err, "invalid block type"));
	f.len = 0;
	assert_null(open_buf(&f, 0));
	assert_string_equal(err, "empty file");
	assert_null(scap_open_file("/nonexistent/x.scap", err));
	assert_non_null(strstr(err, "can't open"));
	/* event length field larger than its block */
	f.len = 0;
	sb_shb(&f);
	close_e(&f, TS0, 42, 3);
	f.p[28 + 10 + 16] = 200;
	h = open_buf(&f, 0);
	assert_non_null(h);
	assert_int_equal(count_events(h, &rc), 0);
	assert_int_equal(rc, SCAP_FAILURE);
	assert_non_null(strstr(h->err, "corrupted event"));
	scap_close(h);
	/* a non-event, non-SHB block after the events */
	f.p[28 + 10 + 16] = 36;
	sb_mi(&f, "x", 1);
	h = open_buf(&f, 0);
	assert_non_null(h);
	assert_int_equal(count_events(h, &rc), 1);
	assert_int_equal(rc, SCAP_FAILURE);
	assert_non_null(strstr(h->err, "invalid block type 0x201"));
	scap_close(h);
	sb_free(&f);
}

static void test_large_blocks(void **state)
{
	struct sbuf f = { 0 };
	struct scap_evt e;
	struct scap *h;
	size_t n = 100000;
	char *big = malloc(n);
	struct sparam js[1] = { { big, (uint32_t)n } };
	struct sparam bx[2];
	int64_t res = 0;
	int rc;

	(void)state;
	memset(big, 'j', n - 1);
	big[n - 1] = 0;
	sb_shb(&f);
	add_ev(&f, EV_BLOCK_TYPE_V2_LARGE, 0, 0, TS0, 1, PPME_CONTAINER_JSON_2_E, 1, js);
	h = open_buf(&f, 1);
	assert_non_null(h);
	assert_int_equal(scap_next(h, &e), SCAP_SUCCESS);
	assert_int_equal(e.plen[0], n);
	assert_int_equal(scap_next(h, &e), SCAP_EOF);
	scap_close(h);
	/* a > 64 KiB event in a non-large block is rejected */
	f.len = 0;
	sb_shb(&f);
	bx[0].p = &res;
	bx[0].len = 8;
	bx[1].p = big;
	bx[1].len = 65530;
	add_ev(&f, EV_BLOCK_TYPE_V2, 0, 0, TS0, 1, PPME_SYSCALL_READ_X, 2, bx);
	h = open_buf(&f, 0);
	assert_non_null(h);
	assert_int_equal(count_events(h, &rc), 0);
	assert_int_equal(rc, SCAP_FAILURE);
	assert_non_null(strstr(h->err, "too large"));
	scap_close(h);
	free(big);
	sb_free(&f);
}

/* writer: flags, large blocks, padding; and read back */
static void test_writer_blocks(void **state)
{
	struct sbuf f = { 0 }, out = { 0 };
	struct scap_evt e;
	struct scap *h;
	struct scap_dumper *d;
	char wpath[300];
	int rc, i;

	(void)state;
	build_full(&f);
	h = open_buf(&f, 0);
	assert_non_null(h);
	snprintf(wpath, sizeof(wpath), "%s.w", path);
	d = scap_dump_open(wpath, 0, err);
	assert_non_null(d);
	assert_int_equal(scap_dump_metadata(d, &h->meta), 0);
	while ((rc = scap_next(h, &e)) == SCAP_SUCCESS)
		assert_int_equal(scap_dump_event(d, &e, e.cpuid, e.dump_flags), 0);
	assert_int_equal(rc, SCAP_EOF);
	/* forced large with the flag, and a tracer-flagged large one */
	assert_int_equal(scap_dump_event(d, &e, 3, SCAP_DF_LARGE), 0);
	assert_int_equal(scap_dump_event(d, &e, 3, SCAP_DF_LARGE | SCAP_DF_TRACER), 0);
	assert_int_equal(scap_dump_close(d, err), 0);
	scap_close(h);
	/* our hand-made file used the same layout: identical prefix */
	assert_int_equal(sb_read_file(wpath, &out), 0);
	assert_true(out.len > f.len);
	assert_memory_equal(out.p, f.p, f.len);
	assert_int_equal(rd32(out.p + f.len), EV_BLOCK_TYPE_V2_LARGE);
	h = scap_open_file(wpath, err);
	assert_non_null(h);
	check_full(h, 2);
	scap_close(h);
	h = scap_open_file(wpath, err);
	for (i = 0; i < 8; i++)
		assert_int_equal(scap_next(h, &e), SCAP_SUCCESS);
	assert_int_equal(scap_next(h, &e), SCAP_SUCCESS);
	assert_int_equal(e.cpuid, 3);
	assert_int_equal(e.dump_flags, 0);
	assert_int_equal(scap_next(h, &e), SCAP_SUCCESS);
	assert_int_equal(e.dump_flags, SCAP_DF_TRACER);
	assert_int_equal(scap_next(h, &e), SCAP_EOF);
	scap_close(h);
	unlink(wpath);
	sb_free(&f);
	sb_free(&out);
}

/* metadata built by a live engine may leave strings NULL */
static void test_writer_null_strings(void **state)
{
	struct scap_metadata m = { 0 };
	struct scap_threadinfo *t = scap_metadata_add_thread(&m);
	struct scap_fdinfo *fd;
	struct scap_dumper *d;
	struct scap *h;
	struct sbuf f = { 0 };
	char wpath[300];

	(void)state;
	t->tid = t->pid = 99;
	fd = scap_thread_add_fd(t);
	fd->fd = 1;
	fd->type = SCAP_FD_FILE_V2;
	snprintf(wpath, sizeof(wpath), "%s.n", path);
	d = scap_dump_open(wpath, 0, err);
	assert_non_null(d);
	assert_int_equal(scap_dump_metadata(d, &m), 0);
	sb_shb(&f);
	close_e(&f, TS0, 99, 1);
	{
		struct scap_evt e = { 0 };

		e.data = f.p + 28 + 10;
		e.len = 36;
		assert_int_equal(scap_dump_event(d, &e, 0, 0), 0);
	}
	assert_int_equal(scap_dump_close(d, err), 0);
	h = scap_open_file(wpath, err);
	assert_non_null(h);
	assert_int_equal(h->meta.nthreads, 1);
	assert_string_equal(h->meta.threads[0].comm, "");
	assert_int_equal(h->meta.threads[0].args_len, 0);
	assert_int_equal(h->meta.threads[0].nfds, 1);
	assert_string_equal(h->meta.threads[0].fds[0].name, "");
	scap_close(h);
	scap_metadata_free(&m);
	unlink(wpath);
	sb_free(&f);
}

static void test_writer_disk_full(void **state)
{
	struct sbuf f = { 0 };
	struct scap_evt e;
	struct scap *h;
	int gz, i;

	(void)state;
	if (access("/dev/full", W_OK)) {
		skip();
	}
	build_full(&f);
	for (gz = 0; gz < 2; gz++) {
		struct scap_dumper *d;

		h = open_buf(&f, 0);
		assert_non_null(h);
		d = scap_dump_open("/dev/full", gz, err);
		assert_non_null(d);
		scap_dump_metadata(d, &h->meta);
		assert_int_equal(scap_next(h, &e), SCAP_SUCCESS);
		/* enough to overflow the writer's buffers */
		for (i = 0; i < 200000; i++)
			if (scap_dump_event(d, &e, 0, 0))
				break;
		err[0] = 0;
		assert_int_equal(scap_dump_close(d, err), -1);
		assert_non_null(strstr(err, "No space left on device"));
		scap_close(h);
	}
	assert_null(scap_dump_open("/nonexistent/dir/x.scap", 0, err));
	assert_non_null(strstr(err, "can't open"));
	sb_free(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_only_shb),
		cmocka_unit_test(test_min_one_event),
		cmocka_unit_test(test_full),
		cmocka_unit_test(test_shb_with_option),
		cmocka_unit_test(test_two_sections),
		cmocka_unit_test(test_misc),
		cmocka_unit_test(test_v1_blocks),
		cmocka_unit_test(test_fdl_before_pl),
		cmocka_unit_test(test_exit_only),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_corrupt),
		cmocka_unit_test(test_large_blocks),
		cmocka_unit_test(test_writer_blocks),
		cmocka_unit_test(test_writer_null_strings),
		cmocka_unit_test(test_writer_disk_full),
	};
	int rc;

	snprintf(path, sizeof(path), "/tmp/test_scap_files.%d.scap", (int)getpid());
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	unlink(path);
	return rc;
}
