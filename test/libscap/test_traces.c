/*
 * test_traces.c - the reader and writer on the real traces of test/traces:
 * event and metadata counts per trace (traces/README.md), parameter
 * decoding of every event, round trips read -> write -> read (same events
 * and metadata; plain and gzip) and byte identity for ref029_net_small
 * (what sysdig 0.29.3 does, scap_format.md 13.3).
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

struct trace {
	const char *name;
	int events, threads, fds, ipv4, ipv6, users, groups;
};

/* counts from traces/README.md and scap_format.md 13.1 */
static const struct trace traces[] = {
	{ "cat_write", 345, 73, 384, 3, 2, 32, 61 },
	{ "connect_localhost", 374, 184, 690, -1, -1, -1, -1 },
	{ "empty", 143, 218, 883, 11, 0, 45, 77 },
	{ "open-multiple-files", 1272, 128, 685, 3, 5, -1, -1 },
	{ "ping_sendto", 1526, 136, 674, -1, -1, -1, -1 },
	{ "syscall", 368, 229, 773, -1, -1, -1, -1 },
	{ "ref029_light", 62183, 3, 17, 0, 0, 2, 2 },
	{ "ref029_net_small", 20235, 4, 20, 1, 1, 2, 2 },
};

static char tmp[256];
static char err[SCAP_ERRBUF_SIZE];

static void trace_path(char *out, size_t n, const char *name)
{
	snprintf(out, n, "%s/%s.scap", TRACES_DIR, name);
}

static void test_counts(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(traces) / sizeof(traces[0]); i++) {
		const struct trace *t = &traces[i];
		char p[512];
		struct scap *h;
		struct scap_evt e;
		uint32_t k, nfds = 0;
		int n = 0, rc;

		trace_path(p, sizeof(p), t->name);
		h = scap_open_file(p, err);
		if (!h)
			fail_msg("%s: %s", t->name, err);
		assert_int_equal(h->meta.nthreads, t->threads);
		for (k = 0; k < h->meta.nthreads; k++)
			nfds += h->meta.threads[k].nfds;
		assert_int_equal(nfds, t->fds);
		if (t->ipv4 >= 0) {
			assert_int_equal(h->meta.nipv4, t->ipv4);
			assert_int_equal(h->meta.nipv6, t->ipv6);
		}
		if (t->users >= 0) {
			assert_int_equal(h->meta.nusers, t->users);
			assert_int_equal(h->meta.ngroups, t->groups);
		}
		assert_true(h->meta.has_machine);
		while ((rc = scap_next(h, &e)) == SCAP_SUCCESS) {
			assert_true(e.nparams <= PPM_MAX_EVENT_PARAMS);
			assert_int_equal(rd32(e.data + 16), e.len);
			/* the 0.29.3 captures match the table exactly */
			if (!strncmp(t->name, "ref029", 6))
				assert_int_equal(e.nparams, g_event_info[e.type].nparams);
			n++;
		}
		if (rc != SCAP_EOF)
			fail_msg("%s: rc %d: %s", t->name, rc, h->err);
		assert_int_equal(n, t->events);
		assert_true(h->ops->progress(h) == 1.0);
		scap_close(h);
	}
}

static int str_eq(const char *a, const char *b)
{
	return !strcmp(a ? a : "", b ? b : "");
}

static void check_fd_equal(const struct scap_fdinfo *a, const struct scap_fdinfo *b)
{
	assert_int_equal(a->fd, b->fd);
	assert_int_equal(a->ino, b->ino);
	assert_int_equal(a->type, b->type);
	assert_true(str_eq(a->name, b->name));
	assert_memory_equal(&a->info, &b->info, sizeof(a->info));
	assert_int_equal(a->open_flags, b->open_flags);
	assert_int_equal(a->dev, b->dev);
	/* the writer always stores dev for FILE_V2 (scap_format.md 8) */
	if (a->type == SCAP_FD_FILE_V2)
		assert_true(b->has_dev);
}

static void check_meta_equal(const struct scap_metadata *a, const struct scap_metadata *b)
{
	uint32_t i, j;

	assert_int_equal(a->has_machine, b->has_machine);
	assert_memory_equal(&a->machine, &b->machine, sizeof(a->machine));
	assert_int_equal(a->nthreads, b->nthreads);
	for (i = 0; i < a->nthreads; i++) {
		const struct scap_threadinfo *x = &a->threads[i], *y = &b->threads[i];

		assert_int_equal(x->tid, y->tid);
		assert_int_equal(x->pid, y->pid);
		assert_int_equal(x->ptid, y->ptid);
		assert_int_equal(x->sid, y->sid);
		assert_int_equal(x->vpgid, y->vpgid);
		assert_true(str_eq(x->comm, y->comm));
		assert_true(str_eq(x->exe, y->exe));
		assert_true(str_eq(x->exepath, y->exepath));
		assert_true(str_eq(x->cwd, y->cwd));
		assert_true(str_eq(x->root, y->root));
		assert_int_equal(x->args_len, y->args_len);
		assert_memory_equal(x->args, y->args, x->args_len);
		assert_int_equal(x->env_len, y->env_len);
		assert_memory_equal(x->env, y->env, x->env_len);
		assert_int_equal(x->cgroups_len, y->cgroups_len);
		assert_memory_equal(x->cgroups, y->cgroups, x->cgroups_len);
		assert_int_equal(x->fdlimit, y->fdlimit);
		assert_int_equal(x->flags, y->flags);
		assert_int_equal(x->uid, y->uid);
		assert_int_equal(x->gid, y->gid);
		assert_int_equal(x->vmsize_kb, y->vmsize_kb);
		assert_int_equal(x->pfminor, y->pfminor);
		assert_int_equal(x->vtid, y->vtid);
		assert_int_equal(x->vpid, y->vpid);
		assert_int_equal(x->loginuid, y->loginuid);
		assert_int_equal(x->exe_writable, y->exe_writable);
		assert_int_equal(x->nfds, y->nfds);
		for (j = 0; j < x->nfds; j++)
			check_fd_equal(&x->fds[j], &y->fds[j]);
	}
	assert_int_equal(a->has_iflist, b->has_iflist);
	assert_int_equal(a->nipv4, b->nipv4);
	for (i = 0; i < a->nipv4; i++) {
		assert_int_equal(a->ipv4[i].addr, b->ipv4[i].addr);
		assert_int_equal(a->ipv4[i].netmask, b->ipv4[i].netmask);
		assert_int_equal(a->ipv4[i].bcast, b->ipv4[i].bcast);
		assert_int_equal(a->ipv4[i].linkspeed, b->ipv4[i].linkspeed);
		assert_string_equal(a->ipv4[i].ifname, b->ipv4[i].ifname);
	}
	assert_int_equal(a->nipv6, b->nipv6);
	for (i = 0; i < a->nipv6; i++) {
		assert_memory_equal(a->ipv6[i].addr, b->ipv6[i].addr, 16);
		assert_int_equal(a->ipv6[i].linkspeed, b->ipv6[i].linkspeed);
		assert_string_equal(a->ipv6[i].ifname, b->ipv6[i].ifname);
	}
	assert_int_equal(a->has_userlist, b->has_userlist);
	assert_int_equal(a->nusers, b->nusers);
	assert_int_equal(a->ngroups, b->ngroups);
	if (a->nusers)
		assert_memory_equal(a->users, b->users, a->nusers * sizeof(*a->users));
	if (a->ngroups)
		assert_memory_equal(a->groups, b->groups, a->ngroups * sizeof(*a->groups));
}

/* write path from the trace (all metadata, every event) */
static void rewrite(const char *in, const char *out, int gz)
{
	struct scap *h = scap_open_file(in, err);
	struct scap_dumper *d;
	struct scap_evt e;
	int rc;

	assert_non_null(h);
	d = scap_dump_open(out, gz, err);
	assert_non_null(d);
	assert_int_equal(scap_dump_metadata(d, &h->meta), 0);
	while ((rc = scap_next(h, &e)) == SCAP_SUCCESS)
		assert_int_equal(scap_dump_event(d, &e, e.cpuid, e.dump_flags), 0);
	assert_int_equal(rc, SCAP_EOF);
	if (scap_dump_close(d, err))
		fail_msg("dump_close: %s", err);
	scap_close(h);
}

/* both files give the same metadata and the same events */
static void compare_files(const char *p1, const char *p2)
{
	struct scap *a = scap_open_file(p1, err), *b;
	struct scap_evt x, y;
	int ra, rb, n = 0;

	assert_non_null(a);
	b = scap_open_file(p2, err);
	if (!b)
		fail_msg("%s: %s", p2, err);
	check_meta_equal(&a->meta, &b->meta);
	for (;;) {
		ra = scap_next(a, &x);
		rb = scap_next(b, &y);
		assert_int_equal(ra, rb);
		if (ra != SCAP_SUCCESS)
			break;
		assert_int_equal(x.len, y.len);
		assert_memory_equal(x.data, y.data, x.len);
		assert_int_equal(x.cpuid, y.cpuid);
		assert_int_equal(x.dump_flags, y.dump_flags);
		assert_int_equal(x.nparams, y.nparams);
		n++;
	}
	assert_int_equal(ra, SCAP_EOF);
	assert_true(n > 0);
	scap_close(a);
	scap_close(b);
}

static void test_round_trip(void **state)
{
	size_t i;
	int gz;

	(void)state;
	for (i = 0; i < sizeof(traces) / sizeof(traces[0]); i++) {
		char p[512];

		trace_path(p, sizeof(p), traces[i].name);
		for (gz = 0; gz < 2; gz++) {
			struct sbuf out = { 0 };

			rewrite(p, tmp, gz);
			assert_int_equal(sb_read_file(tmp, &out), 0);
			assert_int_equal(rd32(out.p), SHB_BLOCK_TYPE);
			sb_free(&out);
			compare_files(p, tmp);
		}
	}
}

static int file_bytes(const char *p, struct sbuf *out, int raw)
{
	FILE *f;
	uint8_t buf[65536];
	size_t r;

	if (!raw)
		return sb_read_file(p, out);
	f = fopen(p, "rb");
	if (!f)
		return -1;
	while ((r = fread(buf, 1, sizeof(buf), f)) > 0)
		sb_put(out, buf, r);
	fclose(f);
	return 0;
}

static void test_byte_identical(void **state)
{
	struct sbuf a = { 0 }, b = { 0 };
	char p[512];

	(void)state;
	trace_path(p, sizeof(p), "ref029_net_small");
	rewrite(p, tmp, 0);
	assert_int_equal(file_bytes(p, &a, 1), 0);
	assert_int_equal(file_bytes(tmp, &b, 1), 0);
	assert_int_equal(a.len, 1442872);
	assert_int_equal(b.len, a.len);
	assert_memory_equal(a.p, b.p, a.len);
	/* gzip: the decompressed stream is the same byte sequence */
	rewrite(p, tmp, 1);
	b.len = 0;
	assert_int_equal(file_bytes(tmp, &b, 1), 0);
	assert_true(b.len < a.len / 2);
	assert_int_equal(b.p[0], 0x1f);
	assert_int_equal(b.p[1], 0x8b);
	b.len = 0;
	assert_int_equal(file_bytes(tmp, &b, 0), 0);
	assert_int_equal(b.len, a.len);
	assert_memory_equal(a.p, b.p, a.len);
	sb_free(&a);
	sb_free(&b);
}

/* ping_sendto re-written: PL tails 4 -> 5 bytes, FILE_V2 gains dev
 * (scap_format.md 13.3: 261004 -> 262112 bytes, as sysdig 0.29.3) */
static void test_ping_sendto_size(void **state)
{
	struct sbuf b = { 0 };
	char p[512];

	(void)state;
	trace_path(p, sizeof(p), "ping_sendto");
	rewrite(p, tmp, 0);
	assert_int_equal(file_bytes(tmp, &b, 1), 0);
	assert_int_equal(b.len, 262112);
	sb_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counts),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_byte_identical),
		cmocka_unit_test(test_ping_sendto_size),
	};
	int rc;

	snprintf(tmp, sizeof(tmp), "/tmp/test_scap_traces.%d.scap", (int)getpid());
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	unlink(tmp);
	return rc;
}
