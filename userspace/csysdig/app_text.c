#define _GNU_SOURCE
/*
 * app_text.c - F5/F6 text windows (see app_text.h).  Echo shows the data of
 * the selection's reads and writes, one "------ Read 12B from FILE (proc)"
 * header per call; sysdig events are printed in sysdig's default format.
 */
#include <stdlib.h>
#include <string.h>
#include "app_text.h"

#define DIG_FORMAT "*%evt.num %evt.outputtime %evt.cpu %proc.name (%thread.tid) %evt.dir %evt.type %evt.info"

static void add_line(struct app *a, const char *s, size_t n)
{
	if (a->nlines == TEXT_MAX_LINES) {
		free(a->lines[0]);
		memmove(a->lines, a->lines + 1, (a->nlines - 1) * sizeof(*a->lines));
		a->nlines--;
		a->lines_dropped++;
	}
	if (a->nlines == a->lines_cap) {
		size_t nc = a->lines_cap ? a->lines_cap * 2 : 1024;
		char **l = realloc(a->lines, nc * sizeof(*l));

		if (!l)
			abort();
		a->lines = l;
		a->lines_cap = nc;
	}
	a->lines[a->nlines++] = strndup(s, n);
}

/* text with newlines -> one line each */
static void add_text(struct app *a, const char *s, size_t n)
{
	size_t start = 0;

	for (size_t i = 0; i <= n; i++)
		if (i == n || s[i] == '\n') {
			if (i > start || i < n)
				add_line(a, s + start, i - start);
			start = i + 1;
		}
}

static void echo_event(struct app *a, struct sinsp_evt *e)
{
	static struct field_ref io_read, buffer, rawres, fdname, pname;
	static int parsed;
	struct field_value v;
	char err[256], hdr[4096];
	int is_read;
	int64_t res;
	struct sbuf b = { 0 };

	if (!parsed) {
		field_parse("evt.is_io_read", &io_read, err, sizeof(err));
		field_parse("evt.buffer", &buffer, err, sizeof(err));
		field_parse("evt.rawres", &rawres, err, sizeof(err));
		field_parse("fd.name", &fdname, err, sizeof(err));
		field_parse("proc.name", &pname, err, sizeof(err));
		parsed = 1;
	}
	if (e->info && (e->info->category & EC_INTERNAL))
		return;
	if (!field_extract(a->s, e, &buffer, &v) || v.len == 0)
		return;
	sb_put(&b, v.str, v.len);
	if (!field_extract(a->s, e, &io_read, &v))
		goto out;
	is_read = v.u != 0;
	res = field_extract(a->s, e, &rawres, &v) ? v.i : 0;
	if (res <= 0)
		goto out;
	{
		char fd[2048] = "", pn[256] = "";

		if (field_extract(a->s, e, &fdname, &v))
			snprintf(fd, sizeof(fd), "%s", field_to_string(&fdname, &v, NULL, 0));
		if (field_extract(a->s, e, &pname, &v))
			snprintf(pn, sizeof(pn), "%s", field_to_string(&pname, &v, NULL, 0));
		snprintf(hdr, sizeof(hdr), "------ %s %lldB %s %s (%s)", is_read ? "Read" : "Write",
			 (long long)res, is_read ? "from" : "to", fd, pn);
	}
	add_line(a, hdr, strlen(hdr));
	{
		struct sbuf r = { 0 };

		render_bytebuf((const uint8_t *)b.p, (uint32_t)b.len,
			       a->o.render.bufmode == RB_DOTS ? RB_ASCII : a->o.render.bufmode, 0, &r);
		add_text(a, r.p ? r.p : "", r.len);
		sb_free(&r);
	}
out:
	sb_free(&b);
}

void app_text_event(struct app *a, struct sinsp_evt *e)
{
	if (a->text_filter && !filter_run(a->text_filter, a->s, e))
		return;
	if (a->text == TEXT_ECHO) {
		echo_event(a, e);
	} else {
		struct sbuf b = { 0 };
		char err[256];

		if (e->info && (e->info->category & EC_INTERNAL))
			return;
		if (formatter_format(a->text_fmt, a->s, e, 0, &b, err, sizeof(err)) == 1)
			add_text(a, b.p ? b.p : "", b.len);
		sb_free(&b);
	}
}

void app_text_clear(struct app *a)
{
	for (size_t i = 0; i < a->nlines; i++)
		free(a->lines[i]);
	free(a->lines);
	a->lines = NULL;
	a->nlines = a->lines_cap = 0;
	a->lines_dropped = 0;
}

int app_text_start(struct app *a, enum text_mode mode, const struct row *r)
{
	/* the selection and the session's filters, not the view's own */
	char *f = app_complete_filter(a, 0), *g = NULL;
	char buf[4096];

	app_text_stop(a);
	if (r && !a->table.is_list) {
		const struct table_col *k = table_key_col(&a->table);
		const char *v = table_key_string(&a->table, r, buf, sizeof(buf));

		if (asprintf(&g, "%s%s%s%s=\"%s\"", *f ? "(" : "", *f ? f : "", *f ? ") and " : "",
			     k->ref.name, v) < 0)
			abort();
		free(f);
		f = g;
	}
	if (mode == TEXT_DIG) {
		a->text_fmt = formatter_new(DIG_FORMAT, a->err, sizeof(a->err));
		if (!a->text_fmt) {
			free(f);
			return -1;
		}
	}
	if (*f) {
		a->text_filter = filter_compile(f, a->err, sizeof(a->err));
		if (!a->text_filter) {
			free(f);
			return -1;
		}
	}
	app_log(a, "text window %d, filter: %s", (int)mode, f);
	free(f);
	a->text = mode;		/* before app_start: no event mask of the view */
	if (app_start(a) < 0) {
		a->text = TEXT_NONE;
		return -1;
	}
	return 0;
}

void app_text_stop(struct app *a)
{
	if (a->text_filter)
		filter_free(a->text_filter);
	if (a->text_fmt)
		formatter_free(a->text_fmt);
	a->text_filter = NULL;
	a->text_fmt = NULL;
	a->text = TEXT_NONE;
	app_text_clear(a);
}
