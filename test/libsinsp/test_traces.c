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

/* "name=N(<Tl>fdname)" of the PT_FD argument name as the renderer would
 * print it from the state right after the event; "" when unresolved */
static int fd_arg(struct sinsp *s, const struct sinsp_evt *e, const char *pname, char *out, size_t size)
{
	const struct ppm_event_info *info = e->info;
	struct sinsp_fdinfo *fdi;
	int64_t fd;
	uint32_t i;
	char l4 = 0;

	out[0] = 0;
	for (i = 0; i < info->nparams && i < e->scap.nparams; i++)
		if (strcmp(info->params[i].name, pname) == 0 && info->params[i].type == PT_FD)
			break;
	if (i >= info->nparams || i >= e->scap.nparams)
		return -1;	/* not an fd argument (e.g. a PT_PID "(comm)") */
	if (e->scap.plen[i] != 8 || !e->thread)
		return 0;
	memcpy(&fd, e->scap.pval[i], 8);
	fdi = fd >= 0 ? sinsp_fd_lookup(sinsp_thread_fdtable(s, e->thread), fd) : NULL;
	if (!fdi)
		return 0;
	switch (sinsp_fd_l4proto(fdi)) {
	case SCAP_L4_TCP: l4 = 't'; break;
	case SCAP_L4_UDP: l4 = 'u'; break;
	case SCAP_L4_ICMP: l4 = 'i'; break;
	case SCAP_L4_RAW: l4 = 'r'; break;
	default: break;
	}
	if (l4)
		snprintf(out, size, "%s=%" PRId64 "(<%c%c>%s)", pname, fd, sinsp_fd_typechar(fdi), l4, fdi->name);
	else
		snprintf(out, size, "%s=%" PRId64 "(<%c>%s)", pname, fd, sinsp_fd_typechar(fdi), fdi->name);
	return 0;
}

/* how many PT_FD arguments of the event the state resolves */
static int resolved_fd_args(struct sinsp *s, const struct sinsp_evt *e)
{
	uint32_t i;
	int n = 0;

	for (i = 0; i < e->info->nparams && i < e->scap.nparams; i++) {
		int64_t fd;

		if (e->info->params[i].type != PT_FD || e->scap.plen[i] != 8 || !e->thread)
			continue;
		memcpy(&fd, e->scap.pval[i], 8);
		if (fd >= 0 && sinsp_fd_lookup(sinsp_thread_fdtable(s, e->thread), fd))
			n++;
	}
	return n;
}

/* every resolved fd argument of the default output matches the state */
static void run_fdargs(const char *trace)
{
	char path[1024], *line = NULL;
	size_t cap = 0, checked = 0, bad = 0;
	struct sinsp *s = open_trace(trace);
	struct sinsp_evt evt;
	FILE *f;

	snprintf(path, sizeof(path), "%s/golden/%s/default.txt", TEST_DATA, trace);
	f = fopen(path, "r");
	assert_non_null(f);
	while (getline(&line, &cap, f) > 0) {
		uint64_t num = strtoull(line, NULL, 10);
		char *p = line, want[4096], got[4096];
		int n_line = 0;

		while (sinsp_next(s, &evt) == SCAP_SUCCESS && evt.num < num)
			;
		assert_int_equal(evt.num, num);
		/* each " name=N(<" in the line is a resolved fd argument */
		while ((p = strstr(p, "(<")) != NULL) {
			char *eq = p, *st, *end = strchr(p, ')');

			while (eq > line && eq[-1] != '=')
				eq--;
			st = eq > line ? eq - 1 : eq;
			while (st > line && st[-1] != ' ')
				st--;
			if (!end || eq == line) {
				p += 2;
				continue;
			}
			snprintf(want, sizeof(want), "%.*s", (int)(end + 1 - st), st);
			snprintf(path, sizeof(path), "%.*s", (int)(eq - 1 - st), st);
			if (fd_arg(s, &evt, path, got, sizeof(got)) < 0) {
				p = end;
				continue;
			}
			checked++;
			n_line++;
			if (strcmp(want, got) != 0 && bad++ < 10)
				print_message("%s evt %" PRIu64 ": want %s got %s\n", trace, num, want, got);
			p = end;
		}
		if (n_line != resolved_fd_args(s, &evt) && bad++ < 10)
			print_message("%s evt %" PRIu64 ": %d fd arguments resolved, want %d\n", trace, num,
				      resolved_fd_args(s, &evt), n_line);
	}
	print_message("%s: %zu fd arguments checked, %zu differ\n", trace, checked, bad);
	free(line);
	fclose(f);
	sinsp_close(s);
	assert_int_equal(bad, 0);
}

static void t_fdargs(void **st)
{
	static const char *const traces[] = { "cat_write", "connect_localhost", "open-multiple-files",
					      "ping_sendto", "syscall", "ref029_light", "ref029_net_small" };
	size_t i;

	(void)st;
	for (i = 0; i < sizeof(traces) / sizeof(traces[0]); i++)
		run_fdargs(traces[i]);
}

/* ---- the lsof chisel: every thread's fd table after the first event ---- */

static const char *type_name(int32_t t)
{
	switch (t) {
	case SCAP_FD_FILE: case SCAP_FD_FILE_V2: return "file";
	case SCAP_FD_DIRECTORY: return "directory";
	case SCAP_FD_IPV4_SOCK: case SCAP_FD_IPV4_SERVSOCK: return "ipv4";
	case SCAP_FD_IPV6_SOCK: case SCAP_FD_IPV6_SERVSOCK: return "ipv6";
	case SCAP_FD_UNIX_SOCK: return "unix";
	case SCAP_FD_FIFO: return "pipe";
	case SCAP_FD_EVENT: return "event";
	case SCAP_FD_SIGNALFD: return "signalfd";
	case SCAP_FD_EVENTPOLL: return "eventpoll";
	case SCAP_FD_INOTIFY: return "inotify";
	case SCAP_FD_TIMERFD: return "timerfd";
	case SCAP_FD_NETLINK: return "netlink";
	default: return "unknown";
	}
}

static void ext(char *out, size_t size, const char *s, size_t w)
{
	size_t n = strlen(s), o = strlen(out);

	if (n < w)
		snprintf(out + o, size - o, "%s%*s", s, (int)(w - n), "");
	else
		snprintf(out + o, size - o, "%.*s ", (int)(w - 1), s);
}

struct lsof_ctx {
	struct sinsp *s;
	struct sinsp_threadinfo *t;
	struct lines *out;
};

static int lsof_fd(struct sinsp_fdinfo *fdi, void *arg)
{
	struct lsof_ctx *c = arg;
	const char *user = sinsp_user_name(c->s, c->t->uid);
	char line[4096] = "", num[32], *o;
	const char *name;

	ext(line, sizeof(line), c->t->comm, 20);
	snprintf(num, sizeof(num), "%" PRId64, c->t->pid);
	ext(line, sizeof(line), num, 8);
	snprintf(num, sizeof(num), "%" PRId64, c->t->tid);
	ext(line, sizeof(line), num, 8);
	ext(line, sizeof(line), user ? user : "", 8);
	snprintf(num, sizeof(num), "%" PRId64, fdi->fd);
	ext(line, sizeof(line), num, 8);
	ext(line, sizeof(line), type_name(fdi->type), 12);
	/* the chisel API passes tostring_clean(): control characters removed */
	for (name = fdi->name, o = line + strlen(line); *name && o < line + sizeof(line) - 1; name++)
		if ((unsigned char)*name >= 0x20 && *name != 0x7f)
			*o++ = *name;
	*o = 0;
	lines_add(c->out, line);
	return 0;
}

static int lsof_thread(struct sinsp_threadinfo *t, void *arg)
{
	struct lsof_ctx *c = arg;

	c->t = t;
	sinsp_foreach_fd(sinsp_thread_fdtable(c->s, t), lsof_fd, c);
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void run_lsof(const char *trace)
{
	struct lines want = { 0 }, got = { 0 };
	struct sinsp *s = open_trace(trace);
	struct lsof_ctx c = { s, NULL, &got };
	char path[1024], line[8192];
	struct sinsp_evt evt;
	size_t i, bad = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/golden/%s/c_lsof.txt", TEST_DATA, trace);
	f = fopen(path, "r");
	assert_non_null(f);
	assert_non_null(fgets(line, sizeof(line), f));	/* header */
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		lines_add(&want, line);
	}
	fclose(f);
	assert_int_equal(sinsp_next(s, &evt), SCAP_SUCCESS);
	sinsp_foreach_thread(s, lsof_thread, &c);
	qsort(want.v, want.n, sizeof(char *), cmp_str);
	qsort(got.v, got.n, sizeof(char *), cmp_str);
	for (i = 0; i < want.n && i < got.n; i++)
		if (strcmp(want.v[i], got.v[i]) != 0 && bad++ < 5)
			print_message("%s lsof:\n  want %s (%zu)\n  got  %s (%zu)\n", trace, want.v[i], strlen(want.v[i]), got.v[i], strlen(got.v[i]));
	print_message("%s: lsof %zu lines, %zu produced, %zu differ\n", trace, want.n, got.n, bad);
	assert_int_equal(bad, 0);
	assert_int_equal(want.n, got.n);
	lines_free(&want);
	lines_free(&got);
	sinsp_close(s);
}

static void t_lsof(void **st)
{
	static const char *const traces[] = { "cat_write", "connect_localhost", "empty", "open-multiple-files",
					      "ping_sendto", "syscall", "ref029_light", "ref029_net_small" };
	size_t i;

	(void)st;
	for (i = 0; i < sizeof(traces) / sizeof(traces[0]); i++)
		run_lsof(traces[i]);
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
		cmocka_unit_test(t_fdargs),
		cmocka_unit_test(t_lsof),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
