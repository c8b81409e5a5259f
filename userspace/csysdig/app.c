#define _GNU_SOURCE
/*
 * app.c - the capture behind csysdig: opens the -r files (one after the
 * other) or the live driver, feeds every event to the current view's table
 * (or to the F5/F6 text window), ends samples, and keeps the drill-down
 * stack whose selections become the table's filter.
 *
 * Files give one sample, at their end, over the whole capture (rates are
 * per second of the capture's span); live captures end a sample every -d
 * milliseconds of event time, as the reference does.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "app_text.h"
#include "csysdig.h"

struct view *app_view(struct app *a)
{
	return a->stack[a->depth].view;
}

void app_log(struct app *a, const char *fmt, ...)
{
	va_list ap;

	if (!a->log)
		return;
	va_start(ap, fmt);
	vfprintf(a->log, fmt, ap);
	va_end(ap);
	fputc('\n', a->log);
	fflush(a->log);
}

static char *join_filters(const char *a, const char *b)
{
	char *r;

	if (!a || !*a)
		return strdup(b ? b : "");
	if (!b || !*b)
		return strdup(a);
	if (asprintf(&r, "(%s) and (%s)", a, b) < 0)
		abort();
	return r;
}

/* a filter value: bare when it is one plain word, else double-quoted */
static void append_value(char **s, const char *v)
{
	int plain = *v != 0;
	char *r;

	for (const char *p = v; *p; p++)
		if (*p == ' ' || *p == '"' || *p == '\'' || *p == '(' || *p == ')' || *p == '\\' ||
		    *p == '\t')
			plain = 0;
	if (plain) {
		if (asprintf(&r, "%s%s", *s, v) < 0)
			abort();
	} else {
		size_t n = strlen(v), k = 0;
		char *q = malloc(2 * n + 3);

		q[k++] = '"';
		for (const char *p = v; *p; p++) {
			if (*p == '"' || *p == '\\')
				q[k++] = '\\';
			q[k++] = *p;
		}
		q[k++] = '"';
		q[k] = 0;
		if (asprintf(&r, "%s%s", *s, q) < 0)
			abort();
		free(q);
	}
	free(*s);
	*s = r;
}

static void append(char **s, const char *t)
{
	char *r;

	if (asprintf(&r, "%s%s", *s, t) < 0)
		abort();
	free(*s);
	*s = r;
}

/* the selections of the levels above the current one, the reference's way:
 * each level "(view filter) and field=value", levels joined with "and" */
static char *selection_filter(struct app *a, int with_view_filters)
{
	char *res = strdup("");
	int n = a->depth;

	for (int j = 0; j < n; j++) {
		struct level *l = &a->stack[j];
		int has_vf = with_view_filters && l->view_filter && *l->view_filter;
		char *part = strdup("");

		if (has_vf) {
			append(&part, "(");
			append(&part, l->view_filter);
			append(&part, ")");
		}
		if (l->field) {
			if (has_vf)
				append(&part, " and ");
			append(&part, l->field);
			append(&part, "=");
			append_value(&part, l->value);
		}
		if (*part) {
			if (*res)
				append(&res, " and ");
			if (n > 1)
				append(&res, "(");
			append(&res, part);
			if (n > 1)
				append(&res, ")");
		}
		free(part);
	}
	return res;
}

char *app_selection_text(struct app *a)
{
	return selection_filter(a, 0);
}

char *app_complete_filter(struct app *a, int with_view)
{
	char *sel, *f, *g;

	/* a sysdig filter typed in F4 is the view's whole filter, as in the
	 * reference (its prompt starts from the filter the header shows) */
	if (with_view && a->manual_is_sysdig && a->manual_filter[0])
		return strdup(a->manual_filter);
	sel = selection_filter(a, 1);
	f = join_filters(a->o.filter, sel);
	free(sel);
	if (a->manual_is_sysdig && a->manual_filter[0]) {
		g = join_filters(f, a->manual_filter);
		free(f);
		f = g;
	}
	if (with_view && app_view(a)->filter) {
		g = join_filters(f, app_view(a)->filter);
		free(f);
		f = g;
	}
	return f;
}

#define LIVE_MAX_LIST_ROWS 100000

/* live: the event types the view's filter can accept (the engine adds the
 * ones the state needs); NULL (all) when the filter does not compile */
static const uint8_t *live_event_mask(struct app *a)
{
	static uint8_t mask[PPM_EVENT_MAX];
	char err[256];
	char *f = app_complete_filter(a, 1);
	struct filter *flt = *f && a->text == TEXT_NONE ? filter_compile(f, err, sizeof(err)) : NULL;

	free(f);
	if (!flt)
		return NULL;
	for (int t = 0; t < PPM_EVENT_MAX; t++)
		mask[t] = (uint8_t)filter_may_match_type(flt, (uint16_t)t);
	filter_free(flt);
	return mask;
}

static int open_input(struct app *a)
{
	struct scap *h;
	char err[SCAP_ERRBUF_SIZE] = "";

	if (a->o.ninputs) {
		h = scap_open_file(a->o.inputs[a->input], err);
	} else {
		struct scap_live_opts lo = { 0 };

		lo.driver = (enum scap_live_driver)a->o.driver;
		lo.snaplen = a->o.snaplen;
		lo.skip_self = 1;
		lo.syscall_mask = live_event_mask(a);
		h = scap_open_live(&lo, err);
	}
	if (!h) {
		snprintf(a->err, sizeof(a->err), "%s", err[0] ? err : "cannot open the capture");
		return -1;
	}
	a->s = sinsp_open(h, err);
	if (!a->s) {
		snprintf(a->err, sizeof(a->err), "%s", err[0] ? err : "can't initialize the state engine");
		return -1;
	}
	a->s->is_live = a->o.ninputs == 0;
	a->s->render = a->o.render;
	return 0;
}

static void close_input(struct app *a)
{
	if (a->s)
		sinsp_close(a->s);
	a->s = NULL;
}

int app_start(struct app *a)
{
	char *f;
	int rc;

	close_input(a);
	if (a->have_table)
		table_free(&a->table);
	a->have_table = 0;
	a->input = 0;
	a->eof = 0;
	a->first_ts = a->last_ts = 0;
	a->nevents = 0;
	a->have_evt = 0;
	if (open_input(a) < 0)
		return -1;
	f = app_complete_filter(a, 1);
	app_log(a, "view %s, filter: %s", app_view(a)->id, f);
	rc = table_init(&a->table, a->s, app_view(a), a->o.print_containers, f, (unsigned)a->depth,
			a->err, sizeof(a->err));
	free(f);
	if (rc < 0) {
		char tmp[sizeof(a->err)];

		memcpy(tmp, a->err, sizeof(tmp));
		snprintf(a->err, sizeof(a->err), "view %s: %.900s", app_view(a)->id, tmp);
		table_free(&a->table);
		return -1;
	}
	a->have_table = 1;
	if (a->o.ninputs == 0)
		a->table.max_list_rows = LIVE_MAX_LIST_ROWS;
	a->table.refresh_ns = a->table.is_list ? 200000000ULL : a->o.delay_ms * 1000000ULL;
	if (app_spectro_replay(a))
		a->table.refresh_ns = 500000000ULL;
	return 0;
}

/* a spectrogram on the screen: a sample every 500 ms of event time (the
 * reference's colors assume 2 a second), files included (replayed sample
 * by sample, each a line) */
int app_spectro_replay(struct app *a)
{
	return app_view(a)->type == VIEW_SPECTRO && !a->o.raw;
}

uint64_t app_time_delta(struct app *a)
{
	if (a->o.ninputs == 0)
		return a->table.refresh_ns;
	return a->last_ts - a->first_ts;
}

/* the end of the files: the reference ends two samples there (the first
 * one is empty for tables, lists show their rows both times) */
static void end_of_files(struct app *a, int print)
{
	struct sinsp_evt *e = a->have_evt ? &a->evt : NULL;

	if (app_spectro_replay(a)) {	/* the last line: what is left */
		table_flush(&a->table, e);
		a->eof = 1;
		return;
	}
	for (int k = 0; k < 2; k++) {
		table_flush(&a->table, e);
		if (print)
			table_print_raw(&a->table, stdout, app_time_delta(a));
	}
	a->eof = 1;
}

/* events the reference's views never see: state-only ones and the
 * container metadata events of files (checked with a view counting types) */
static int skipped_event(const struct sinsp_evt *e)
{
	uint16_t t = e->scap.type;

	return (e->scap.dump_flags & SCAP_DF_STATE_ONLY) || t == PPME_CONTAINER_E ||
	       t == PPME_CONTAINER_X || t == PPME_CONTAINER_JSON_E || t == PPME_CONTAINER_JSON_2_E ||
	       ppm_event_is_ext(t);	/* our stack events: state (sysdig 0.29.3 skips them) */
}

int app_step(struct app *a, int n)
{
	int sample = 0;

	if (a->eof)
		return 2;
	for (int i = 0; i < n; i++) {
		int rc = sinsp_next(a->s, &a->evt);

		if (rc == SCAP_TIMEOUT)
			return sample;
		if (rc == SCAP_EOF || (a->o.max_events && a->nevents >= a->o.max_events)) {
			if (rc == SCAP_EOF && a->o.ninputs && a->input + 1 < a->o.ninputs &&
			    !(a->o.max_events && a->nevents >= a->o.max_events)) {
				/* the next file: a new state, the same table */
				struct sinsp *old = a->s;

				a->input++;
				a->s = NULL;
				if (open_input(a) < 0) {
					a->s = old;
					return -1;
				}
				sinsp_close(old);
				a->table.s = a->s;
				a->have_evt = 0;
				continue;
			}
			if (a->o.ninputs == 0) {
				a->eof = 1;
				return 2;
			}
			end_of_files(a, a->o.raw && a->text == TEXT_NONE);
			return 2;
		}
		if (rc != SCAP_SUCCESS) {
			snprintf(a->err, sizeof(a->err), "%s", a->s->err[0] ? a->s->err : "error reading events");
			return -1;
		}
		if (skipped_event(&a->evt))
			continue;
		a->have_evt = 1;
		a->nevents++;
		if (a->first_ts == 0)
			a->first_ts = a->evt.scap.ts;
		a->last_ts = a->evt.scap.ts;
		if (a->text != TEXT_NONE) {
			app_text_event(a, &a->evt);
			continue;
		}
		if ((a->o.ninputs == 0 || app_spectro_replay(a)) &&
		    a->evt.scap.ts > a->table.next_flush_ns) {
			table_flush(&a->table, &a->evt);
			if (a->o.raw)
				table_print_raw(&a->table, stdout, app_time_delta(a));
			sample = 1;
		}
		table_process(&a->table, &a->evt);
		if (sample && a->o.ninputs)
			return sample;	/* a replayed sample: one at a time */
	}
	return sample;
}

static void free_level(struct level *l)
{
	free(l->field);
	free(l->value);
	free(l->view_filter);
	free(l->manual_filter);
	memset(l, 0, sizeof(*l));
}

/* the view a drill-down on field lands in */
static struct view *drilldown_view(struct app *a, const char *field)
{
	struct view *cur = app_view(a);
	struct view *t = cur->drilldown_target ? view_find(&a->views, cur->drilldown_target) : NULL;

	if (t && view_applies_to(t, field))
		return t;
	for (size_t i = 0; i < a->views.n; i++)
		if (&a->views.v[i] != cur && view_applies_to(&a->views.v[i], field))
			return &a->views.v[i];
	return NULL;
}

int app_drilldown(struct app *a, const struct row *r)
{
	struct view *next;

	if (a->table.is_list || !r)
		return -1;
	next = drilldown_view(a, table_key_col(&a->table)->ref.name);
	if (!next)
		return -1;
	return app_drilldown_into(a, r, next);
}

int app_drilldown_into(struct app *a, const struct row *r, struct view *next)
{
	const struct table_col *k = table_key_col(&a->table);
	struct view *cur = app_view(a);
	struct level *l = &a->stack[a->depth];
	char buf[4096];

	if (a->table.is_list || a->depth + 1 >= MAX_DEPTH || !r)
		return -1;
	l->field = strdup(k->ref.name);
	l->value = strdup(table_key_string(&a->table, r, buf, sizeof(buf)));
	l->view_filter = cur->propagate_filter && cur->filter ? strdup(cur->filter) : NULL;
	l->sort_col = a->table.sort_col;
	l->sort_ascending = a->table.sort_ascending;
	l->manual_filter = strdup(a->manual_filter);
	l->manual_is_sysdig = a->manual_is_sysdig;
	a->manual_filter[0] = 0;
	a->manual_is_sysdig = 0;
	a->depth++;
	a->stack[a->depth].view = next;
	return app_start(a);
}

int app_drillup(struct app *a)
{
	struct level *l;
	int rc;

	if (a->depth == 0)
		return 1;
	free_level(&a->stack[a->depth]);
	a->depth--;
	l = &a->stack[a->depth];
	snprintf(a->manual_filter, sizeof(a->manual_filter), "%s", l->manual_filter ? l->manual_filter : "");
	a->manual_is_sysdig = l->manual_is_sysdig;
	free(l->field);
	free(l->value);
	free(l->view_filter);
	free(l->manual_filter);
	l->field = l->value = l->view_filter = l->manual_filter = NULL;
	rc = app_start(a);
	if (rc == 0 && l->sort_col >= 0 && (size_t)l->sort_col < table_nvals(&a->table)) {
		a->table.sort_col = l->sort_col;
		a->table.sort_ascending = l->sort_ascending;
	}
	return rc;
}

int app_switch_view(struct app *a, struct view *v)
{
	a->stack[a->depth].view = v;
	return app_start(a);
}

void app_close(struct app *a)
{
	app_text_stop(a);
	if (a->have_table)
		table_free(&a->table);
	a->have_table = 0;
	close_input(a);
	for (int i = 0; i <= a->depth; i++)
		free_level(&a->stack[i]);
	view_set_free(&a->views);
	if (a->log)
		fclose(a->log);
	a->log = NULL;
}
