/*
 * test_traces.c - the state engine on the real traces, compared with
 * sysdig 0.29.3.
 *
 * The p_fields goldens print "%evt.num %evt.time %proc.name %thread.tid
 * %fd.name %evt.type %evt.res" for every event where all of those exist,
 * i.e. exit events with a thread and an fd.  The same lines are rebuilt
 * straight from struct sinsp_evt (without the formatter) and the evt.num,
 * proc.name, thread.tid and fd.name columns are compared line by line.
 */
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "sinsp.h"

struct lines {
	char **v;
	size_t n, cap;
};

static void lines_add(struct lines *l, const char *s)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 256;
		l->v = realloc(l->v, l->cap * sizeof(*l->v));
	}
	l->v[l->n++] = strdup(s);
}

static void lines_free(struct lines *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
}

/* "num time proc tid fdname type res" -> "num proc tid fdname" */
static void golden_key(const char *line, char *out, size_t size)
{
	const char *sp1 = strchr(line, ' ');
	const char *sp2 = sp1 ? strchr(sp1 + 1, ' ') : NULL;
	const char *end = line + strlen(line);
	int spaces = 0;

	if (!sp2) {
		snprintf(out, size, "%s", line);
		return;
	}
	while (end > sp2 && spaces < 2) {
		end--;
		if (*end == ' ')
			spaces++;
	}
	snprintf(out, size, "%.*s%.*s", (int)(sp1 - line), line, (int)(end - sp2), sp2);
}

static void read_golden(const char *trace, struct lines *l)
{
	char path[1024], line[8192], key[8192];
	FILE *f;

	snprintf(path, sizeof(path), "%s/golden/%s/p_fields.txt", TEST_DATA, trace);
	f = fopen(path, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		golden_key(line, key, sizeof(key));
		lines_add(l, key);
	}
	fclose(f);
}

static struct sinsp *open_trace(const char *trace)
{
	char path[1024], err[SCAP_ERRBUF_SIZE];
	struct scap *h;
	struct sinsp *s;

	snprintf(path, sizeof(path), "%s/traces/%s.scap", TEST_DATA, trace);
	h = scap_open_file(path, err);
	if (!h)
		fail_msg("%s: %s", path, err);
	s = sinsp_open(h, err);
	if (!s)
		fail_msg("%s: %s", path, err);
	return s;
}

/* failed open exits still have an fd.name: the name argument (relative
 * ones resolved against the cwd) */
static const char *creator_name(struct sinsp *s, const struct sinsp_evt *e)
{
	static char buf[2048];
	struct sinsp_threadinfo *m;
	const char *n;
	int i = -1;

	if (e->fdinfo)
		return NULL;
	switch (e->scap.type) {
	case PPME_SYSCALL_OPEN_X:
	case PPME_SYSCALL_CREAT_X:
		i = 1;
		break;
	case PPME_SYSCALL_OPENAT_2_X:
	case PPME_SYSCALL_OPENAT2_X:
		i = 2;
		break;
	default:
		return NULL;
	}
	if ((uint32_t)i >= e->scap.nparams || e->scap.plen[i] == 0)
		return NULL;
	n = (const char *)e->scap.pval[i];
	m = sinsp_get_main_thread(s, e->thread);
	if (n[0] == '/' || !m)
		return n;
	snprintf(buf, sizeof(buf), "%s%s", m->cwd, n);
	return buf;
}

static void run_pfields(const char *trace)
{
	struct lines want = { 0 }, got = { 0 };
	struct sinsp_evt evt;
	struct sinsp *s = open_trace(trace);
	char line[8192];
	size_t i, bad = 0;
	int rc;

	read_golden(trace, &want);
	while ((rc = sinsp_next(s, &evt)) == SCAP_SUCCESS) {
		/* fd.name exists when the event resolved an fd, or used one
		 * (then "" when the fd is not in the table) */
		const char *name = creator_name(s, &evt);

		if (ppm_event_is_enter(evt.scap.type) || !evt.thread || (!evt.uses_fd && !name) ||
		    evt.filtered_out || (evt.info->category & EC_INTERNAL))
			continue;
		snprintf(line, sizeof(line), "%" PRIu64 " %s %" PRId64 " %s", evt.num,
			 evt.thread->comm, evt.thread->tid, evt.fdinfo ? evt.fdinfo->name : name ? name : "");
		lines_add(&got, line);
	}
	assert_int_equal(rc, SCAP_EOF);
	for (i = 0; i < want.n && i < got.n; i++) {
		if (strcmp(want.v[i], got.v[i]) != 0 && bad++ < 10)
			print_message("%s line %zu:\n  want %s\n  got  %s\n", trace, i + 1, want.v[i], got.v[i]);
	}
	print_message("%s: %zu golden lines, %zu produced, %zu differ\n", trace, want.n, got.n, bad);
	assert_int_equal(bad, 0);
	assert_int_equal(want.n, got.n);
	lines_free(&want);
	lines_free(&got);
	sinsp_close(s);
}

static void t_cat_write(void **st) { (void)st; run_pfields("cat_write"); }
static void t_connect_localhost(void **st) { (void)st; run_pfields("connect_localhost"); }
static void t_empty(void **st) { (void)st; run_pfields("empty"); }
static void t_open_multiple(void **st) { (void)st; run_pfields("open-multiple-files"); }
static void t_ping_sendto(void **st) { (void)st; run_pfields("ping_sendto"); }
static void t_syscall(void **st) { (void)st; run_pfields("syscall"); }
static void t_ref029_light(void **st) { (void)st; run_pfields("ref029_light"); }
static void t_ref029_net_small(void **st) { (void)st; run_pfields("ref029_net_small"); }

/* after cat_write: cat (20072) with parent bash (11310) */
static void t_cat_parent(void **st)
{
	struct sinsp *s = open_trace("cat_write");
	struct sinsp_evt evt;
	struct sinsp_threadinfo *t = NULL, *p;
	uint64_t n = 0;

	(void)st;
	while (sinsp_next(s, &evt) == SCAP_SUCCESS) {
		n++;
		if (evt.num == 200) {
			t = sinsp_get_thread(s, 20072);
			assert_non_null(t);
			assert_string_equal(t->comm, "cat");
			p = sinsp_get_parent(s, t);
			assert_non_null(p);
			assert_int_equal(p->tid, 11310);
			assert_string_equal(p->comm, "bash");
			assert_ptr_equal(sinsp_get_main_thread(s, t), t);
		}
	}
	assert_non_null(t);
	assert_int_equal(n, 345);
	assert_int_equal(s->nevents, 345);
	/* procexit (event 215) removed the thread at the next event */
	assert_null(sinsp_get_thread(s, 20072));
	sinsp_close(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_cat_write),
		cmocka_unit_test(t_connect_localhost),
		cmocka_unit_test(t_empty),
		cmocka_unit_test(t_open_multiple),
		cmocka_unit_test(t_ping_sendto),
		cmocka_unit_test(t_syscall),
		cmocka_unit_test(t_ref029_light),
		cmocka_unit_test(t_ref029_net_small),
		cmocka_unit_test(t_cat_parent),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
