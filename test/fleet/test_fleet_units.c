/*
 * test_fleet_units.c - unit tests of the parsers and encoders behind
 * --metrics-listen and --export: the ClickHouse URL, the listen address,
 * TabSeparated and Prometheus label escaping, label names from fields,
 * histogram buckets, the series bound and the option parser.  The sources
 * are included so that their static functions can be reached.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include "export_clickhouse.c"
#include "fleet.c"
#include "metrics.c"

static void test_url(void **state)
{
	static const struct {
		const char *url, *base, *db, *table;
	} ok[] = {
		{ "clickhouse://h:9000/db.t", "http://h:9000/", "db", "t" },
		{ "clickhouse://h/db.t", "http://h:8123/", "db", "t" },
		{ "clickhouse://10.0.0.1:18123/fleet_1.events_local", "http://10.0.0.1:18123/", "fleet_1",
		  "events_local" },
		{ "clickhouse://[::1]/d.t", "http://[::1]:8123/", "d", "t" },
		{ "clickhouse://[::1]:1234/d.t", "http://[::1]:1234/", "d", "t" },
	};
	static const char *const bad[] = {
		"http://h/d.t", "clickhouse://h/dt", "clickhouse:///d.t", "clickhouse://u@h/d.t",
		"clickhouse://h/d.t.x", "clickhouse://h/d-x.t", "clickhouse://h/d.", "clickhouse://h/.t",
		"clickhouse://h", "clickhouse://h/d.t;drop",
	};
	(void)state;
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		struct ch_export x = { 0 };
		char err[256] = "";

		assert_int_equal(parse_url(&x, ok[i].url, err, sizeof(err)), 0);
		assert_string_equal(x.base, ok[i].base);
		assert_string_equal(x.db, ok[i].db);
		assert_string_equal(x.table, ok[i].table);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct ch_export x = { 0 };
		char err[256] = "";

		assert_int_equal(parse_url(&x, bad[i], err, sizeof(err)), -1);
		assert_non_null(strstr(err, "invalid URL"));
	}
}

static void test_tsv(void **state)
{
	static const char in[] = "a\tb\nc\\d\0e\rf\bg\fh";
	struct sbuf b = { 0 };

	(void)state;
	put_tsv(&b, in, sizeof(in) - 1);
	assert_string_equal(b.p, "a\\tb\\nc\\\\d\\0e\\rf\\bg\\fh");
	sb_free(&b);
}

static void test_label_escaping(void **state)
{
	struct sbuf b = { 0 };

	(void)state;
	put_label_s(&b, "l", "x\"y\\z\n");
	assert_string_equal(b.p, "l=\"x\\\"y\\\\z\\n\"");
	sb_reset(&b);
	b.len = 0;
	put_label_s(&b, "a", "\xff|\xc3\xa9|\x01|\xe2\x82");	/* bad, é, control, cut */
	assert_string_equal(b.p, "a=\"?|\xc3\xa9|?|??\"");
	put_label_s(&b, "b", "");
	assert_string_equal(b.p, "a=\"?|\xc3\xa9|?|??\",b=\"\"");
	sb_free(&b);
}

static void test_label_names(void **state)
{
	char out[64];

	(void)state;
	label_name_of("proc.name", out, sizeof(out));
	assert_string_equal(out, "proc_name");
	label_name_of("evt.arg[0]", out, sizeof(out));
	assert_string_equal(out, "evt_arg_0_");
}

static void test_listen(void **state)
{
	static const struct {
		const char *spec;
		int rc, v6;
	} cases[] = {
		{ "9100", 0, -1 }, { ":9100", 0, -1 }, { "127.0.0.1:9100", 0, 0 }, { "[::1]:9100", 0, 1 },
		{ "::1:9100", 0, 1 }, { "0", 0, -1 }, { "99999", -1, 0 }, { "abc", -1, 0 },
		{ "127.0.0.1:", -1, 0 }, { "-1", -1, 0 }, { "1.2.3.4:65536", -1, 0 },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct sockaddr_storage ss;
		socklen_t len;
		int v6 = -2;

		assert_int_equal(parse_listen(cases[i].spec, &ss, &len, &v6), cases[i].rc);
		if (!cases[i].rc && cases[i].v6 >= 0)
			assert_int_equal(v6, cases[i].v6);
	}
}

static struct metrics *new_metrics(uint64_t max_series)
{
	struct fleet_opts fo = { .metrics_listen = "127.0.0.1:0", .metrics_max_series = max_series };
	char err[256] = "";
	struct metrics *m = metrics_start(&fo, err, sizeof(err));

	assert_non_null(m);
	return m;
}

static void test_histogram(void **state)
{
	struct metrics *m = new_metrics(100);
	struct sbuf l = { 0 };
	size_t len;
	char *text;

	(void)state;
	put_label_s(&l, "proc_name", "p");
	observe(m, FAM_LATENCY, &l, 500);		/* 0.5 us: le 1e-06 */
	observe(m, FAM_LATENCY, &l, 1000);		/* exactly 1 us: le 1e-06 */
	observe(m, FAM_LATENCY, &l, 1500);		/* le 1e-05 */
	observe(m, FAM_LATENCY, &l, 20000000);		/* 20 ms: le 0.1 */
	observe(m, FAM_LATENCY, &l, 20000000000ULL);	/* 20 s: +Inf only */
	text = render(m, &len);
	assert_non_null(strstr(text, "sysdig_syscall_latency_seconds_bucket{proc_name=\"p\",le=\"1e-06\"} 2\n"));
	assert_non_null(strstr(text, "sysdig_syscall_latency_seconds_bucket{proc_name=\"p\",le=\"1e-05\"} 3\n"));
	assert_non_null(strstr(text, "sysdig_syscall_latency_seconds_bucket{proc_name=\"p\",le=\"0.01\"} 3\n"));
	assert_non_null(strstr(text, "sysdig_syscall_latency_seconds_bucket{proc_name=\"p\",le=\"0.1\"} 4\n"));
	assert_non_null(strstr(text, "sysdig_syscall_latency_seconds_bucket{proc_name=\"p\",le=\"10\"} 4\n"));
	assert_non_null(strstr(text, "sysdig_syscall_latency_seconds_bucket{proc_name=\"p\",le=\"+Inf\"} 5\n"));
	assert_non_null(strstr(text, "sysdig_syscall_latency_seconds_count{proc_name=\"p\"} 5\n"));
	assert_non_null(strstr(text, "sysdig_syscall_latency_seconds_sum{proc_name=\"p\"} 20.020003000\n"));
	free(text);
	sb_free(&l);
	metrics_stop(m);
}

static void test_series_bound(void **state)
{
	struct metrics *m = new_metrics(2);
	struct sbuf l = { 0 };
	size_t len;
	char *text;

	(void)state;
	for (int i = 0; i < 5; i++) {
		char v[16];

		snprintf(v, sizeof(v), "p%d", i);
		sb_reset(&l);
		l.len = 0;
		put_label_s(&l, "proc_name", v);
		count(m, FAM_SYSCALLS, &l, (uint64_t)(i + 1));
	}
	assert_int_equal(m->cnt.overflow, 3);
	text = render(m, &len);
	assert_non_null(strstr(text, "sysdig_syscalls_total{proc_name=\"p0\"} 1\n"));
	assert_non_null(strstr(text, "sysdig_syscalls_total{proc_name=\"p1\"} 2\n"));
	/* p2..p4: 3 + 4 + 5 events in the overflow series */
	assert_non_null(strstr(text, "sysdig_syscalls_total{proc_name=\"__overflow__\",syscall=\"__overflow__\"} 12\n"));
	assert_null(strstr(text, "p2"));
	assert_non_null(strstr(text, "sysdig_metrics_overflow_total 3\n"));
	free(text);
	sb_free(&l);
	metrics_stop(m);
}

static void test_options(void **state)
{
	struct fleet_opts fo = { 0 };
	char err[256];

	(void)state;
	assert_int_equal(fleet_parse_opt(&fo, OPT_EXPORT_QUEUE, "5"), 0);
	assert_int_equal(fo.export_queue, 5);
	assert_int_equal(fleet_parse_opt(&fo, OPT_EXPORT_QUEUE, "0"), -1);
	assert_int_equal(fleet_parse_opt(&fo, OPT_EXPORT_QUEUE, "5000"), -1);
	assert_int_equal(fleet_parse_opt(&fo, OPT_METRICS_TOP, "-3"), -1);
	assert_int_equal(fleet_parse_opt(&fo, OPT_METRICS_TOP, "3x"), -1);
	assert_int_equal(fleet_parse_opt(&fo, OPT_HOSTNAME, ""), -1);
	/* export options without --export */
	assert_null(fleet_start(&fo, err, sizeof(err)));
	assert_non_null(strstr(err, "need --export"));
	assert_string_equal(fleet_hostname(&(struct fleet_opts){ .hostname = "web1" }), "web1");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_url),
		cmocka_unit_test(test_tsv),
		cmocka_unit_test(test_label_escaping),
		cmocka_unit_test(test_label_names),
		cmocka_unit_test(test_listen),
		cmocka_unit_test(test_histogram),
		cmocka_unit_test(test_series_bound),
		cmocka_unit_test(test_options),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
