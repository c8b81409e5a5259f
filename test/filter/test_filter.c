/*
 * test_filter.c - cmocka unit tests of the filter compiler (filter.c):
 * accepted grammar, exact error messages of bad filters, precedence of the
 * and/or extension, the compiled tree (one field slot per distinct field)
 * and event-type pre-selection; then filter_run over traces/cat_write.scap
 * for counts documented in docs/filters.md (examples).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>
#include "filter_internal.h"
#include "event_table.h"

static char err[512];

static struct filter *compile_ok(const char *expr)
{
	struct filter *f;

	err[0] = 0;
	f = filter_compile(expr, err, sizeof(err));
	if (!f)
		fail_msg("'%s' should compile, got: %s", expr, err);
	return f;
}

static void expect_error(const char *expr, const char *msg)
{
	struct filter *f;

	err[0] = 0;
	f = filter_compile(expr, err, sizeof(err));
	if (f) {
		filter_free(f);
		fail_msg("'%s' should not compile", expr);
	}
	assert_string_equal(err, msg);
}

static void test_accepts(void **state)
{
	static const char *const ok[] = {
		"evt.type=open",
		"evt.num>=200",
		"(evt.type=open)and(fd.num=3)",
		"proc.name=cat andevt.type=open",
		"evt.type in ('open', 'close')",
		"fd.name pmatch (/etc, /lib)",
		"fd.name glob \"/lib/*/libc.so.?\"",
		"fd.name contains \"ld\\x2eso\"",
		"(fd.name exists) and evt.type=read",
		"not not proc.name=cat",
		"evt.num=1 not evt.num=2",
		"fd.sport=http",
		"fd.cnet=127.0.0.0/8",
		"fd.sip=::1",
		"evt.is_io=true and evt.failed=false",
		"evt.buffer contains GET",
		"evt.rawarg.res<0",
		"proc.aname=bash",
		"proc.aname[1]=bash",
		"evt.around[1000]=5",
		"evt.type\t=\tread",
		"proc.name=\"a b (c)\"",
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
		filter_free(compile_ok(ok[i]));
}

static void test_errors(void **state)
{
	(void)state;
	expect_error("foo.bar=1", "filter error at position 7: filter error: unrecognized field foo.bar at pos 0");
	expect_error("evt.type=open and", "filter error at position 17: filter error: unexpected end of filter");
	expect_error("evt.num=abc", "filter error at position 11: abc is not a valid number");
	expect_error("evt.type==open", "filter error at position 14: unknown event type =open");
	expect_error("evt.type startswith sen", "filter error at position 23: unknown event type sen");
	expect_error("evt.type intersects (open)",
		     "filter error at position 11: expected '(' after 'in/intersects/pmatch' operand");
	expect_error("evt.buffer bcontains 41",
		     "filter error at position 11: filter error: unrecognized comparison operator after evt.buffer ");
	expect_error("evt.is_io=1", "filter error at position 11: filter error: unrecognized boolean value 1");
	expect_error("evt.type in (open close)",
		     "filter error at position 18: expected either ')' or ',' after a value inside the 'in/pmatch' clause");
	expect_error("evt.num in (1", "filter error at position 14: expected either ')' or ',' after a value inside the 'in' clause");
	expect_error("fd.sport=nosuchservice", "filter error at position 22: unrecognized protocol nosuchservice");
	expect_error("proc.pid=0x4e68", "filter error at position 15: 0x4e68 is not a valid number");
	expect_error("thread.tid!=proc.pid", "filter error at position 20: proc.pid is not a valid number");
	expect_error("proc.pid contains 1", "'contains' not supported for numeric filters");
	expect_error("evt.buffer glob a", "'glob' not supported for buffer filters");
	expect_error("fd.cnet=127.0.0.0/33", "filter error at position 20: invalid netmask 33");
	expect_error("fd.sip=1.2.3", "filter error at position 12: unrecognized IPv4 address 1.2.3");
	expect_error("proc.pid pmatch (1)", "filter error at position 17: pmatch requires all charbuf arguments");
	expect_error("thread.cpu=1.5", "filter error at position 14: wrong parameter type 33");
	expect_error("()", "filter error at position 2: filter error: unexpected end of filter");
	expect_error("evt.num=1)", "filter error at position 10: filter error: unexpected end of filter");
	expect_error("(evt.num=1", "filter error at position 11: filter error: unexpected end of filter");
	expect_error("proc.name=\"cat", "filter error at position 14: filter error: unclosed quotes");
	expect_error("proc.name=a\\xzz", "filter error at position 14: filter error: unrecognized escape sequence at a\\xzz");
	expect_error("evt.num=1 xor evt.num=2", "filter error at position 10: syntax error in filter");
	expect_error("evt.type=open close", "filter error at position 14: syntax error in filter");
	expect_error("", "filter error at position 0: filter error: unexpected end of filter");
}

/* and binds tighter than or; "not" applies to the next term only */
static void test_precedence(void **state)
{
	struct filter *f;
	const struct fnode *root;

	(void)state;
	f = compile_ok("evt.num=1 or evt.num=2 and evt.num=3");
	root = &f->nodes[f->root];
	assert_int_equal(root->kind, N_OR);
	assert_int_equal(root->nkids, 2);
	assert_int_equal(f->nodes[root->kids[0]].kind, N_CHECK);
	assert_int_equal(f->nodes[root->kids[1]].kind, N_AND);
	filter_free(f);

	f = compile_ok("not evt.num=1 and evt.num=2 or not (evt.num=3 or evt.num=4)");
	root = &f->nodes[f->root];
	assert_int_equal(root->kind, N_OR);
	assert_int_equal(f->nodes[root->kids[0]].kind, N_AND);
	assert_int_equal(f->nodes[f->nodes[root->kids[0]].kids[0]].neg, 1);
	assert_int_equal(f->nodes[f->nodes[root->kids[0]].kids[1]].neg, 0);
	assert_int_equal(f->nodes[root->kids[1]].kind, N_OR);
	assert_int_equal(f->nodes[root->kids[1]].neg, 1);
	filter_free(f);
}

/* a field used several times has one slot: extracted once per event */
static void test_slots(void **state)
{
	struct filter *f;

	(void)state;
	f = compile_ok("fd.name contains a or fd.name contains b or (evt.type=read and fd.name exists)");
	assert_int_equal(f->nslots, 2);
	filter_free(f);
	f = compile_ok("fd.num in (1,2,3,4,5)");
	assert_int_equal(f->nslots, 1);
	assert_int_equal(f->nodes[f->root].nvals, 5);
	filter_free(f);
}

static void test_preselect(void **state)
{
	struct filter *f;

	(void)state;
	f = compile_ok("evt.type=open and fd.name contains etc");
	assert_true(filter_may_match_type(f, PPME_SYSCALL_OPEN_E));
	assert_true(filter_may_match_type(f, PPME_SYSCALL_OPEN_X));
	assert_false(filter_may_match_type(f, PPME_SYSCALL_READ_X));
	assert_true(filter_may_match_type(f, PPME_GENERIC_X));	/* name from a parameter */
	filter_free(f);

	f = compile_ok("not evt.type in (read, write)");
	assert_false(filter_may_match_type(f, PPME_SYSCALL_READ_E));
	assert_true(filter_may_match_type(f, PPME_SYSCALL_OPEN_E));
	filter_free(f);

	f = compile_ok("evt.type startswith open or proc.name=cat");
	assert_true(filter_may_match_type(f, PPME_SYSCALL_READ_E));
	filter_free(f);

	f = compile_ok("(evt.type=read or evt.type=write) and not evt.type=write");
	assert_true(filter_may_match_type(f, PPME_SYSCALL_READ_X));
	assert_false(filter_may_match_type(f, PPME_SYSCALL_WRITE_X));
	assert_false(filter_may_match_type(f, PPME_SYSCALL_OPEN_X));
	filter_free(f);
}

/* none of the filters gives the driver names or container ids */
static void expect_not_pushed(const char *const *filters, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct filter_pushdown pd;
		struct filter *f = compile_ok(filters[i]);

		filter_pushdown(f, &pd);
		if (pd.ncomms || pd.ncids)
			fail_msg("%s: %u names, %u container ids pushed", filters[i], pd.ncomms,
				 pd.ncids);
		filter_free(f);
	}
}

/* what the driver may select on: from the top-level conjunction only */
static void test_pushdown(void **state)
{
	struct filter_pushdown pd;
	struct filter *f;

	(void)state;
	f = compile_ok("proc.name=cat and (proc.pid in (12, 13) and thread.tid=14) and proc.apid=9");
	filter_pushdown(f, &pd);
	assert_int_equal(pd.ncomms, 1);
	assert_string_equal(pd.comms[0], "cat");
	assert_int_equal(pd.npids, 2);
	assert_int_equal(pd.pids[0], 12);
	assert_int_equal(pd.pids[1], 13);
	assert_int_equal(pd.ntids, 1);
	assert_int_equal(pd.tids[0], 14);
	assert_int_equal(pd.nroots, 1);
	assert_int_equal(pd.roots[0], 9);
	filter_free(f);

	f = compile_ok("proc.pid=5 or proc.name=cat");
	filter_pushdown(f, &pd);
	assert_int_equal(pd.ncomms, 0);
	assert_int_equal(pd.npids, 0);
	filter_free(f);

	f = compile_ok("not proc.pid=5 and not (proc.name=cat) and proc.pid!=6 and proc.ppid=7 and evt.type=open");
	filter_pushdown(f, &pd);
	assert_int_equal(pd.ncomms, 0);
	assert_int_equal(pd.npids, 0);
	assert_int_equal(pd.nroots, 1);
	assert_int_equal(pd.roots[0], 7);
	filter_free(f);

	/* names the kernel cannot have, pids that are none, lists */
	f = compile_ok("proc.name=abcdefghijklmnop and proc.pid=0 and thread.tid>3");
	filter_pushdown(f, &pd);
	assert_int_equal(pd.ncomms, 0);
	assert_int_equal(pd.npids + pd.ntids, 0);
	filter_free(f);

	f = compile_ok("proc.name in (sh) and proc.apid[2]=4");
	filter_pushdown(f, &pd);
	assert_int_equal(pd.ncomms, 1);
	assert_string_equal(pd.comms[0], "sh");
	assert_int_equal(pd.nroots, 0);
	filter_free(f);

	/* several names: a list, an "or" of comm checks only (nested, lists
	 * inside, repeats once) */
	f = compile_ok("proc.name in (a, bb, ccc) and evt.type=open");
	filter_pushdown(f, &pd);
	assert_int_equal(pd.ncomms, 3);
	assert_string_equal(pd.comms[0], "a");
	assert_string_equal(pd.comms[2], "ccc");
	filter_free(f);
	f = compile_ok("(proc.name=a or (proc.name in (b, a) or proc.name=c)) and proc.pid=3");
	filter_pushdown(f, &pd);
	assert_int_equal(pd.ncomms, 3);
	assert_string_equal(pd.comms[1], "b");
	assert_string_equal(pd.comms[2], "c");
	assert_int_equal(pd.npids, 1);
	filter_free(f);
	/* not pushed: a name no task has, another check in the "or", a
	 * negation, != */
	const char *const whole[] = {
		"proc.name in (a, abcdefghijklmnop)", "proc.name in (a, '')",
		"proc.name=a or proc.pid=4", "proc.name=a or not proc.name=b",
		"not (proc.name=a or proc.name=b)", "proc.name!=a", "proc.name=a or proc.name!=b",
		"proc.name contains a or proc.name=b",
	};
	expect_not_pushed(whole, sizeof(whole) / sizeof(whole[0]));
	/* container ids: 12 hex digits, all of them */
	f = compile_ok("container.id in (0123456789ab, ABCDEF012345) and evt.type=open");
	filter_pushdown(f, &pd);
	assert_int_equal(pd.ncids, 2);
	assert_string_equal(pd.cids[0], "0123456789ab");
	assert_string_equal(pd.cids[1], "ABCDEF012345");
	filter_free(f);
	const char *const not_cids[] = {
		"container.id=host", "container.id in (0123456789ab, host)", "container.id=mylxc",
		"container.id=0123456789abc", "container.id=0123456789ag", "container.id!=0123456789ab",
		"container.id=0123456789ab or proc.pid=1", "not container.id=0123456789ab",
		"container.id contains 0123456789ab",
	};
	expect_not_pushed(not_cids, sizeof(not_cids) / sizeof(not_cids[0]));
	/* the first comm term of the conjunction that can go down */
	f = compile_ok("proc.name=abcdefghijklmnop and proc.name in (a, b) and proc.name=c");
	filter_pushdown(f, &pd);
	assert_int_equal(pd.ncomms, 2);
	filter_free(f);
}

/* count matching visible events of a trace */
static int count_matches(const char *trace, const char *expr)
{
	char path[1024], e2[SCAP_ERRBUF_SIZE];
	struct scap *h;
	struct sinsp *s;
	struct sinsp_evt ev;
	struct filter *f = compile_ok(expr);
	int n = 0;

	snprintf(path, sizeof(path), "%s/traces/%s", TEST_DATA, trace);
	h = scap_open_file(path, e2);
	assert_non_null(h);
	s = sinsp_open(h, e2);
	assert_non_null(s);
	while (sinsp_next(s, &ev) == SCAP_SUCCESS) {
		int r;
		/* what the command line shows (capture.c is_hidden) */
		if (ev.filtered_out || (ev.scap.dump_flags & SCAP_DF_STATE_ONLY) ||
		    (ev.info && (ev.info->category & EC_INTERNAL)))
			continue;
		r = filter_run(f, s, &ev);
		if (r)
			assert_true(filter_may_match_type(f, ev.scap.type));
		n += r;
	}
	sinsp_close(s);
	filter_free(f);
	return n;
}

static void test_run_cat_write(void **state)
{
	(void)state;
	assert_int_equal(count_matches("cat_write.scap", "evt.type in (open,close)"), 20);
	assert_int_equal(count_matches("cat_write.scap", "fd.name pmatch (/etc, /lib)"), 12);
	assert_int_equal(count_matches("cat_write.scap", "fd.name glob \"/lib/*/libc.so.?\""), 7);
	assert_int_equal(count_matches("cat_write.scap", "fd.name icontains LD.SO"), 5);
	assert_int_equal(count_matches("cat_write.scap", "evt.rawarg.fd=3"), 18);
	assert_int_equal(count_matches("cat_write.scap", "evt.arg.fd=3"), 0);
	assert_int_equal(count_matches("cat_write.scap", "evt.failed=true"), 3);
	assert_int_equal(count_matches("cat_write.scap", "not (evt.type=open or evt.type=close)"), 65);
	assert_int_equal(count_matches("cat_write.scap", "fd.name != /dev/null"), 20);
	assert_int_equal(count_matches("cat_write.scap", "not fd.name = /dev/null"), 78);
	assert_int_equal(count_matches("cat_write.scap", "proc.aname=bash"), 85);
	assert_int_equal(count_matches("cat_write.scap", "not not proc.name=cat"), 0);
	/* pmatch by path components, leading and doubled '/' ignored; an
	 * empty pattern matches every value (counts of sysdig 0.29.3) */
	assert_int_equal(count_matches("cat_write.scap", "fd.name pmatch ()"), 27);
	assert_int_equal(count_matches("cat_write.scap", "proc.name pmatch (\"\")"), 85);
	assert_int_equal(count_matches("cat_write.scap", "fd.name pmatch (etc)"), 5);
	assert_int_equal(count_matches("cat_write.scap", "fd.name pmatch (//lib/)"), 7);
	assert_int_equal(count_matches("cat_write.scap", "fd.name pmatch (/et)"), 0);
	/* evt.around[T] exists: only the event at T */
	assert_int_equal(count_matches("cat_write.scap", "evt.around[1470327477881781397] exists"), 1);
	/* precedence extension: and before or */
	assert_int_equal(count_matches("cat_write.scap", "evt.type=close or evt.type=open and fd.num=3"),
			 count_matches("cat_write.scap", "evt.type=close or (evt.type=open and fd.num=3)"));
}

/* "not (" repeated n times around check, closed again */
static char *nested(const char *open, int n, const char *check)
{
	size_t lo = strlen(open), lc = strlen(check);
	char *s = malloc(n * (lo + 1) + lc + 1), *p = s;

	assert_non_null(s);
	for (int i = 0; i < n; i++, p += lo)
		memcpy(p, open, lo);
	memcpy(p, check, lc);
	p += lc;
	memset(p, ')', n);
	p[n] = 0;
	return s;
}

/* nesting is bounded (FILTER_MAX_DEPTH): the deepest accepted filter
 * compiles and runs, one level more is a one-line error, and so is a
 * 100,000-deep filter (it used to overflow the stack) */
static void test_depth(void **state)
{
	char *s, want[256];
	int plain;

	(void)state;
	plain = count_matches("cat_write.scap", "evt.type=open");
	assert_true(plain > 0);
	s = nested("not (", FILTER_MAX_DEPTH, "evt.type=open");
	assert_int_equal(count_matches("cat_write.scap", s), plain);	/* even number of nots */
	free(s);
	s = nested("(", FILTER_MAX_DEPTH, "evt.type=open");
	assert_int_equal(count_matches("cat_write.scap", s), plain);
	free(s);
	s = nested("not (", FILTER_MAX_DEPTH + 1, "evt.type=open");
	snprintf(want, sizeof(want), "filter error at position %d: filter nested too deeply (more than %d levels of parentheses)",
		 5 * FILTER_MAX_DEPTH + 4, FILTER_MAX_DEPTH);
	expect_error(s, want);
	free(s);
	s = nested("not (", 100000, "proc.name=x");
	expect_error(s, want);
	free(s);
	s = nested("(", 100000, "proc.name=x");
	snprintf(want, sizeof(want), "filter error at position %d: filter nested too deeply (more than %d levels of parentheses)",
		 FILTER_MAX_DEPTH, FILTER_MAX_DEPTH);
	expect_error(s, want);
	free(s);
}

/* "FIELD in (FIRST, PREFIX0, ..., PREFIX<n-1>)": n + 1 values */
static char *in_list(const char *field, const char *first, const char *prefix, int n)
{
	size_t cap = strlen(field) + strlen(first) + 16 + (size_t)n * (strlen(prefix) + 12);
	char *s = malloc(cap);
	size_t len;

	assert_non_null(s);
	len = (size_t)snprintf(s, cap, "%s in (%s", field, first);
	for (int i = 0; i < n; i++)
		len += (size_t)snprintf(s + len, cap - len, ",%s%d", prefix, i);
	snprintf(s + len, cap - len, ")");
	return s;
}

/* large 'in' lists (hash sets, filter_set.c) match exactly what the
 * single comparison does, for strings, in-place proc.name, signed and
 * unsigned integers, negated, with duplicates, and in the pre-selection */
static void test_in_set(void **state)
{
	static const struct { const char *field, *first, *prefix, *plain; } c[] = {
		{ "proc.name", "cat", "p", "proc.name=cat" },
		{ "fd.name", "/dev/null", "/tmp/f", "fd.name=/dev/null" },
		{ "evt.rawarg.fd", "3", "1000", "evt.rawarg.fd=3" },
		{ "fd.num", "3", "2000", "fd.num=3" },
		{ "thread.tid", "-5", "9", "thread.tid=-5" },
		{ "evt.type", "open", "open", "evt.type=open" },
	};
	char plain_not[128];
	struct filter *f;

	(void)state;
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		int n = strcmp(c[i].field, "evt.type") ? 26000 : 0;
		char *big = in_list(c[i].field, c[i].first, c[i].prefix, n), *neg;
		int want = count_matches("cat_write.scap", c[i].plain);

		if (!n) {	/* evt.type values must be event names: duplicates */
			free(big);
			big = strdup("evt.type in (open,open,open,open,open,open,open,open,open,open,"
				     "open,open,open,open,open,open,open,open,close,close)");
			want = count_matches("cat_write.scap", "evt.type=open or evt.type=close");
		}
		f = compile_ok(big);
		assert_true(f->nodes[f->root].set != NULL);
		filter_free(f);
		assert_int_equal(count_matches("cat_write.scap", big), want);
		neg = malloc(strlen(big) + 8);
		sprintf(neg, "not %s", big);
		snprintf(plain_not, sizeof(plain_not), "not %s", c[i].plain);
		if (n)
			assert_int_equal(count_matches("cat_write.scap", neg),
					 count_matches("cat_write.scap", plain_not));
		free(neg);
		free(big);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_accepts),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_precedence),
		cmocka_unit_test(test_slots),
		cmocka_unit_test(test_preselect),
		cmocka_unit_test(test_pushdown),
		cmocka_unit_test(test_run_cat_write),
		cmocka_unit_test(test_depth),
		cmocka_unit_test(test_in_set),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
