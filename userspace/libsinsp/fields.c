/*
 * fields.c - field parsing and extraction (fields.h) for syscall captures:
 * evt.*, proc.*, thread.*, fd.*, fdlist.*, user.*, group.*, syslog.*,
 * container.*.  The catalogue lives in fields_catalogue.c; rendering of
 * event parameters in render.c.  Extraction never allocates: strings point
 * into the event, the state, v->buf or a few reused scratch buffers.
 *
 * Value conventions of struct field_value: integers (all INT/UINT, BOOL,
 * PORT, RELTIME, ABSTIME) are in both i and u; DOUBLE in d; strings and
 * byte buffers in str/len; IPv4/IPv6 addresses in ip (u also holds an IPv4
 * address as a network-order uint32).
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <inttypes.h>
#include <netdb.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "fields_internal.h"
#include "plugin.h"
#include "stacks.h"
#include "sinsp_int.h"
#include "format.h"
#include "render.h"
#include "tracer.h"

#define NS_PER_S ((uint64_t)1000000000)

/* ------------------------------------------------------------ parsing */

static int is_ident(int c)
{
	return isalnum(c) || c == '_';
}

/* parameter name lookup over all events: 1 if some event has it */
static int param_name_known(const char *name, size_t len)
{
	for (int t = 0; t < PPM_EVENT_MAX; t++) {
		const struct ppm_event_info *ei = &g_event_info[t];

		for (uint32_t j = 0; j < ei->nparams; j++)
			if (ei->params[j].name && strlen(ei->params[j].name) == len &&
			    memcmp(ei->params[j].name, name, len) == 0)
				return 1;
	}
	return 0;
}

/* the first parameter definition with that name (evt.rawarg type) */
static const struct ppm_param_info *param_def_by_name(const char *name)
{
	for (int t = 0; t < PPM_EVENT_MAX; t++) {
		const struct ppm_event_info *ei = &g_event_info[t];

		for (uint32_t j = 0; j < ei->nparams; j++)
			if (ei->params[j].name && strcmp(ei->params[j].name, name) == 0)
				return &ei->params[j];
	}
	return NULL;
}

/* ".NAME" argument: longest known parameter name */
static int parse_param_name(const char *t, struct field_ref *out, char *err, size_t errlen)
{
	size_t n = 0;

	if (t[0] != '.')
		return -1;
	while (is_ident((unsigned char)t[1 + n]))
		n++;
	for (size_t k = n; k > 0; k--) {
		if (param_name_known(t + 1, k) && k < sizeof(out->arg_name)) {
			memcpy(out->arg_name, t + 1, k);
			out->arg_name[k] = 0;
			return (int)(1 + k);
		}
	}
	snprintf(err, errlen, "unknown event argument %.*s", (int)n, t + 1);
	return -2;
}

/* "[N]" argument */
static int parse_index(const char *t, struct field_ref *out)
{
	char *end;
	long long v;

	if (t[0] != '[')
		return -1;
	v = strtoll(t + 1, &end, 10);
	if (end == t + 1 || *end != ']')
		return -1;
	out->arg_index = v;
	out->has_arg = 1;
	return (int)(end + 1 - t);
}

/* "[N]" argument of evt.arg and evt.around, with the reference's errors:
 * N must be an optionally signed decimal; without a ']' the rest of the
 * text is N and, when valid, nothing is consumed (unrecognized field) */
static int parse_checked_index(const char *t, struct field_ref *out, char *err, size_t errlen)
{
	const char *close = strchr(t + 1, ']');
	size_t n = close ? (size_t)(close - t - 1) : strlen(t + 1);
	size_t i = (t[1] == '+' || t[1] == '-') ? 1 : 0;
	int valid = n > i;

	for (; i < n; i++)
		valid = valid && isdigit((unsigned char)t[1 + i]);
	if (!valid) {
		snprintf(err, errlen, "%.*s is not a valid number", (int)n, t + 1);
		return -1;
	}
	if (!close) {
		out->flags |= FIELD_NAME_ONLY;
		return 0;
	}
	out->arg_index = strtoll(t + 1, NULL, 10);
	out->has_arg = 1;
	return (int)(n + 2);
}

/* "[text]" argument kept as a string */
static int parse_bracket_string(const char *t, struct field_ref *out)
{
	const char *e;

	if (t[0] != '[' || !(e = strchr(t, ']')) || (size_t)(e - t - 1) >= sizeof(out->arg_name))
		return -1;
	memcpy(out->arg_name, t + 1, (size_t)(e - t - 1));
	out->arg_name[e - t - 1] = 0;
	out->has_arg = 1;
	out->arg_index = strtoll(out->arg_name, NULL, 10);
	return (int)(e + 1 - t);
}

/* ".word" argument (letters, digits, '_', '-', '.', '/') */
static int parse_dot_word(const char *t, struct field_ref *out, int allow_dots)
{
	size_t n = 0;

	if (t[0] != '.')
		return -1;
	while (is_ident((unsigned char)t[1 + n]) || t[1 + n] == '-' ||
	       (allow_dots && (t[1 + n] == '.' || t[1 + n] == '/')))
		n++;
	if (n == 0 || n >= sizeof(out->arg_name))
		return -1;
	memcpy(out->arg_name, t + 1, n);
	out->arg_name[n] = 0;
	out->has_arg = 1;
	return (int)(1 + n);
}

/* evt.type.is suffix: a decimal event id or the name of an event */
static int type_is_arg_valid(const char *a)
{
	size_t n = strspn(a, "0123456789");

	if (n > 0 && a[n] == 0)
		return 1;
	for (int id = 0; id < PPM_EVENT_MAX; id++)
		if (g_event_info[id].name && strcmp(g_event_info[id].name, a) == 0)
			return 1;
	return 0;
}

/* argument syntax per field; returns chars consumed (0 if none), -1 with
 * err set, or SYNTAX_ERROR ("filter syntax error: TEXT") */
#define SYNTAX_ERROR (-3)
static int parse_arg(const char *t, struct field_ref *out, char *err, size_t errlen)
{
	int r;

	switch (out->id) {
	case F_EVT_ARG:
		if (t[0] == '[')
			return parse_checked_index(t, out, err, errlen);
		r = parse_param_name(t, out, err, errlen);
		if (r == -2)
			return -1;
		if (r < 0)
			goto bad;
		out->has_arg = 1;
		out->arg_index = -1;
		return r;
	case F_EVT_RAWARG: {
		const struct ppm_param_info *pi;

		if (t[0] == '[') {
			snprintf(err, errlen, "evt.arg fields must be expressed explicitly");
			return -1;
		}
		r = parse_param_name(t, out, err, errlen);
		if (r == -2)
			return -1;
		if (r < 0)
			goto bad;
		out->has_arg = 1;
		out->arg_index = -1;
		pi = param_def_by_name(out->arg_name);
		if (pi)
			out->type = pi->type == PT_DYN ? PT_UINT64 : pi->type;
		return r;
	}
	case F_EVT_TYPE_IS:
	case F_THREAD_CGROUP:
		r = parse_dot_word(t, out, 0);
		if (r < 0)
			goto bad;
		if (out->id == F_EVT_TYPE_IS && !type_is_arg_valid(out->arg_name)) {
			out->flags |= FIELD_NAME_ONLY;	/* unrecognized field */
			out->has_arg = 0;
			return 0;
		}
		return r;
	case F_EVT_ABSPATH:
		if (strncmp(t, ".src", 4) == 0 || strncmp(t, ".dst", 4) == 0) {
			memcpy(out->arg_name, t + 1, 3);
			out->arg_name[3] = 0;
			out->has_arg = 1;
			return 4;
		}
		return 0;
	case F_PROC_APID:
	case F_PROC_ANAME:
		/* as the reference: "[N]" ([-1] = no index); anything else
		 * after the name consumes nothing (the filter then reports an
		 * unrecognized field, -p prints the text again after the value) */
		if (t[0] == 0)
			return 0;
		r = parse_index(t, out);
		if (r < 0) {
			out->flags |= FIELD_NAME_ONLY;
			return 0;
		}
		if (out->arg_index == -1)
			out->has_arg = 0;
		return r;
	case F_EVT_AROUND:
		if (t[0] != '[')
			return SYNTAX_ERROR;
		return parse_checked_index(t, out, err, errlen);
	case F_K8S_POD_LABEL: case F_K8S_RC_LABEL: case F_K8S_SVC_LABEL: case F_K8S_NS_LABEL:
	case F_K8S_RS_LABEL: case F_K8S_DEPLOYMENT_LABEL: case F_MESOS_TASK_LABEL:
	case F_MARATHON_APP_LABEL:	/* only ".label.KEY" */
		if (t[0] == '[')
			goto bad;
		break;
	case F_CONTAINER_MOUNT: case F_CONTAINER_MOUNT_SOURCE: case F_CONTAINER_MOUNT_DEST:
	case F_CONTAINER_MOUNT_MODE: case F_CONTAINER_MOUNT_RDWR:
	case F_CONTAINER_MOUNT_PROPAGATION:	/* only "[N]" or "[PATH]" */
		if (t[0] == '.')
			goto bad;
		break;
	case F_SPAN_TAG: case F_SPAN_ARG: case F_SPAN_ENTERARG: case F_EVTIN_SPAN_TAG: case F_EVTIN_SPAN_ARG:
	case F_EVTIN_SPAN_P_TAG: case F_EVTIN_SPAN_P_ARG: case F_EVTIN_SPAN_S_TAG:
	case F_EVTIN_SPAN_S_ARG: case F_EVTIN_SPAN_M_TAG: case F_EVTIN_SPAN_M_ARG:
		if (t[0] == '[') {	/* an index must be a number */
			r = parse_checked_index(t, out, err, errlen);
			/* "[N" without ']': the reference reads N, consumes
			 * nothing (-p prints the text again after the value) */
			if (r == 0)
				out->arg_index = strtoll(t + 1, NULL, 10);
			return r;
		}
		if (t[0] == '.' && out->id == F_SPAN_TAG) {
			snprintf(err, errlen, "invalid syntax for span.tag");
			return -1;
		}
		if (t[0] == '.' && out->id != F_SPAN_ARG && out->id != F_SPAN_ENTERARG) {
			/* evtin: the longest event parameter name, which then
			 * reads the last tag/arg (the reference's index -1) */
			r = parse_param_name(t, out, err, errlen);
			if (r < 0) {
				snprintf(err, errlen, "unknown event argument %s", t + 1);
				return -1;
			}
			out->has_arg = 1;
			out->arg_index = -1;
			return r;
		}
		break;
	default:
		break;
	}
	if (out->flags & FIELD_REQUIRES_ARG) {
		if (t[0] == '[')
			r = parse_bracket_string(t, out);
		else
			r = parse_dot_word(t, out, 1);
		if (r < 0)
			goto bad;
		return r;
	}
	return 0;
bad:
	return SYNTAX_ERROR;
}

/* a field of a loaded plugin: name and an optional [argument] */
static int parse_plugin_field(const char *text, size_t n, int plugin, int field,
			      struct field_ref *out, char *err, size_t errlen)
{
	const struct plugin_field *pf = &plugin_at(plugin)->fields[field];
	size_t total = n;

	memset(out, 0, sizeof(*out));
	out->id = FIELD_ID_PLUGIN;
	out->plugin = plugin;
	out->plugin_field = field;
	out->type = pf->type == PLUGIN_FIELD_UINT64 ? PT_UINT64 : PT_CHARBUF;
	out->arg_index = -1;
	if (text[n] == '[') {
		const char *close = strchr(text + n + 1, ']');
		size_t alen = close ? (size_t)(close - text - n - 1) : 0;

		if (!close || alen >= sizeof(out->arg_name)) {
			snprintf(err, errlen, "invalid field argument in %s", text);
			return -1;
		}
		memcpy(out->arg_name, text + n + 1, alen);
		out->arg_name[alen] = 0;
		out->has_arg = 1;
		total += alen + 2;
	} else if (pf->arg_required) {
		snprintf(err, errlen, "filter syntax error: %s", text);
		return -1;
	}
	if (total >= sizeof(out->name)) {
		snprintf(err, errlen, "field name too long: %s", text);
		return -1;
	}
	memcpy(out->name, text, total);
	out->name[total] = 0;
	return (int)total;
}

/* span.* and evtin.* fields that need the spans matched: with one of them
 * in a filter, format or chisel, every enter is kept until its exit
 * (tracer.h) and the span.* ones have no value on an event without its span */
static int span_needs_tracking(int id)
{
	switch (id) {
	case F_SPAN_DURATION: case F_SPAN_DURATION_QUANTIZED: case F_SPAN_DURATION_HUMAN:
	case F_SPAN_DURATION_FORTAG: case F_SPAN_ARG: case F_SPAN_ARGS: case F_SPAN_ENTERARG:
	case F_SPAN_ENTERARGS: case F_SPAN_IDTAG: case F_SPAN_TIME: case F_SPAN_RAWTIME:
	case F_SPAN_RAWPARENTTIME:
		return 1;
	default:
		return id >= F_EVTIN_SPAN_ID && id <= F_EVTIN_SPAN_M_ARG;
	}
}

int field_parse(const char *text, struct field_ref *out, char *err, size_t errlen)
{
	const struct field_def *best = NULL;
	size_t bestlen = 0, pn;
	int r, plugin = -1, pfield = -1;

	for (size_t k = 0; k < g_field_ndefs; k++) {
		size_t n = strlen(g_field_defs[k].name);

		if (n > bestlen && strncmp(text, g_field_defs[k].name, n) == 0) {
			best = &g_field_defs[k];
			bestlen = n;
		}
	}
	pn = plugin_count() ? plugin_field_lookup(text, &plugin, &pfield) : 0;
	if (pn > bestlen)
		return parse_plugin_field(text, pn, plugin, pfield, out, err, errlen);
	if (!best)
		return 0;
	memset(out, 0, sizeof(*out));
	out->def = best;
	out->id = best->id;
	out->type = best->type;
	out->flags = best->flags & (FIELD_FILTER_ONLY | FIELD_PRINT_ONLY | FIELD_REQUIRES_ARG);
	out->arg_index = -1;
	r = parse_arg(text + bestlen, out, err, errlen);
	if (r == SYNTAX_ERROR ||
	    (r == 0 && (out->flags & FIELD_REQUIRES_ARG) && !(out->flags & FIELD_NAME_ONLY) &&
	     !out->has_arg && out->id != F_EVT_ABSPATH)) {
		/* the reference names the whole rest of the text */
		snprintf(err, errlen, "filter syntax error: %s", text);
		return -1;
	}
	if (r < 0) {
		if (!err[0])
			snprintf(err, errlen, "invalid field argument in %s", text);
		return -1;
	}
	size_t total = bestlen + (size_t)r;

	if (total >= sizeof(out->name))
		total = sizeof(out->name) - 1;
	memcpy(out->name, text, total);
	out->name[total] = 0;
	if (span_needs_tracking(out->id))
		g_tracer_track = 1;
	return (int)(bestlen + (size_t)r);
}

size_t field_catalogue(const struct field_info **out)
{
	static struct field_info *cat;

	if (!cat) {
		cat = calloc(g_field_ndefs, sizeof(*cat));
		if (!cat)
			return 0;
		for (size_t k = 0; k < g_field_ndefs; k++) {
			cat[k].cls = g_field_defs[k].cls;
			cat[k].name = g_field_defs[k].name;
			cat[k].type = g_field_defs[k].type;
			cat[k].flags = g_field_defs[k].flags;
			cat[k].description = g_field_defs[k].description;
		}
	}
	*out = cat;
	return g_field_ndefs;
}

/* --------------------------------------------------------- value setters */

static int set_u(struct field_value *v, uint8_t type, uint64_t u)
{
	v->type = type;
	v->u = u;
	v->i = (int64_t)u;
	return 1;
}

static int set_i(struct field_value *v, uint8_t type, int64_t i)
{
	v->type = type;
	v->i = i;
	v->u = (uint64_t)i;
	return 1;
}

/* a nanoseconds part, printed as 9 padded digits in text output */
static int set_pad9(struct field_value *v, uint8_t type, uint64_t u)
{
	set_u(v, type, u);
	v->pad9 = 1;
	return 1;
}

static int set_str(struct field_value *v, const char *s, size_t len)
{
	v->type = PT_CHARBUF;
	v->str = s ? s : "";
	v->len = s ? (uint32_t)len : 0;
	return 1;
}

static int set_cstr(struct field_value *v, const char *s)
{
	return s ? set_str(v, s, strlen(s)) : 0;
}

/* copy into v->buf (truncated to its size) */
static int set_buf(struct field_value *v, const char *s, size_t len)
{
	if (len >= sizeof(v->buf))
		len = sizeof(v->buf) - 1;
	memmove(v->buf, s, len);
	v->buf[len] = 0;
	return set_str(v, v->buf, len);
}

/* large strings (evt.info, proc.env...) go to a small ring of sbufs */
static struct sbuf *scratch(void)
{
	static struct sbuf ring[8];
	static unsigned next;
	struct sbuf *b = &ring[next++ & 7];

	sb_reset(b);
	return b;
}

static int set_sbuf(struct field_value *v, struct sbuf *b)
{
	return set_str(v, b->p ? b->p : "", b->len);
}

/* ------------------------------------------------------------- times */

static void put_2(char *d, unsigned v)
{
	d[0] = (char)('0' + v / 10 % 10);
	d[1] = (char)('0' + v % 10);
}

static void put_9(char *d, uint64_t ns)
{
	for (int k = 8; k >= 0; k--) {
		d[k] = (char)('0' + ns % 10);
		ns /= 10;
	}
}

/* local time of the seconds part, cached per second */
static const struct tm *local_tm(uint64_t ts, char *zone, size_t zlen)
{
	static time_t last = (time_t)-1;
	static struct tm tm;
	static char z[8];
	time_t sec = (time_t)(ts / NS_PER_S);

	if (sec != last) {
		localtime_r(&sec, &tm);
		strftime(z, sizeof(z), "%z", &tm);
		last = sec;
	}
	if (zone)
		snprintf(zone, zlen, "%s", z);
	return &tm;
}

/* "HH:MM:SS[.nnnnnnnnn]" */
static size_t fmt_time(char *d, uint64_t ts, int with_ns)
{
	const struct tm *tm = local_tm(ts, NULL, 0);

	put_2(d, (unsigned)tm->tm_hour);
	d[2] = ':';
	put_2(d + 3, (unsigned)tm->tm_min);
	d[5] = ':';
	put_2(d + 6, (unsigned)tm->tm_sec);
	if (!with_ns)
		return 8;
	d[8] = '.';
	put_9(d + 9, ts % NS_PER_S);
	return 18;
}

/* "YYYY-MM-DD" + sep */
static size_t fmt_date(char *d, uint64_t ts, char sep)
{
	const struct tm *tm = local_tm(ts, NULL, 0);
	int y = tm->tm_year + 1900;

	d[0] = (char)('0' + y / 1000 % 10);
	d[1] = (char)('0' + y / 100 % 10);
	put_2(d + 2, (unsigned)(y % 100));
	d[4] = '-';
	put_2(d + 5, (unsigned)tm->tm_mon + 1);
	d[7] = '-';
	put_2(d + 8, (unsigned)tm->tm_mday);
	d[10] = sep;
	return 11;
}

/* evt.latency.human: "653ns", "3.12us" (2 truncated decimals below 10
 * units), "10us", "100us", "1.44ms", "10ms", "2.50s" */
static size_t fmt_human_ns(char *d, size_t size, uint64_t ns)
{
	static const char *const unit[] = { "ns", "us", "ms", "s" };
	uint64_t div = 1;
	int k = 0;
	int n;

	while (k < 3 && ns >= div * 1000) {
		div *= 1000;
		k++;
	}
	if (k == 0)
		n = snprintf(d, size, "%" PRIu64 "ns", ns);
	else if (ns / div < 10)
		n = snprintf(d, size, "%" PRIu64 ".%02" PRIu64 "%s", ns / div, ns * 100 / div % 100, unit[k]);
	else
		n = snprintf(d, size, "%" PRIu64 "%s", ns / div, unit[k]);
	return (size_t)n;
}

static int set_reltime_str(struct field_value *v, uint64_t delta)
{
	int n = snprintf(v->buf, sizeof(v->buf), "%" PRIu64 ".%09" PRIu64,
			 delta / NS_PER_S, delta % NS_PER_S);

	return set_str(v, v->buf, (size_t)n);
}

static uint64_t g_prev_output_ts;
static int g_have_prev_output;

static int g_quantize_width = -1;

void field_set_quantize_width(int columns)
{
	g_quantize_width = columns;
}

/* 1 + log10(latency) (at most 11) scaled to the screen width; 1 for the
 * -1 wide screen of --raw */
static uint64_t quantize_latency(uint64_t lat)
{
	double l = log10((double)lat);

	if (g_quantize_width <= 0)
		return 1;
	if (l > 11)
		l = 11;
	return (uint64_t)(l * g_quantize_width / 11) + 1;
}

static int extract_outputtime(struct sinsp *s, struct sinsp_evt *e, struct field_value *v)
{
	uint64_t ts = e->scap.ts;
	int n;

	if (s->render.json)
		return set_u(v, PT_ABSTIME, ts);
	switch (s->render.timemode) {
	case 'a':
		n = snprintf(v->buf, sizeof(v->buf), "%" PRIu64 ".%" PRIu64, ts / NS_PER_S,
			     ts % NS_PER_S);
		return set_str(v, v->buf, (size_t)n);
	case 'r':
		return set_reltime_str(v, ts - s->first_ts);
	case 'd':
		/* the thread's latency, as sysdig: 0 after an enter, exit - enter
		 * after an exit, and switch events (which do not touch it) show
		 * the last syscall's */
		return set_reltime_str(v, e->thread ? e->thread->latency : 0);
	case 'D': {
		uint64_t d = g_have_prev_output ? ts - g_prev_output_ts : 0;

		g_prev_output_ts = ts;
		g_have_prev_output = 1;
		return set_reltime_str(v, d);
	}
	default:
		return set_str(v, v->buf, fmt_time(v->buf, ts, 1));
	}
}

/* ------------------------------------------------------------ events */

/* index of the parameter named name in e, or -1 */
static int evt_pindex(const struct sinsp_evt *e, const char *name)
{
	uint32_t n;

	if (!e->info)
		return -1;
	n = e->scap.nparams < e->info->nparams ? e->scap.nparams : e->info->nparams;
	for (uint32_t j = 0; j < n; j++)
		if (strcmp(e->info->params[j].name, name) == 0)
			return (int)j;
	return -1;
}

/* the same for a string literal name (memoised lookup) */
static int evt_pindex_lit(const struct sinsp_evt *e, const char *lit)
{
	int idx;

	if (!e->info)
		return -1;
	idx = evt_param_index(e->scap.type, lit);
	return idx >= 0 && (uint32_t)idx < e->scap.nparams ? idx : -1;
}

static int64_t evt_param_i64(const struct sinsp_evt *e, int idx)
{
	uint8_t t = e->info->params[idx].type;
	uint32_t size = 8;
	uint64_t u;

	switch (t) {
	case PT_INT8: case PT_UINT8: case PT_FLAGS8: case PT_SIGTYPE: size = 1; break;
	case PT_INT16: case PT_UINT16: case PT_FLAGS16: case PT_SYSCALLID: case PT_PORT: size = 2; break;
	case PT_INT32: case PT_UINT32: case PT_FLAGS32: case PT_UID: case PT_GID: case PT_MODE:
	case PT_SIGSET: case PT_BOOL: case PT_IPV4ADDR: size = 4; break;
	default: break;
	}
	u = render_load_u(e->scap.pval[idx], e->scap.plen[idx], size);
	switch (t) {
	case PT_INT8: return (int8_t)u;
	case PT_INT16: return (int16_t)u;
	case PT_INT32: return (int32_t)u;
	default: return (int64_t)u;
	}
}

/* the return value param of an exit event: "res", or the created fd */
static int evt_res_index(const struct sinsp_evt *e)
{
	int idx;

	if (!e->info || ppm_event_is_enter(e->scap.type))
		return -1;
	idx = evt_pindex_lit(e, "res");
	if (idx >= 0)
		return idx;
	if ((e->info->flags & EF_CREATES_FD) && e->scap.nparams > 0 && e->info->nparams > 0 &&
	    e->info->params[0].type == PT_FD)
		return 0;
	return -1;
}

static int is_io(const struct sinsp_evt *e, int rd, int wr)
{
	uint32_t c;

	if (!e->info)
		return 0;
	c = e->info->category;
	return (rd && c == EC_IO_READ) || (wr && c == EC_IO_WRITE);
}

/* evt.is_io*: by the event's reads-from/writes-to-fd flags */
static int io_flags(const struct sinsp_evt *e, uint32_t flags)
{
	return e->info && (e->info->flags & flags) != 0;
}

/* Event 197 (PPME_SYSDIGEVENT_X) is named sysdigevent in sysdig 0.29.3 and
 * passes its syscall.type check; it is never captured, csysdig uses it for the
 * per-thread pass at the end of a sample (userspace/csysdig/table.c). */
#define SYSDIGEVENT_NAME "sysdigevent"

/* evt.category of generic (syscall 0/1) events, indexed by ppm_sc code as
 * the reference prints it (probed with sysdig 0.29.3 on rewritten generic
 * events): o other, f file, n net, I IPC, m memory, p process, s sleep,
 * y system, g signal, u user, t time, w wait, ? unknown */
static const char g_sc_category[] =
	"oyp??fffffftffffpfotfwtf?Ifff?Itmp?wppIf?pppyppttfffppyfffffppff"
	"yttyowyy?yymyyypfypfwf???p?mmmmppppspppsfwpggggggfppfpfuuuuuuuuf"
	"uuuufuuuupmmpffffffffffffgIpppp??????wwwfpttttttttsgfIIIIIIywyyy"
	"ppIIIffffffffffffwwpppIIIpwfgtIttgIw?II??ooIpofpInnnnnnnnnnnnnnn"
	"nnnIIIIIIIIIIffffpogInfffffwgggyfgptfwffpIg???????????????yoo???"
	"ffffyyfpp";

static const char *generic_category(const struct sinsp_evt *e)
{
	static const char codes[] = "ofnImpsygutw";
	static const char *const names[] = { "other", "file", "net", "IPC", "memory", "process",
					     "sleep", "system", "signal", "user", "time", "wait" };
	uint64_t id = e->scap.nparams ? render_load_u(e->scap.pval[0], e->scap.plen[0], 2) : 0;
	const char *c;

	if (id >= sizeof(g_sc_category) - 1 || !(c = strchr(codes, g_sc_category[id])))
		return "unknown";
	return names[c - codes];
}

static const char *category_name(const struct sinsp_evt *e)
{
	if (!e->info)
		return "unknown";
	if (e->scap.type == PPME_GENERIC_E || e->scap.type == PPME_GENERIC_X)
		return generic_category(e);
	switch (e->info->category) {
	case EC_OTHER: return "other";
	case EC_FILE: return "file";
	case EC_NET: return "net";
	case EC_IPC: return "IPC";
	case EC_MEMORY: return "memory";
	case EC_PROCESS: return "process";
	case EC_SLEEP: return "sleep";
	case EC_SYSTEM: return "system";
	case EC_SIGNAL: return "signal";
	case EC_USER: return "user";
	case EC_TIME: return "time";
	case EC_PROCESSING: return "processing";
	case EC_IO_READ:
	case EC_IO_WRITE:
	case EC_IO_OTHER:
		if (e->fdinfo) {
			switch (e->fdinfo->type) {
			case SCAP_FD_FILE: case SCAP_FD_FILE_V2: case SCAP_FD_DIRECTORY:
				return "file";
			case SCAP_FD_IPV4_SOCK: case SCAP_FD_IPV6_SOCK: case SCAP_FD_IPV4_SERVSOCK:
			case SCAP_FD_IPV6_SERVSOCK:
				return "net";
			case SCAP_FD_FIFO: case SCAP_FD_UNIX_SOCK: case SCAP_FD_EVENT:
			case SCAP_FD_SIGNALFD: case SCAP_FD_INOTIFY:
				return "ipc";
			default:
				break;
			}
		}
		return "unknown";
	case EC_WAIT: return "wait";
	case EC_SCHEDULER: return "scheduler";
	case EC_INTERNAL: return "internal";
	default: return "unknown";
	}
}

/* evt.count.error.*: the class of a failed event, by its fd (or, without
 * one, by the kind of fd its syscall creates) */
static int error_class(const struct sinsp_evt *e)
{
	if (e->info && e->info->category == EC_MEMORY)
		return F_EVT_COUNT_ERROR_MEMORY;
	if (e->fdinfo) {
		switch (e->fdinfo->type) {
		case SCAP_FD_FILE: case SCAP_FD_FILE_V2: case SCAP_FD_DIRECTORY:
			return F_EVT_COUNT_ERROR_FILE;
		case SCAP_FD_IPV4_SOCK: case SCAP_FD_IPV6_SOCK: case SCAP_FD_IPV4_SERVSOCK:
		case SCAP_FD_IPV6_SERVSOCK: case SCAP_FD_UNIX_SOCK:
			return F_EVT_COUNT_ERROR_NET;
		default:
			return F_EVT_COUNT_ERROR_OTHER;
		}
	}
	switch (e->scap.type) {
	case PPME_SYSCALL_OPEN_X: case PPME_SYSCALL_CREAT_X: case PPME_SYSCALL_OPENAT_X:
	case PPME_SYSCALL_OPENAT_2_X: case PPME_SYSCALL_OPENAT2_X:
		return F_EVT_COUNT_ERROR_FILE;
	case PPME_SOCKET_ACCEPT_X: case PPME_SOCKET_ACCEPT_5_X: case PPME_SOCKET_ACCEPT4_X:
	case PPME_SOCKET_ACCEPT4_5_X: case PPME_SOCKET_CONNECT_X:
		return F_EVT_COUNT_ERROR_NET;
	default:
		return F_EVT_COUNT_ERROR_OTHER;
	}
}

static int extract_evt_arg(struct sinsp *s, struct sinsp_evt *e, const struct field_ref *f,
			   struct field_value *v)
{
	int idx = f->arg_index >= 0 ? (int)f->arg_index : evt_pindex(e, f->arg_name);
	struct sbuf *val, *res;

	if (!e->info || idx < 0 || (uint32_t)idx >= e->scap.nparams || (uint32_t)idx >= e->info->nparams)
		return 0;
	val = scratch();
	res = scratch();
	render_param(s, e, (uint32_t)idx, s->render.bufmode,
		     s->render.truncate && !s->render.json, val, res);
	return set_sbuf(v, res->len ? res : val);
}

/* evt.type.is.N: the numeric event id N; evt.type.is.NAME: the enter or
 * exit of the first event table entry called NAME (so openat, whose
 * first entry is the old layout, never matches the openat events of the
 * traces: as the reference).  -p never has a value (FIELD_NAME_ONLY). */
static int extract_type_is(const struct sinsp_evt *e, const struct field_ref *f,
			   struct field_value *v)
{
	char *end;
	long num = strtol(f->arg_name, &end, 10);

	if (f->flags & FIELD_NAME_ONLY)
		return 0;
	if (*end == 0 && end != f->arg_name)
		return set_u(v, PT_UINT32, e->scap.type == num);
	for (int id = 0; id < PPM_EVENT_MAX; id++) {
		if (g_event_info[id].name && strcmp(g_event_info[id].name, f->arg_name) == 0)
			return set_u(v, PT_UINT32, e->scap.type == id || e->scap.type == id + 1);
	}
	return set_u(v, PT_UINT32, 0);
}

static int extract_evt_rawarg(struct sinsp_evt *e, const struct field_ref *f, struct field_value *v)
{
	int idx = evt_pindex(e, f->arg_name);
	const uint8_t *p;
	uint32_t len;

	if (idx < 0)
		return 0;
	p = e->scap.pval[idx];
	len = e->scap.plen[idx];
	switch (f->type) {
	case PT_CHARBUF: case PT_FSPATH: case PT_FSRELPATH: {
		const uint8_t *z = memchr(p, 0, len);

		set_str(v, (const char *)p, z ? (size_t)(z - p) : len);
		v->type = f->type;
		return 1;
	}
	case PT_BYTEBUF: {	/* printed as a C string, up to the first NUL */
		const uint8_t *z = memchr(p, 0, len);

		set_str(v, (const char *)p, z ? (size_t)(z - p) : len);
		v->rawlen = len;	/* chisels get every byte */
		return 1;
	}
	case PT_SOCKADDR: case PT_SOCKTUPLE: case PT_FDLIST:
		v->type = f->type;
		v->str = (const char *)p;
		v->len = len;
		return 1;
	case PT_INT8: return set_i(v, f->type, (int8_t)render_load_u(p, len, 1));
	case PT_INT16: return set_i(v, f->type, (int16_t)render_load_u(p, len, 2));
	case PT_INT32: return set_i(v, f->type, (int32_t)render_load_u(p, len, 4));
	case PT_INT64: case PT_ERRNO: case PT_FD: case PT_PID:
		return set_i(v, f->type, (int64_t)render_load_u(p, len, 8));
	case PT_UINT8: case PT_FLAGS8: case PT_SIGTYPE: case PT_L4PROTO: case PT_SOCKFAMILY:
		return set_u(v, f->type, render_load_u(p, len, 1));
	case PT_UINT16: case PT_FLAGS16: case PT_SYSCALLID: case PT_PORT:
		return set_u(v, f->type, render_load_u(p, len, 2));
	case PT_UINT32: case PT_FLAGS32: case PT_UID: case PT_GID: case PT_MODE: case PT_SIGSET:
	case PT_BOOL:
		return set_u(v, f->type, render_load_u(p, len, 4));
	default:
		return set_u(v, f->type, render_load_u(p, len, 8));
	}
}

static int extract_abspath(struct sinsp *s, struct sinsp_evt *e, const struct field_ref *f,
			   struct field_value *v);

static int extract_evt(struct sinsp *s, struct sinsp_evt *e, const struct field_ref *f,
		       struct field_value *v)
{
	uint64_t ts = e->scap.ts;
	int enter = ppm_event_is_enter(e->scap.type);
	int idx;
	struct sbuf *b;
	int n;

	switch (f->id) {
	case F_EVT_NUM: return set_u(v, PT_UINT64, e->num);
	case F_EVT_TIME:
		if (s->render.json)
			return set_u(v, PT_ABSTIME, ts);
		return set_str(v, v->buf, fmt_time(v->buf, ts, 1));
	case F_EVT_TIME_S: return set_str(v, v->buf, fmt_time(v->buf, ts, 0));
	case F_EVT_TIME_ISO8601: {
		char z[8];
		size_t k = fmt_date(v->buf, ts, 'T');

		k += fmt_time(v->buf + k, ts, 1);
		local_tm(ts, z, sizeof(z));
		n = snprintf(v->buf + k, sizeof(v->buf) - k, "%s", z);
		return set_str(v, v->buf, k + (size_t)n);
	}
	case F_EVT_DATETIME:
		if (s->render.json)
			return set_u(v, PT_ABSTIME, ts);
		n = (int)fmt_date(v->buf, ts, ' ');
		return set_str(v, v->buf, (size_t)n + fmt_time(v->buf + n, ts, 1));
	case F_EVT_DATETIME_S:
		n = (int)fmt_date(v->buf, ts, ' ');
		return set_str(v, v->buf, (size_t)n + fmt_time(v->buf + n, ts, 0));
	case F_EVT_RAWTIME: return set_u(v, PT_ABSTIME, ts);
	case F_EVT_RAWTIME_S: return set_u(v, PT_ABSTIME, ts / NS_PER_S);
	case F_EVT_RAWTIME_NS: return set_pad9(v, PT_ABSTIME, ts % NS_PER_S);
	case F_EVT_RELTIME:	/* printed with at least 9 digits, as the reference */
		return set_pad9(v, PT_RELTIME, ts - s->first_ts);
	case F_EVT_RELTIME_S: return set_u(v, PT_RELTIME, (ts - s->first_ts) / NS_PER_S);
	case F_EVT_RELTIME_NS: return set_pad9(v, PT_RELTIME, (ts - s->first_ts) % NS_PER_S);
	case F_EVT_OUTPUTTIME: return extract_outputtime(s, e, v);
	case F_EVT_LATENCY:
	case F_EVT_LATENCY_S:
	case F_EVT_LATENCY_NS:
	case F_EVT_LATENCY_HUMAN:
	case F_EVT_LATENCY_QUANTIZED: {
		/* the synthetic event 197 (csysdig) has no latency of its own */
		uint64_t lat = e->thread && e->scap.type != PPME_SYSDIGEVENT_X ? e->thread->latency : 0;

		/* events outside the parser's bookkeeping (procinfo...) of a
		 * known thread have no latency */
		if (e->thread && e->info && (e->info->flags & EF_SKIPPARSERESET))
			return 0;

		if (f->id == F_EVT_LATENCY_S)
			return set_u(v, PT_RELTIME, lat / NS_PER_S);
		if (f->id == F_EVT_LATENCY_NS)
			return set_pad9(v, PT_RELTIME, lat % NS_PER_S);
		if (f->id == F_EVT_LATENCY_QUANTIZED)
			return lat ? set_u(v, PT_UINT64, quantize_latency(lat)) : 0;
		/* an event without a thread has latency 0 (the reference repeats
		 * its last text there: README "where we differ") */
		if (f->id == F_EVT_LATENCY_HUMAN)
			return set_str(v, v->buf, fmt_human_ns(v->buf, sizeof(v->buf), lat));
		return set_u(v, PT_RELTIME, lat);
	}
	case F_EVT_DELTATIME:
	case F_EVT_DELTATIME_S:
	case F_EVT_DELTATIME_NS: {
		/* since the previous extraction through the same reference;
		 * JSON output extracts twice, so it always shows 0 */
		uint64_t *prev = &((struct field_ref *)f)->state;
		uint64_t d = *prev && ts >= *prev && !s->render.json ? ts - *prev : 0;

		*prev = ts;
		if (f->id == F_EVT_DELTATIME_S)
			return set_u(v, PT_RELTIME, d / NS_PER_S);
		if (f->id == F_EVT_DELTATIME_NS)
			return set_pad9(v, PT_RELTIME, d % NS_PER_S);
		return set_u(v, PT_RELTIME, d);
	}
	case F_EVT_DIR: return set_str(v, enter ? ">" : "<", 1);
	case F_EVT_TYPE:
		if (e->scap.type == PPME_SYSDIGEVENT_X)
			return set_cstr(v, SYSDIGEVENT_NAME);
		return set_cstr(v, render_evt_type(e));
	case F_EVT_PLUGINNAME: {
		const struct plugin *p = plugin_of_event(&e->scap);

		return p ? set_cstr(v, p->name) : 0;
	}
	case F_EVT_PLUGININFO: {
		const char *info = plugin_event_info(&e->scap);

		return info ? set_cstr(v, info) : 0;
	}
	case F_EVT_ABSPATH: return extract_abspath(s, e, f, v);
	case F_EVT_TYPE_IS:
		return extract_type_is(e, f, v);
	case F_SYSCALL_TYPE:
		if (e->scap.type == PPME_SYSDIGEVENT_X)
			return set_cstr(v, SYSDIGEVENT_NAME);
		/* the reference also leaves out EF_SKIPPARSERESET events (container) */
		if (!e->info || (e->info->category & (EC_INTERNAL | EC_SCHEDULER)) ||
		    (e->info->flags & EF_SKIPPARSERESET))
			return 0;
		return set_cstr(v, render_evt_type(e));
	case F_EVT_CATEGORY: return set_cstr(v, category_name(e));
	case F_EVT_CPU: return set_i(v, PT_INT16, e->scap.cpuid);
	case F_EVT_ARGS:
	case F_EVT_INFO:
		b = scratch();
		render_evt_info(s, e, s->render.bufmode, s->render.truncate && !s->render.json, b);
		return set_sbuf(v, b);
	case F_EVT_STACK:
	case F_EVT_KSTACK:
		b = scratch();
		if (!stacks_render(s, e, f->id == F_EVT_KSTACK, b))
			return 0;
		return set_sbuf(v, b);
	case F_EVT_ARG: return extract_evt_arg(s, e, f, v);
	case F_EVT_RAWARG: return extract_evt_rawarg(e, f, v);
	case F_EVT_BUFFER:
		idx = evt_pindex_lit(e, "data");
		if (idx < 0 || e->info->params[idx].type != PT_BYTEBUF)
			return 0;
		v->type = PT_BYTEBUF;
		v->str = (const char *)e->scap.pval[idx];
		v->len = e->scap.plen[idx];
		return 1;
	case F_EVT_BUFLEN:	/* I/O events (read, write, other) on a known fd */
		if (!e->fdinfo || !e->info || enter || (idx = evt_res_index(e)) < 0 ||
		    (e->info->category != EC_IO_READ && e->info->category != EC_IO_WRITE &&
		     e->info->category != EC_IO_OTHER))
			return 0;
		{
			int64_t r = evt_param_i64(e, idx);

			if (r < 0)
				return 0;
			return set_u(v, PT_UINT64, (uint64_t)r);
		}
	case F_EVT_RES:
		if ((idx = evt_res_index(e)) < 0)
			return 0;
		{
			int64_t r = evt_param_i64(e, idx);
			const char *nm;

			if (r >= 0)
				return set_str(v, "SUCCESS", 7);
			nm = render_errno_name(r);
			if (nm)
				return set_cstr(v, nm);
			n = snprintf(v->buf, sizeof(v->buf), "%" PRId64, r);
			return set_str(v, v->buf, (size_t)n);
		}
	case F_EVT_RAWRES:
		if ((idx = evt_res_index(e)) < 0)
			return 0;
		return set_i(v, PT_INT64, evt_param_i64(e, idx));
	case F_EVT_FAILED:
	case F_EVT_COUNT_ERROR:
	case F_EVT_COUNT_ERROR_FILE:
	case F_EVT_COUNT_ERROR_NET:
	case F_EVT_COUNT_ERROR_MEMORY:
	case F_EVT_COUNT_ERROR_OTHER: {
		int failed = (idx = evt_res_index(e)) >= 0 && evt_param_i64(e, idx) < 0;

		if (f->id == F_EVT_FAILED)
			return set_u(v, PT_BOOL, (uint64_t)failed);
		if (f->id != F_EVT_COUNT_ERROR && failed)
			failed = error_class(e) == f->id;
		return failed ? set_u(v, PT_UINT32, 1) : 0;
	}
	case F_EVT_IS_IO: return set_u(v, PT_BOOL, (uint64_t)io_flags(e, EF_READS_FROM_FD | EF_WRITES_TO_FD));
	case F_EVT_IS_IO_READ: return set_u(v, PT_BOOL, (uint64_t)io_flags(e, EF_READS_FROM_FD));
	case F_EVT_IS_IO_WRITE: return set_u(v, PT_BOOL, (uint64_t)io_flags(e, EF_WRITES_TO_FD));
	case F_EVT_IO_DIR:
		if (io_flags(e, EF_WRITES_TO_FD))
			return set_str(v, "write", 5);
		if (io_flags(e, EF_READS_FROM_FD))
			return set_str(v, "read", 4);
		return 0;
	case F_EVT_IS_WAIT: return set_u(v, PT_BOOL, e->info && (e->info->flags & EF_WAITS));
	case F_EVT_WAIT_LATENCY:	/* exits of waiting syscalls (EF_WAITS) */
		if (enter || !e->thread || !e->info || !(e->info->flags & EF_WAITS))
			return 0;
		return set_u(v, PT_RELTIME, e->thread->latency);
	case F_EVT_IS_SYSLOG:
		return set_u(v, PT_BOOL, io_flags(e, EF_WRITES_TO_FD) && e->fdinfo &&
			     strstr(e->fdinfo->name, "/dev/log"));
	case F_EVT_COUNT: return set_u(v, PT_UINT32, 1);
	case F_EVT_COUNT_EXIT: return enter ? 0 : set_u(v, PT_UINT32, 1);
	case F_EVT_COUNT_PROCINFO:	/* procinfo of a main thread */
		if (e->scap.type != PPME_PROCINFO_E || !e->thread || e->thread->tid != e->thread->pid)
			return 0;
		return set_u(v, PT_UINT32, 1);
	case F_EVT_COUNT_THREADINFO:
		return e->scap.type == PPME_PROCINFO_E ? set_u(v, PT_UINT32, 1) : 0;
	case F_EVT_BUFLEN_IN: case F_EVT_BUFLEN_OUT: case F_EVT_BUFLEN_FILE:
	case F_EVT_BUFLEN_FILE_IN: case F_EVT_BUFLEN_FILE_OUT: case F_EVT_BUFLEN_NET:
	case F_EVT_BUFLEN_NET_IN: case F_EVT_BUFLEN_NET_OUT: {
		/* the reference's rules: an exit with an fd, of the I/O category
		 * (read / write exactly for .in / .out, any I/O - dup, fcntl too -
		 * otherwise) on a file (.file*) or an IP socket (.net*); the value
		 * is the return value when >= 0 */
		uint32_t cat = e->info ? e->info->category & 0x1ff : 0;	/* without EC_SYSCALL... */
		int in = f->id == F_EVT_BUFLEN_IN || f->id == F_EVT_BUFLEN_FILE_IN ||
			 f->id == F_EVT_BUFLEN_NET_IN;
		int out = f->id == F_EVT_BUFLEN_OUT || f->id == F_EVT_BUFLEN_FILE_OUT ||
			  f->id == F_EVT_BUFLEN_NET_OUT;
		int file = f->id == F_EVT_BUFLEN_FILE || f->id == F_EVT_BUFLEN_FILE_IN ||
			   f->id == F_EVT_BUFLEN_FILE_OUT;
		int net = f->id == F_EVT_BUFLEN_NET || f->id == F_EVT_BUFLEN_NET_IN ||
			  f->id == F_EVT_BUFLEN_NET_OUT;
		int64_t r;

		if (enter || !e->fdinfo || e->scap.nparams == 0)
			return 0;
		if (in ? cat != EC_IO_READ : out ? cat != EC_IO_WRITE : !(cat & EC_IO_READ))	/* EC_IO_READ: the I/O base bit */
			return 0;
		if (file && e->fdinfo->type != SCAP_FD_FILE && e->fdinfo->type != SCAP_FD_FILE_V2)
			return 0;
		if (net && (e->fdinfo->type < SCAP_FD_IPV4_SOCK || e->fdinfo->type > SCAP_FD_IPV6_SERVSOCK))
			return 0;
		if ((r = evt_param_i64(e, 0)) < 0)
			return 0;
		return set_u(v, PT_UINT64, (uint64_t)r);
	}
	case F_EVT_IS_OPEN_READ:
	case F_EVT_IS_OPEN_WRITE:
	case F_EVT_IS_OPEN_EXEC: {
		uint16_t t = e->scap.type;
		uint64_t fl;

		if (enter || !(t == PPME_SYSCALL_OPEN_X || t == PPME_SYSCALL_OPENAT_X ||
			       t == PPME_SYSCALL_OPENAT_2_X || t == PPME_SYSCALL_OPENAT2_X) ||
		    (idx = evt_pindex_lit(e, "flags")) < 0)
			return set_u(v, PT_BOOL, 0);
		fl = (uint64_t)evt_param_i64(e, idx);
		if (f->id == F_EVT_IS_OPEN_READ)
			return set_u(v, PT_BOOL, (fl & PPM_O_RDONLY) != 0);
		if (f->id == F_EVT_IS_OPEN_WRITE)
			return set_u(v, PT_BOOL, (fl & PPM_O_WRONLY) != 0);
		/* created (O_CREAT, O_TMPFILE) with an exec permission bit */
		idx = evt_pindex_lit(e, "mode");
		return set_u(v, PT_BOOL, (fl & (PPM_O_CREAT | PPM_O_TMPFILE)) && idx >= 0 &&
			     (evt_param_i64(e, idx) & 0111) != 0);
	}
	default:
		return 0;
	}
}

/* ------------------------------------------------------------ process */

static struct sinsp_threadinfo *main_thread(struct sinsp *s, struct sinsp_threadinfo *t)
{
	struct sinsp_threadinfo *m = sinsp_get_main_thread(s, t);

	return m ? m : t;
}

/* NUL-separated list joined with sep, optionally prefixed */
/* subsystem name of a "subsys=path" cgroup entry as the reference shows
 * it: the cgroup v2 "io" controller is called blkio */
static const char *cgroup_subsys(const char *c, size_t n, size_t *len)
{
	const char *eq = memchr(c, '=', n);

	if (!eq)
		return NULL;
	*len = (size_t)(eq - c);
	if (*len == 2 && memcmp(c, "io", 2) == 0) {
		*len = 5;
		return "blkio";
	}
	return c;
}

static void join_list(struct sbuf *b, const char *list, uint32_t len, char sep)
{
	uint32_t i = 0;
	int first = 1;

	while (i < len) {
		const char *z = memchr(list + i, 0, len - i);
		uint32_t n = z ? (uint32_t)(z - (list + i)) : len - i;

		if (!first)
			sb_putc(b, sep);
		sb_put(b, list + i, n);
		first = 0;
		i += n + 1;
	}
}

static struct sinsp_threadinfo *ancestor(struct sinsp *s, struct sinsp_threadinfo *t, int64_t n)
{
	t = main_thread(s, t);
	for (int64_t k = 0; k < n && t; k++) {
		t = sinsp_get_parent(s, t);
		if (t)
			t = main_thread(s, t);
	}
	return t;
}

static int count_fd_cb(struct sinsp_fdinfo *fd, void *arg)
{
	(void)fd;
	(*(uint64_t *)arg)++;
	return 0;
}

/* thread.exectime: on switch events, the time since the previous switch
 * on the same CPU seen by the same field reference (0 for other events) */
static uint64_t switch_exectime(const struct sinsp_evt *e, const struct field_ref *f)
{
	static struct {
		const struct field_ref *ref;
		uint64_t last[256];
	} slot[16];
	uint64_t ts = e->scap.ts, d, *last;
	uint16_t cpu = e->scap.cpuid;
	size_t k;

	if (e->scap.type != PPME_SCHEDSWITCH_1_E && e->scap.type != PPME_SCHEDSWITCH_6_E)
		return 0;
	for (k = 0; k < 16 && slot[k].ref && slot[k].ref != f; k++)
		;
	if (k == 16 || cpu >= 256)
		return 0;
	slot[k].ref = f;
	last = &slot[k].last[cpu];
	d = *last ? ts - *last : 0;
	*last = ts;
	return d;
}

/* thread.cpu*: on procinfo events, the CPU time (user+system, user or
 * system ticks) used since the thread's previous read, at most 100 */
static int extract_thread_cpu(struct sinsp_evt *e, const struct field_ref *f, struct field_value *v)
{
	struct sinsp_threadinfo *t = e->thread;
	uint64_t usr, sys, now, *last;

	if (e->scap.type != PPME_PROCINFO_E || e->scap.nparams < 2)
		return 0;
	usr = render_load_u(e->scap.pval[0], e->scap.plen[0], 8);
	sys = render_load_u(e->scap.pval[1], e->scap.plen[1], 8);
	if (f->id == F_THREAD_CPU_USER) {
		now = usr;
		last = &t->last_cpu_user;
	} else if (f->id == F_THREAD_CPU_SYSTEM) {
		now = sys;
		last = &t->last_cpu_system;
	} else {
		now = usr + sys;
		last = &t->last_cpu_total;
	}
	v->type = PT_DOUBLE;
	v->d = *last ? (double)(now - *last) : 0;
	if (v->d > 100)
		v->d = 100;
	*last = now;
	return 1;
}

static int extract_proc(struct sinsp *s, struct sinsp_evt *e, const struct field_ref *f,
			struct field_value *v)
{
	struct sinsp_threadinfo *t = e->thread, *m, *p;
	struct sbuf *b;

	uint64_t exectime;

	if (f->id == F_THREAD_EXECTIME || f->id == F_THREAD_TOTEXECTIME) {
		exectime = switch_exectime(e, f);
		if (f->id == F_THREAD_EXECTIME)
			return set_u(v, PT_RELTIME, exectime);
		if (!t)
			return 0;
		t->totexectime += exectime;
		return set_u(v, PT_RELTIME, t->totexectime);
	}
	if (!t)	/* unknown thread: only the tid of the event is known */
		return f->id == F_THREAD_TID ? set_i(v, PT_INT64, (int64_t)e->scap.tid) : 0;
	m = main_thread(s, t);
	switch (f->id) {
	case F_PROC_PID: return set_i(v, PT_INT64, t->pid);
	case F_PROC_EXE: return set_cstr(v, t->exe);
	case F_PROC_NAME: return set_cstr(v, t->comm);
	case F_PROC_ARGS:
		b = scratch();
		join_list(b, t->args, t->args_len, ' ');
		return set_sbuf(v, b);
	case F_PROC_ENV:
		b = scratch();
		join_list(b, m->env, m->env_len, ' ');
		return set_sbuf(v, b);
	case F_PROC_CMDLINE:
	case F_PROC_EXELINE:	/* exeline: exe and a space even without args */
		b = scratch();
		sb_puts(b, f->id == F_PROC_CMDLINE ? t->comm : t->exe);
		if (t->args_len || f->id == F_PROC_EXELINE)
			sb_putc(b, ' ');
		join_list(b, t->args, t->args_len, ' ');
		return set_sbuf(v, b);
	case F_PROC_CWD: return set_cstr(v, m->cwd);
	case F_PROC_NTHREADS: return set_u(v, PT_UINT32, m->nchildren + 1);
	case F_PROC_NCHILDS: return set_u(v, PT_UINT32, t->nchildren);
	case F_PROC_PPID: return set_i(v, PT_INT64, m->ptid);
	case F_PROC_PNAME:	/* the parent of the thread itself (its own ptid) */
	case F_PROC_PCMDLINE:
		p = sinsp_get_parent(s, t);
		if (!p)
			return 0;
		if (f->id == F_PROC_PNAME)
			return set_cstr(v, p->comm);
		b = scratch();
		sb_puts(b, p->comm);
		if (p->args_len) {
			sb_putc(b, ' ');
			join_list(b, p->args, p->args_len, ' ');
		}
		return set_sbuf(v, b);
	case F_PROC_APID:
	case F_PROC_ANAME:
		if (!f->has_arg)
			p = m;	/* bare: the process itself (filters check all) */
		else
			p = ancestor(s, t, f->arg_index);
		if (!p)
			return 0;
		if (f->id == F_PROC_APID)
			return set_i(v, PT_INT64, p->pid);
		return set_cstr(v, p->comm);
	case F_PROC_LOGINSHELLID: {
		int64_t id = -1;

		for (p = m; p; p = sinsp_get_parent(s, p)) {
			const char *c = p->comm;

			if (!strcmp(c, "bash") || !strcmp(c, "sh") || !strcmp(c, "zsh") ||
			    !strcmp(c, "ksh") || !strcmp(c, "csh") || !strcmp(c, "tcsh") ||
			    !strcmp(c, "dash"))
				id = p->pid;
			if (p->pid <= 1)
				break;
		}
		if (id < 0)
			return 0;
		return set_i(v, PT_INT64, id);
	}
	case F_PROC_DURATION:	/* per thread, as the reference */
		if (!t->clone_ts)
			return 0;
		return set_u(v, PT_RELTIME, e->scap.ts - t->clone_ts);
	case F_PROC_FDOPENCOUNT: {
		uint64_t c = 0;
		struct sinsp_fdtable *ft = sinsp_thread_fdtable(s, t);

		if (ft)
			sinsp_foreach_fd(ft, count_fd_cb, &c);
		return set_u(v, PT_UINT64, c);
	}
	case F_PROC_FDLIMIT: return set_i(v, PT_INT64, (int64_t)m->fdlimit);
	case F_PROC_FDUSAGE: {
		uint64_t c = 0;
		struct sinsp_fdtable *ft = sinsp_thread_fdtable(s, t);

		if (ft)
			sinsp_foreach_fd(ft, count_fd_cb, &c);
		v->type = PT_DOUBLE;
		v->d = m->fdlimit ? 100.0 * (double)c / (double)m->fdlimit : 0;
		return 1;
	}
	/* the thread's own counters (a switch updates its main thread's) */
	case F_PROC_VMSIZE: return set_u(v, PT_UINT64, t->vmsize_kb);
	case F_PROC_VMRSS: return set_u(v, PT_UINT64, t->vmrss_kb);
	case F_PROC_VMSWAP: return set_u(v, PT_UINT64, t->vmswap_kb);
	case F_THREAD_PFMAJOR: return set_u(v, PT_UINT64, t->pfmajor);
	case F_THREAD_PFMINOR: return set_u(v, PT_UINT64, t->pfminor);
	case F_THREAD_TID: return set_i(v, PT_INT64, t->tid);
	case F_THREAD_ISMAIN: return set_u(v, PT_BOOL, t->tid == t->pid);
	case F_THREAD_CGROUPS:
	case F_THREAD_CGROUP: {
		uint32_t i = 0;
		size_t al = strlen(f->arg_name);

		if (!t->cgroups_len)
			return 0;
		b = scratch();
		while (i < t->cgroups_len) {
			const char *c = t->cgroups + i, *eq;
			size_t n = strnlen(c, t->cgroups_len - i), sl;
			const char *sub = cgroup_subsys(c, n, &sl);

			i += (uint32_t)n + 1;
			if (!sub || !(eq = memchr(c, '=', n)))
				continue;
			if (f->id == F_THREAD_CGROUP) {
				if (sl == al && memcmp(sub, f->arg_name, al) == 0)
					return set_str(v, eq + 1, n - (size_t)(eq + 1 - c));
				continue;
			}
			if (b->len)
				sb_putc(b, ' ');
			sb_put(b, sub, sl);
			sb_put(b, eq, n - (size_t)(eq - c));
		}
		return f->id == F_THREAD_CGROUPS ? set_sbuf(v, b) : 0;
	}
	case F_THREAD_VTID: return t->vtid < 0 ? 0 : set_i(v, PT_INT64, t->vtid);
	case F_PROC_VPID: return t->vpid < 0 ? 0 : set_i(v, PT_INT64, t->vpid);
	case F_THREAD_CPU: case F_THREAD_CPU_USER: case F_THREAD_CPU_SYSTEM:
		return extract_thread_cpu(e, f, v);
	/* thread.vm*: the main thread's counters, 0 on the other threads */
	case F_THREAD_VMSIZE: return set_u(v, PT_UINT64, t == m ? t->vmsize_kb : 0);
	case F_THREAD_VMRSS: return set_u(v, PT_UINT64, t == m ? t->vmrss_kb : 0);
	case F_THREAD_VMSIZE_B: return set_u(v, PT_UINT64, t == m ? (uint64_t)t->vmsize_kb * 1024 : 0);
	case F_THREAD_VMRSS_B: return set_u(v, PT_UINT64, t == m ? (uint64_t)t->vmrss_kb * 1024 : 0);
	case F_PROC_SID: return set_i(v, PT_INT64, t->sid);
	case F_PROC_SNAME: {	/* the highest ancestor chain member in the same session */
		struct sinsp_threadinfo *q;
		int k = 0;

		for (p = m; (q = sinsp_get_parent(s, p)) && q->sid == t->sid && k < 4096; k++)
			p = q;
		return set_cstr(v, p->comm);
	}
	case F_PROC_TTY: return set_i(v, PT_INT32, (int32_t)t->tty);
	case F_PROC_EXEPATH: return set_cstr(v, t->exepath);
	case F_THREAD_NAMETID: {
		int n = snprintf(v->buf, sizeof(v->buf), "%s%" PRId64, t->comm, t->tid);

		return set_str(v, v->buf, (size_t)n);
	}
	case F_PROC_VPGID: return set_i(v, PT_INT64, t->vpgid);
	case F_PROC_IS_CONTAINER_HEALTHCHECK:
	case F_PROC_IS_CONTAINER_LIVENESS_PROBE:
	case F_PROC_IS_CONTAINER_READINESS_PROBE:
		return set_u(v, PT_BOOL, 0);
	case F_PROC_IS_EXE_WRITABLE: return set_u(v, PT_BOOL, t->exe_writable);
	default:
		return 0;
	}
}

/* ------------------------------------------------------- user / group */

static const struct scap_userinfo *find_user(struct sinsp *s, uint32_t uid)
{
	const struct scap_metadata *m = s->meta ? s->meta : (s->scap ? &s->scap->meta : NULL);

	if (!m)
		return NULL;
	for (uint32_t k = 0; k < m->nusers; k++)
		if (m->users[k].uid == uid)
			return &m->users[k];
	return NULL;
}

static int extract_user(struct sinsp *s, struct sinsp_evt *e, const struct field_ref *f,
			struct field_value *v)
{
	struct sinsp_threadinfo *t = e->thread;
	const struct scap_userinfo *u;
	const char *g;

	if (!t)
		return 0;
	switch (f->id) {
	case F_USER_UID: return set_u(v, PT_UINT32, t->uid);
	case F_USER_NAME:
		u = find_user(s, t->uid);
		return u ? set_cstr(v, u->name) : 0;
	case F_USER_HOMEDIR:
		u = find_user(s, t->uid);
		return u ? set_cstr(v, u->homedir) : 0;
	case F_USER_SHELL:
		u = find_user(s, t->uid);
		return u ? set_cstr(v, u->shell) : 0;
	case F_USER_LOGINUID: return set_i(v, PT_INT32, (int32_t)t->loginuid);
	case F_USER_LOGINNAME:
		u = find_user(s, t->loginuid);
		return u ? set_cstr(v, u->name) : 0;
	case F_GROUP_GID: return set_u(v, PT_UINT64, t->gid);
	case F_GROUP_NAME:
		g = sinsp_group_name(s, t->gid);
		return g ? set_cstr(v, g) : 0;
	default:
		return 0;
	}
}

/* ----------------------------------------------------------- container */

/* the container of the event's thread, from the container table: the
 * id comes from the thread's cgroups, the rest from the table (sysdig
 * 0.29.3's sinsp_filter_check_container: on the host, container.id, .name
 * and .type are "host" and the others have no value; an unknown container
 * or an empty string has no value either) */
static int extract_container(struct sinsp *s, struct sinsp_evt *e, const struct field_ref *f,
			     struct field_value *v)
{
	const struct sinsp_container *c;
	const char *str = NULL;
	struct sinsp_cgroup_match m;
	size_t n;

	if (!e->thread)
		return 0;
	n = sinsp_thread_container(e->thread, &m);
	if (!n)
		return f->id == F_CONTAINER_ID || f->id == F_CONTAINER_NAME ||
		       f->id == F_CONTAINER_TYPE ? set_str(v, "host", 4) : 0;
	if (f->id == F_CONTAINER_ID)
		return set_buf(v, m.id, n);
	c = sinsp_container_find(s, m.id, n);
	if (!c)
		return 0;
	switch (f->id) {
	case F_CONTAINER_NAME: str = c->name; break;
	case F_CONTAINER_IMAGE: str = c->image; break;
	case F_CONTAINER_IMAGE_ID: str = c->image_id; break;
	case F_CONTAINER_IMAGE_REPOSITORY: str = c->image_repo; break;
	case F_CONTAINER_IMAGE_TAG: str = c->image_tag; break;
	case F_CONTAINER_IMAGE_DIGEST: str = c->image_digest; break;
	case F_CONTAINER_TYPE:
		return set_cstr(v, sinsp_container_type_name(c->type));
	case F_CONTAINER_PRIVILEGED:
		/* only where the runtime tells (docker and its kin) */
		if (c->type != SINSP_CT_DOCKER && c->type != SINSP_CT_CRI &&
		    c->type != SINSP_CT_CONTAINERD && c->type != SINSP_CT_CRIO)
			return 0;
		return set_u(v, PT_BOOL, c->privileged != 0);
	case F_CONTAINER_MOUNTS:	/* the mounts are not read from the events */
		return set_str(v, "", 0);
	case F_CONTAINER_HEALTHCHECK:
	case F_CONTAINER_LIVENESS_PROBE:
	case F_CONTAINER_READINESS_PROBE:	/* nor the probes */
		return set_str(v, "NONE", 4);
	default:
		return 0;
	}
	return *str ? set_cstr(v, str) : 0;
}

/* ------------------------------------------------------------------ fd */

/* the thread's container id (nothing on the host), as fd.containername
 * and fd.containerdirectory prefix it */
static void put_container_id(struct sbuf *b, const struct sinsp_threadinfo *t)
{
	struct sinsp_cgroup_match m;

	if (sinsp_thread_container(t, &m))
		sb_put(b, m.id, m.len);
}

static const char *fd_type_name(int32_t type)
{
	switch (type) {
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
	case SCAP_FD_BPF: return "bpf";
	case SCAP_FD_USERFAULTFD: return "userfaultfd";
	case SCAP_FD_IOURING: return "io_uring";
	case SCAP_FD_MEMFD: return "memfd";
	case SCAP_FD_PIDFD: return "pidfd";
	default: return NULL;
	}
}

static int fd_is_ip_type(const struct sinsp_fdinfo *fd)
{
	return fd->type == SCAP_FD_IPV4_SOCK || fd->type == SCAP_FD_IPV6_SOCK ||
	       fd->type == SCAP_FD_IPV4_SERVSOCK || fd->type == SCAP_FD_IPV6_SERVSOCK;
}

/* an IP socket with endpoints (unconnected sockets have none yet) */
static int fd_is_ip(const struct sinsp_fdinfo *fd)
{
	return fd_is_ip_type(fd) && fd->name[0];
}

static int fd_is_v6(const struct sinsp_fdinfo *fd)
{
	return fd->type == SCAP_FD_IPV6_SOCK || fd->type == SCAP_FD_IPV6_SERVSOCK;
}

static int fd_is_serv(const struct sinsp_fdinfo *fd)
{
	return fd->type == SCAP_FD_IPV4_SERVSOCK || fd->type == SCAP_FD_IPV6_SERVSOCK;
}

/* fd.name_changed: parsing the event changed the name of its fd (a new
 * fd, a sendto naming its socket; not a failed connect).  The reference
 * sets it after running its filter, so filters see false. */
static int fd_name_changed(const struct sinsp_evt *e, const struct field_ref *f)
{
	if (f->flags & FIELD_IN_FILTER)
		return 0;
	return e->fd_name_changed;
}

/* local and remote ends (fd.lip, fd.rport...): the tuple's source is the
 * local end when its address is one of the machine's (IPv4: an interface's
 * address, IPv6: an interface's /64), else the peer is; no role fallback,
 * as the reference (both ends of a loopback connection see the client
 * port as local) */
static int addr_is_local(struct sinsp *s, const struct sinsp_fdinfo *fd, const uint8_t *ip)
{
	if (fd->type == SCAP_FD_IPV6_SOCK)
		return iface_ipv6_local(s->meta, ip);
	return iface_ipv4_local(s->meta, ip);
}

static int local_is_source(struct sinsp *s, const struct sinsp_fdinfo *fd)
{
	return addr_is_local(s, fd, fd->sip);
}

/* an IP socket that has no role yet has no addresses or ports in the
 * reference (raw sockets have theirs) */
static int no_port_yet(const struct sinsp_fdinfo *fd)
{
	return (fd->type == SCAP_FD_IPV4_SOCK || fd->type == SCAP_FD_IPV6_SOCK) && fd_role_none(fd) &&
	       fd->l4proto != SCAP_L4_RAW;
}

static int set_ip(struct field_value *v, const struct sinsp_fdinfo *fd, const uint8_t *ip)
{
	if (fd_is_v6(fd)) {
		v->type = PT_IPV6ADDR;
		memcpy(v->ip, ip, 16);
		v->u = 0;
	} else {
		v->type = PT_IPV4ADDR;
		memset(v->ip, 0, sizeof(v->ip));
		memcpy(v->ip, ip, 4);
		memcpy(&v->u, ip, 4);
		v->u &= 0xFFFFFFFFu;
	}
	v->i = (int64_t)v->u;
	return 1;
}

static int set_proto(struct field_value *v, uint16_t port, uint8_t l4)
{
	struct servent *se = NULL;
	int n;

	if (render_resolves_ports())
		se = getservbyport(htons(port), l4 == SCAP_L4_UDP ? "udp" : "tcp");
	if (se)
		return set_cstr(v, se->s_name);
	n = snprintf(v->buf, sizeof(v->buf), "%u", port);
	return set_str(v, v->buf, (size_t)n);
}

/* fd.typechar of an fd-related event without an fd entry: by the kind of
 * fd its syscall creates, 'o' otherwise */
static char creator_typechar(uint16_t type)
{
	switch (type & ~1u) {
	case PPME_SYSCALL_OPEN_E: case PPME_SYSCALL_OPENAT_E: case PPME_SYSCALL_OPENAT_2_E:
	case PPME_SYSCALL_OPENAT2_E: case PPME_SYSCALL_CREAT_E:
		return 'f';
	case PPME_SOCKET_SOCKET_E: case PPME_SOCKET_ACCEPT_E: case PPME_SOCKET_ACCEPT_5_E:
	case PPME_SOCKET_ACCEPT4_E: case PPME_SOCKET_ACCEPT4_5_E:
		return '4';
	case PPME_SYSCALL_PIPE_E:
		return 'p';
	case PPME_SYSCALL_EVENTFD_E:
		return 'e';
	case PPME_SYSCALL_SIGNALFD_E:
		return 's';
	case PPME_SYSCALL_TIMERFD_CREATE_E:
		return 't';
	case PPME_SYSCALL_INOTIFY_INIT_E:
		return 'i';
	default:
		return 'o';
	}
}

/* path parameter ni of ev resolved against its dirfd parameter di (cwd for
 * AT_FDCWD, "<UNKNOWN>" for an unknown fd), as sinsp's parse_dirfd; the
 * event table gives the pairs (at_path_param) */
static void resolve_at(struct sinsp *s, struct sinsp_threadinfo *t, const struct scap_evt *ev,
		       uint32_t di, uint32_t ni, struct sbuf *out)
{
	char full[SINSP_MAX_PATH + 1], dbuf[SINSP_MAX_PATH + 2], nbuf[SINSP_MAX_PATH + 1];
	const char *name, *dir;
	struct sinsp_fdinfo *d;
	size_t nlen;
	int64_t dirfd;

	name = evt_str(ev, ni, nbuf, sizeof(nbuf), &nlen);
	dirfd = evt_int(ev, di);
	if (name[0] == '/') {
		dir = "";
	} else if (dirfd == PPM_AT_FDCWD) {
		dir = thread_cwd(s, t);
	} else if ((d = thread_fd(s, t, dirfd)) != NULL) {
		size_t n = strlen(d->name);

		snprintf(dbuf, sizeof(dbuf), "%s%s", d->name, n && d->name[n - 1] == '/' ? "" : "/");
		dir = dbuf;
	} else {
		dir = "<UNKNOWN>";
	}
	ss_concatenate_paths(full, SINSP_MAX_PATH, dir, strlen(dir), name, nlen + 1);
	sb_puts(out, full);
}

/* the nth path of event type resolved against a dirfd (its parameter in
 * the table says which: dirfd=paramN), or -1 */
static int at_path_param(uint16_t type, unsigned nth)
{
	const struct ppm_event_info *info = &g_event_info[type];

	for (uint32_t i = 0; i < info->nparams; i++)
		if (info->params[i].dirfd_param >= 0 && nth-- == 0)
			return (int)i;
	return -1;
}

/* evt.abspath[.src|.dst]: the absolute path of the *at() calls (.dst: the
 * second path of a two-path call) */
static int extract_abspath(struct sinsp *s, struct sinsp_evt *e, const struct field_ref *f,
			   struct field_value *v)
{
	int dst = f->has_arg && strcmp(f->arg_name, "dst") == 0;
	uint16_t type = e->scap.type;
	struct sbuf *b;
	int ni;

	/* the calls sysdig computes it for */
	switch (type) {
	case PPME_SYSCALL_RENAMEAT_X: case PPME_SYSCALL_RENAMEAT2_X: case PPME_SYSCALL_LINKAT_2_X:
	case PPME_SYSCALL_SYMLINKAT_X: case PPME_SYSCALL_OPENAT_2_X: case PPME_SYSCALL_OPENAT2_X:
	case PPME_SYSCALL_UNLINKAT_2_X: case PPME_SYSCALL_MKDIRAT_X: case PPME_SYSCALL_FCHMODAT_X:
		break;
	default:
		return 0;
	}
	ni = at_path_param(type, dst ? 1 : 0);
	if (ni < 0)
		ni = at_path_param(type, 0);
	if (ni < 0 || !e->thread || e->scap.nparams <= (uint32_t)ni)
		return 0;
	b = scratch();
	resolve_at(s, e->thread, &e->scap, (uint32_t)g_event_info[type].params[ni].dirfd_param,
		   (uint32_t)ni, b);
	return set_sbuf(v, b);
}

/* fd.name of an exit without an fd entry (extract_fdname_from_creator):
 * the path or tuple a failed creation named, "" for other exits; 0 for
 * enter events */
static int creator_name(struct sinsp *s, struct sinsp_evt *e, struct sbuf *out)
{
	uint16_t type = e->scap.type;
	const struct scap_evt *src = &e->scap;
	struct sbuf *val;
	int ni, di;

	if (ppm_event_is_enter(type))
		return 0;
	switch (type) {
	case PPME_SYSCALL_OPEN_X: case PPME_SYSCALL_CREAT_X: case PPME_SOCKET_ACCEPT_X:
	case PPME_SOCKET_ACCEPT_5_X: case PPME_SOCKET_ACCEPT4_X: case PPME_SOCKET_ACCEPT4_5_X:
	case PPME_SOCKET_CONNECT_X:	/* failed: its tuple, any family */
		if (src->nparams < 2)
			return 1;
	{
		size_t start = out->len;	/* after a "container:" prefix */

		val = scratch();
		render_param(s, e, 1, s->render.bufmode, 0, val, out);
		if (out->len == start)
			sb_put(out, val->p ? val->p : "", val->len);
		return 1;
	}
	case PPME_SYSCALL_OPENAT_X:
		if (!e->has_enter || e->thread->stored_type != e->enter.type ||
		    sinsp_evt_enter_params(e))
			return 0;
		src = &e->enter;
		/* the old enter event's name is not typed as a relative path */
		di = evt_param_index(src->type, "dirfd");
		ni = evt_param_index(src->type, "name");
		break;
	case PPME_SYSCALL_OPENAT_2_X: case PPME_SYSCALL_OPENAT2_X:
		ni = at_path_param(type, 0);
		di = ni < 0 ? -1 : g_event_info[type].params[ni].dirfd_param;
		break;
	default:
		return 1;
	}
	if (di >= 0 && ni >= 0 && src->nparams > (uint32_t)ni && src->nparams > (uint32_t)di)
		resolve_at(s, e->thread, src, (uint32_t)di, (uint32_t)ni, out);
	return 1;
}

/* fd fields of an event without an fd entry */
static int extract_null_fd(struct sinsp *s, struct sinsp_evt *e, const struct field_ref *f,
			   struct field_value *v)
{
	struct sbuf *b;
	const char *sl;

	switch (f->id) {
	case F_FD_TYPECHAR:
		v->buf[0] = creator_typechar(e->scap.type);
		v->buf[1] = 0;
		return set_str(v, v->buf, 1);
	case F_FD_NAME:
	case F_FD_DIRECTORY:
	case F_FD_CONTAINERDIRECTORY: {
		size_t pre = 0;

		b = scratch();
		if (f->id == F_FD_CONTAINERDIRECTORY) {
			put_container_id(b, e->thread);
			sb_putc(b, ':');
			pre = b->len;
		}
		if (!creator_name(s, e, b))
			return 0;
		if (f->id == F_FD_NAME)
			return set_sbuf(v, b);
		for (sl = b->len > pre ? b->p + b->len - 1 : NULL; sl && sl > b->p + pre && *sl != '/'; sl--)
			;
		if (!sl || sl == b->p + pre) {
			b->len = pre;
			sb_putc(b, '/');
		} else if ((size_t)(sl - b->p) < b->len - 1) {
			b->len = (size_t)(sl - b->p);
		}
		return set_buf(v, b->p, b->len);
	}
	case F_FD_CONTAINERNAME:
		b = scratch();
		put_container_id(b, e->thread);
		sb_putc(b, ':');
		if (!creator_name(s, e, b))
			return 0;
		return set_sbuf(v, b);
	case F_FD_UID: {
		int n = snprintf(v->buf, sizeof(v->buf), "%" PRId64 "%" PRId64, e->thread->tid,
				 e->thread->lastevent_fd);

		return set_str(v, v->buf, (size_t)n);
	}
	default:
		return 0;
	}
}

/* sinsp_filter_check_fd::extract_fd: fd fields exist for fd-related
 * events of known threads; the fd is the event's, else the thread's last
 * event fd */
static int fd_fields_exist(const struct sinsp_evt *e)
{
	return e->thread && e->info &&
	       (e->info->flags & (EF_USES_FD | EF_CREATES_FD | EF_DESTROYS_FD));
}

/* the fd of the fd.* fields (when they exist): the event's, else the
 * thread's last event fd; NULL when there is none */
static struct sinsp_fdinfo *event_fd(struct sinsp *s, struct sinsp_evt *e)
{
	struct sinsp_threadinfo *t = e->thread;

	if (e->fdinfo || t->lastevent_fd == -1)
		return e->fdinfo;
	return thread_fd(s, t, t->lastevent_fd);
}

struct sinsp_fdinfo *field_fd(struct sinsp *s, struct sinsp_evt *e)
{
	return fd_fields_exist(e) ? event_fd(s, e) : NULL;
}

const char *field_fd_type(struct sinsp *s, struct sinsp_evt *e)
{
	struct sinsp_fdinfo *fd;

	if (!fd_fields_exist(e))
		return NULL;
	fd = event_fd(s, e);
	return fd ? fd_type_name(fd->type) : NULL;
}

/* a connect exit that failed (EINPROGRESS is no failure): its fd.name is
 * its own tuple argument, its fd keeps its name */
static int failed_connect(const struct sinsp_evt *e)
{
	int64_t res;

	if (e->scap.type != PPME_SOCKET_CONNECT_X || e->scap.nparams == 0)
		return 0;
	res = evt_int(&e->scap, 0);
	return res < 0 && res != -115;
}

static int extract_fd(struct sinsp *s, struct sinsp_evt *e, const struct field_ref *f,
		      struct field_value *v)
{
	struct sinsp_fdinfo *fd;
	struct sinsp_threadinfo *t = e->thread;
	const char *nm, *sl;
	struct sbuf *b;

	if (!fd_fields_exist(e))
		return 0;
	fd = event_fd(s, e);
	if (f->id == F_FD_NUM)
		return set_i(v, PT_INT64, t->lastevent_fd);
	if (!fd || ((f->id == F_FD_NAME || f->id == F_FD_CONTAINERNAME) && failed_connect(e)))
		return extract_null_fd(s, e, f, v);
	switch (f->id) {
	case F_FD_TYPE:
		nm = fd_type_name(fd->type);
		return nm ? set_cstr(v, nm) : 0;
	case F_FD_TYPECHAR:
		v->buf[0] = sinsp_fd_typechar(fd);
		v->buf[1] = 0;
		return set_str(v, v->buf, 1);
	case F_FD_NAME: return set_cstr(v, fd->name);
	case F_FD_DIRECTORY:
	case F_FD_FILENAME:
		if (fd->type != SCAP_FD_FILE && fd->type != SCAP_FD_FILE_V2 &&
		    fd->type != SCAP_FD_DIRECTORY)
			return 0;
		sl = strrchr(fd->name, '/');
		if (f->id == F_FD_FILENAME) {
			if (fd->type == SCAP_FD_DIRECTORY)
				return 0;
			return set_cstr(v, sl ? sl + 1 : fd->name);
		}
		if (fd->type == SCAP_FD_DIRECTORY)
			return set_cstr(v, fd->name);
		if (!sl)
			return set_cstr(v, fd->name);
		return set_buf(v, fd->name, sl == fd->name ? 1 : (size_t)(sl - fd->name));
	case F_FD_IP:
	case F_FD_NET:
		if (!fd_is_ip(fd))
			return 0;
		return set_ip(v, fd, fd->sip);
	case F_FD_CIP:
	case F_FD_CNET:
		if (!fd_is_ip(fd) || fd_is_serv(fd) || no_port_yet(fd))
			return 0;
		return set_ip(v, fd, fd->sip);
	case F_FD_SIP:
	case F_FD_SNET:	/* a listening socket: its address once it has the
			 * server role (bound during the capture), none from
			 * the /proc snapshot, as the reference */
		if (!fd_is_ip(fd) || (fd_is_serv(fd) && fd_role_none(fd)) || no_port_yet(fd))
			return 0;
		return set_ip(v, fd, fd_is_serv(fd) ? fd->sip : fd->dip);
	case F_FD_LIP:
	case F_FD_LNET:
		if (!fd_is_ip(fd) || fd_is_serv(fd) || no_port_yet(fd))
			return 0;
		return set_ip(v, fd, local_is_source(s, fd) ? fd->sip : fd->dip);
	case F_FD_RIP:
	case F_FD_RNET:
		if (!fd_is_ip(fd) || fd_is_serv(fd) || no_port_yet(fd))
			return 0;
		return set_ip(v, fd, local_is_source(s, fd) ? fd->dip : fd->sip);
	case F_FD_PORT:
	case F_FD_PROTO:
		if (!fd_is_ip(fd))
			return 0;
		return set_u(v, PT_PORT, fd_is_serv(fd) ? fd->sport : fd->dport);
	case F_FD_CPORT:
	case F_FD_CPROTO:
		if (!fd_is_ip(fd) || no_port_yet(fd))
			return 0;
		/* a listening socket bound during the capture (role server)
		 * has client port 0 (and protocol "") in the reference; one
		 * of the /proc snapshot (no role) has none */
		if (fd_is_serv(fd) && fd_role_none(fd))
			return 0;
		if (fd_is_serv(fd))
			return f->id == F_FD_CPROTO ? set_str(v, "", 0) : set_u(v, PT_PORT, 0);
		if (f->id == F_FD_CPROTO)
			return set_proto(v, fd->sport, fd->l4proto);
		return set_u(v, PT_PORT, fd->sport);
	case F_FD_SPORT:
	case F_FD_SPROTO: {
		uint16_t p = fd_is_serv(fd) ? fd->sport : fd->dport;

		if (!fd_is_ip(fd) || no_port_yet(fd))
			return 0;
		if (f->id == F_FD_SPROTO && fd_is_serv(fd))	/* as the reference */
			return set_str(v, "", 0);
		if (f->id == F_FD_SPROTO)
			return set_proto(v, p, fd->l4proto);
		return set_u(v, PT_PORT, p);
	}
	case F_FD_LPORT:
	case F_FD_LPROTO:
		if (!fd_is_ip(fd) || fd_is_serv(fd) || no_port_yet(fd))
			return 0;
		if (f->id == F_FD_LPROTO)
			return set_proto(v, local_is_source(s, fd) ? fd->sport : fd->dport, fd->l4proto);
		return set_u(v, PT_PORT, local_is_source(s, fd) ? fd->sport : fd->dport);
	case F_FD_RPORT:
	case F_FD_RPROTO:
		if (!fd_is_ip(fd) || fd_is_serv(fd) || no_port_yet(fd))
			return 0;
		if (f->id == F_FD_RPROTO)
			return set_proto(v, local_is_source(s, fd) ? fd->dport : fd->sport, fd->l4proto);
		return set_u(v, PT_PORT, local_is_source(s, fd) ? fd->dport : fd->sport);
	case F_FD_L4PROTO:	/* any fd: "<NA>" is a value for non-sockets and
				 * for sockets with no role yet (socket() exit) */
		switch (sinsp_fd_l4proto(fd)) {
		case SCAP_L4_TCP: return set_str(v, "tcp", 3);
		case SCAP_L4_UDP: return set_str(v, "udp", 3);
		case SCAP_L4_ICMP: return set_str(v, "icmp", 4);
		case SCAP_L4_RAW: return set_str(v, "raw", 3);
		default: return set_str(v, "<NA>", 4);
		}
	case F_FD_SOCKFAMILY:
		if (fd_is_ip_type(fd))
			return set_str(v, "ip", 2);
		if (fd->type == SCAP_FD_UNIX_SOCK)
			return set_str(v, "unix", 4);
		return 0;
	case F_FD_IS_SERVER:	/* listening, or the peer address is this machine's */
		if (fd->type == SCAP_FD_IPV4_SOCK || fd->type == SCAP_FD_IPV6_SOCK)
			return set_u(v, PT_BOOL, (uint64_t)addr_is_local(s, fd, fd->dip));
		return set_u(v, PT_BOOL, (uint64_t)fd_is_serv(fd));
	case F_FD_CONNECTED: return set_u(v, PT_BOOL, fd->is_socket_connected);
	case F_FD_NAME_CHANGED: return set_u(v, PT_BOOL, fd_name_changed(e, f));
	case F_FD_UID: {
		int n = snprintf(v->buf, sizeof(v->buf), "%" PRId64 "%" PRId64,
				 e->thread ? e->thread->tid : 0, fd->fd);

		return set_str(v, v->buf, (size_t)n);
	}
	case F_FD_CONTAINERNAME:
	case F_FD_CONTAINERDIRECTORY: {
		b = scratch();
		put_container_id(b, e->thread);
		sb_putc(b, ':');
		if (f->id == F_FD_CONTAINERNAME) {
			sb_puts(b, fd->name);
		} else {
			if (fd->type != SCAP_FD_FILE && fd->type != SCAP_FD_FILE_V2 &&
			    fd->type != SCAP_FD_DIRECTORY)
				return 0;
			sl = fd->type == SCAP_FD_DIRECTORY ? NULL : strrchr(fd->name, '/');
			if (sl)
				sb_put(b, fd->name, sl == fd->name ? 1 : (size_t)(sl - fd->name));
			else
				sb_puts(b, fd->name);
		}
		return set_sbuf(v, b);
	}
	case F_FD_CIP_NAME: case F_FD_SIP_NAME: case F_FD_LIP_NAME: case F_FD_RIP_NAME:
		return 0;
	case F_FD_DEV:
		set_i(v, PT_INT32, (int32_t)fd->dev);
		v->hex = 1;
		return 1;
	/* the dev_t encoding of the driver (new_encode_dev) */
	case F_FD_DEV_MAJOR: return set_i(v, PT_INT32, (int32_t)((fd->dev >> 8) & 0xFFF));
	case F_FD_DEV_MINOR:
		return set_i(v, PT_INT32, (int32_t)((fd->dev & 0xFF) | ((fd->dev >> 12) & 0xFFF00)));
	default:
		return 0;
	}
}

/* -------------------------------------------------------------- fdlist */

static int extract_fdlist(struct sinsp *s, struct sinsp_evt *e, const struct field_ref *f,
			  struct field_value *v)
{
	int idx = evt_pindex_lit(e, "fds");
	const uint8_t *p;
	uint32_t len, n;
	struct sinsp_fdtable *ft;
	struct sbuf *b;
	int any = 0;

	if (idx < 0 || e->info->params[idx].type != PT_FDLIST || !e->thread)
		return 0;
	p = e->scap.pval[idx];
	len = e->scap.plen[idx];
	n = (uint32_t)render_load_u(p, len, 2);
	ft = sinsp_thread_fdtable(s, e->thread);
	b = scratch();
	for (uint32_t j = 0; j < n && 2 + j * 10 + 10 <= len; j++) {
		int64_t fdn = (int64_t)render_load_u(p + 2 + j * 10, 8, 8);
		struct sinsp_fdinfo *fd = ft ? sinsp_fd_lookup(ft, fdn) : NULL;

		if (f->id == F_FDLIST_NUMS) {
			if (any)
				sb_putc(b, ',');
			sb_i64(b, fdn);
			any = 1;
			continue;
		}
		if (f->id == F_FDLIST_NAMES) {	/* unknown or nameless: "<NA>" */
			if (any)
				sb_putc(b, ',');
			sb_puts(b, fd && fd->name[0] ? fd->name : "<NA>");
			any = 1;
			continue;
		}
		if (!fd)
			continue;
		if (!fd_is_ip(fd) || fd_is_serv(fd))
			continue;
		if (any)
			sb_putc(b, ',');
		any = 1;
		if (f->id == F_FDLIST_CIPS || f->id == F_FDLIST_SIPS) {
			const uint8_t *ip = f->id == F_FDLIST_CIPS ? fd->sip : fd->dip;
			char t[64];

			if (fd_is_v6(fd))
				inet_ntop(AF_INET6, ip, t, sizeof(t));
			else
				inet_ntop(AF_INET, ip, t, sizeof(t));
			sb_puts(b, t);
		} else {
			sb_u64(b, f->id == F_FDLIST_CPORTS ? fd->sport : fd->dport);
		}
	}
	if (!any)
		return 0;
	return set_sbuf(v, b);
}

/* -------------------------------------------------------------- syslog */

static int extract_syslog(struct sinsp_evt *e, const struct field_ref *f, struct field_value *v)
{
	static const char *const sev[] = { "emerg", "alert", "crit", "err", "warn", "notice",
					   "info", "debug" };
	static const char *const fac[] = { "kern", "user", "mail", "daemon", "auth", "syslog",
					   "lpr", "news", "uucp", "clock", "authpriv", "ftp",
					   "ntp", "logaudit", "logalert", "cron", "local0",
					   "local1", "local2", "local3", "local4", "local5",
					   "local6", "local7" };
	int idx;
	const char *p;
	uint32_t len, k = 1;
	unsigned pri = 0;

	if (!is_io(e, 0, 1) || !e->fdinfo || !strstr(e->fdinfo->name, "/dev/log") ||
	    (idx = evt_pindex_lit(e, "data")) < 0)
		return 0;
	p = (const char *)e->scap.pval[idx];
	len = e->scap.plen[idx];
	if (len < 3 || p[0] != '<')
		return 0;
	while (k < len && k < 5 && isdigit((unsigned char)p[k]))
		pri = pri * 10 + (unsigned)(p[k++] - '0');
	if (k >= len || p[k] != '>')
		return 0;
	switch (f->id) {
	case F_SYSLOG_FACILITY: return set_u(v, PT_UINT32, pri >> 3);
	case F_SYSLOG_SEVERITY: return set_u(v, PT_UINT32, pri & 7);
	case F_SYSLOG_FACILITY_STR:
		return (pri >> 3) < 24 ? set_cstr(v, fac[pri >> 3]) : 0;
	case F_SYSLOG_SEVERITY_STR: return set_cstr(v, sev[pri & 7]);
	case F_SYSLOG_MESSAGE: return set_str(v, p + k + 1, len - k - 1);
	default: return 0;
	}
}

/* ------------------------------------------------------------ dispatch */

/* ------------------------------------------------------------- span.* */

/* tag i of the tracer (an invalid tracer has one: its message) */
static const char *span_tag(const struct tracer_parser *p, int64_t i)
{
	uint32_t n = p->invalid ? 1 : p->ntags;

	if (i < 0)
		i += n;
	if (i < 0 || i >= n)
		return NULL;
	return p->invalid ? p->error : p->tags[i];
}

static int span_args(struct field_value *v, const struct tracer_span *sp)
{
	const char *n, *a;
	size_t len = 0;

	if (!sp)
		return 0;
	n = sp->names;
	a = sp->vals;
	for (uint32_t i = 0; i < sp->nargs; i++) {
		int w = snprintf(v->buf + len, sizeof(v->buf) - len, "%s%s=%s", i ? "," : "", n, a);

		if (w < 0 || (size_t)w >= sizeof(v->buf) - len) {
			len = sizeof(v->buf) - 1;
			break;
		}
		len += (size_t)w;
		n += strlen(n) + 1;
		a += strlen(a) + 1;
	}
	v->buf[len] = 0;
	return set_str(v, v->buf, len);
}

/* span.arg.NAME / span.arg[N] (negative: from the end) */
static int span_arg(struct field_value *v, const struct tracer_span *sp, const struct field_ref *f)
{
	const char *n, *a;
	int64_t want = f->arg_index;

	if (!sp)
		return 0;
	if (!f->arg_name[0] && want < 0)
		want += sp->nargs;
	n = sp->names;
	a = sp->vals;
	for (uint32_t i = 0; i < sp->nargs; i++) {
		if (f->arg_name[0] ? strcmp(n, f->arg_name) == 0 : (int64_t)i == want)
			return set_cstr(v, a);
		n += strlen(n) + 1;
		a += strlen(a) + 1;
	}
	return 0;
}

static int span_duration(const struct sinsp_evt *e, const struct tracer_parser *p, uint64_t *d)
{
	if (e->scap.type != PPME_TRACER_X || !p->enter)
		return 0;
	*d = p->exit.time > p->enter->time ? p->exit.time - p->enter->time : 0;
	return 1;
}

/* sysdig 0.29.3's span fields (sinsp_filter_check_tracer), docs/tracers.md */
static int extract_span(struct sinsp *s, const struct sinsp_evt *e, const struct field_ref *f,
			struct field_value *v)
{
	const struct tracer_parser *p = e->thread ? e->thread->tracer : NULL;
	int is_exit = e->scap.type == PPME_TRACER_X;
	const struct tracer_span *sp;
	uint64_t d;
	const char *t;
	size_t len;
	int n;

	if ((e->scap.type != PPME_TRACER_E && !is_exit) || !p)
		return 0;
	if (span_needs_tracking(f->id) && !p->enter)
		return 0;
	switch (f->id) {
	case F_SPAN_ID:
		return set_i(v, PT_INT64, p->id);
	case F_SPAN_TIME:
		return set_str(v, v->buf, fmt_time(v->buf, e->scap.ts, 1));
	case F_SPAN_NTAGS:
		return set_u(v, PT_UINT32, p->invalid ? 1 : p->ntags);
	case F_SPAN_NARGS:
		return p->enter ? set_u(v, PT_UINT32, p->enter->nargs) : 0;
	case F_SPAN_TAGS:
		if (p->invalid) {
			/* the reference copies its message with the length the
			 * first tag of an earlier parse had (measured) */
			len = strlen(p->error);
			return set_str(v, p->error, p->taglen0 < len ? p->taglen0 : len);
		}
		len = 0;
		v->buf[0] = 0;
		for (uint32_t i = 0; i < p->ntags && len < sizeof(v->buf) - 1; i++) {
			n = snprintf(v->buf + len, sizeof(v->buf) - len, "%s%s", i ? "." : "", p->tags[i]);
			len = n < 0 ? len : len + (size_t)n;
		}
		if (len > sizeof(v->buf) - 1)
			len = sizeof(v->buf) - 1;
		return set_str(v, v->buf, len);
	case F_SPAN_TAG:
		return (t = span_tag(p, f->arg_index)) ? set_cstr(v, t) : 0;
	case F_SPAN_IDTAG:
		t = span_tag(p, f->arg_index);
		n = snprintf(v->buf, sizeof(v->buf), "%" PRId64 "%s", p->id, t ? t : "");
		return set_str(v, v->buf, n < 0 ? 0 : strnlen(v->buf, sizeof(v->buf)));
	case F_SPAN_ARGS:
	case F_SPAN_ARG:
		sp = is_exit ? &p->exit : p->enter;
		return f->id == F_SPAN_ARGS ? span_args(v, sp) : span_arg(v, sp, f);
	case F_SPAN_ENTERARGS:
		return span_args(v, p->enter);
	case F_SPAN_ENTERARG:
		return span_arg(v, p->enter, f);
	case F_SPAN_DURATION:
		return span_duration(e, p, &d) ? set_u(v, PT_RELTIME, d) : 0;
	case F_SPAN_DURATION_HUMAN:
		if (!span_duration(e, p, &d))
			return 0;
		return set_str(v, v->buf, fmt_human_ns(v->buf, sizeof(v->buf), d));
	case F_SPAN_DURATION_QUANTIZED:
		if (!span_duration(e, p, &d) || d == 0)
			return 0;
		return set_u(v, PT_UINT64, quantize_latency(d));
	case F_SPAN_DURATION_FORTAG:
		if ((int64_t)(p->invalid ? 1 : p->ntags) - 1 != f->arg_index || !span_duration(e, p, &d))
			return 0;
		return set_u(v, PT_RELTIME, d);
	case F_SPAN_COUNT:
		return set_u(v, PT_UINT64, is_exit);
	case F_SPAN_COUNT_FORTAG:
		return set_u(v, PT_UINT64, is_exit && (int64_t)p->ntags - 1 == f->arg_index);
	case F_SPAN_CHILDCOUNT_FORTAG:
		return set_u(v, PT_UINT64, is_exit && (int64_t)p->ntags > f->arg_index + 1);
	case F_SPAN_RAWTIME:
		n = snprintf(v->buf, sizeof(v->buf), "%" PRIu64, p->enter->time);
		return set_str(v, v->buf, (size_t)n);
	case F_SPAN_RAWPARENTTIME:
		if (!s->spans || !(sp = tracer_parent(p, s->spans)))
			return 0;
		n = snprintf(v->buf, sizeof(v->buf), "%" PRIu64, sp->time);
		return set_str(v, v->buf, (size_t)n);
	default:
		return 0;
	}
}

/* evtin.*: the open spans (tracer.h) an event is inside, sysdig 0.29.3's
 * rules (docs/tracers.md): the 7 fields come in 4 scopes of 7 ids each;
 * thread: the span's own thread; .p.: the same, while the span's thread
 * is in the table (the reference compares thread ids there too); .s.: a
 * thread whose parent is the span's process; .m.: any thread */
#define EVTIN_FIELDS 7

static int evtin_in_scope(struct sinsp *s, const struct sinsp_evt *e, int scope,
			  const struct tracer_span *sp)
{
	const struct sinsp_threadinfo *st;

	if (scope == 0)
		return sp->tid == e->thread->tid;
	if (scope == 3)
		return 1;
	st = sinsp_get_thread(s, sp->tid);
	if (!st)
		return 0;
	return scope == 1 ? st->tid == e->thread->tid : st->pid == e->thread->ptid;
}

/* the i-th of n NUL-separated strings of list (negative: from the end,
 * and ".NAME" arguments read index -1, as the reference does) */
static const char *evtin_item(const char *list, uint32_t n, int64_t i)
{
	if (i < 0)
		i += n;
	if (i < 0 || i >= n)
		return NULL;
	while (i-- > 0)
		list += strlen(list) + 1;
	return list;
}

/* the field of span sp for event e, 0 when sp is out of the field's scope */
static int evtin_span_value(struct sinsp *s, const struct sinsp_evt *e, const struct field_ref *f,
			    const struct tracer_span *sp, struct field_value *v)
{
	int k = f->id - F_EVTIN_SPAN_ID;
	const char *a, *b, *t;
	size_t len = 0;

	if (!evtin_in_scope(s, e, k / EVTIN_FIELDS, sp))
		return 0;
	switch (F_EVTIN_SPAN_ID + k % EVTIN_FIELDS) {
	case F_EVTIN_SPAN_ID:
		return set_i(v, PT_INT64, sp->id);
	case F_EVTIN_SPAN_NTAGS:
		return set_u(v, PT_UINT32, sp->ntags);
	case F_EVTIN_SPAN_NARGS:
		return set_u(v, PT_UINT32, sp->nargs);
	case F_EVTIN_SPAN_TAGS:		/* t1.t2 */
		t = sp->tags;
		for (uint32_t i = 0; i < sp->ntags; i++, t += strlen(t) + 1) {
			int w = snprintf(v->buf + len, sizeof(v->buf) - len, "%s%s", i ? "." : "", t);

			len = w < 0 || (size_t)w >= sizeof(v->buf) - len ? sizeof(v->buf) - 1 : len + (size_t)w;
		}
		v->buf[len] = 0;
		return set_str(v, v->buf, len);
	case F_EVTIN_SPAN_TAG:
		t = evtin_item(sp->tags, sp->ntags, f->arg_index);
		return t ? set_cstr(v, t) : 0;
	case F_EVTIN_SPAN_ARGS:		/* n1:v1,n2:v2 */
		a = sp->names;
		b = sp->vals;
		for (uint32_t i = 0; i < sp->nargs; i++, a += strlen(a) + 1, b += strlen(b) + 1) {
			int w = snprintf(v->buf + len, sizeof(v->buf) - len, "%s%s:%s", i ? "," : "", a, b);

			len = w < 0 || (size_t)w >= sizeof(v->buf) - len ? sizeof(v->buf) - 1 : len + (size_t)w;
		}
		v->buf[len] = 0;
		return set_str(v, v->buf, len);
	default:			/* F_EVTIN_SPAN_ARG */
		t = evtin_item(sp->vals, sp->nargs, f->arg_index);
		return t ? set_cstr(v, t) : 0;
	}
}

/* -p / chisels: the first open span in scope, most recent first; none on
 * tracer events and on threads that never wrote to a tracer candidate */
static int extract_evtin(struct sinsp *s, const struct sinsp_evt *e, const struct field_ref *f,
			 struct field_value *v)
{
	const struct tracer_spans *sp = s->spans;

	if (e->scap.type == PPME_TRACER_E || e->scap.type == PPME_TRACER_X || !e->thread ||
	    !e->thread->tracer || !sp)
		return 0;
	for (uint32_t i = 0; i < sp->nopen; i++)
		if (evtin_span_value(s, e, f, &sp->pool[sp->open[i]], v))
			return 1;
	return 0;
}

int field_evtin_match(struct sinsp *s, struct sinsp_evt *e, const struct field_ref *f,
		      struct field_value *v, int (*accept)(void *ctx, struct field_value *v), void *ctx)
{
	const struct tracer_spans *sp = s->spans;
	const struct tracer_parser *p = e->thread ? e->thread->tracer : NULL;

	if (!e->thread)
		return 0;
	for (uint32_t i = 0; sp && i < sp->nopen; i++) {
		const struct tracer_span *o = &sp->pool[sp->open[i]];

		if (evtin_span_value(s, e, f, o, v) && accept(ctx, v))
			/* a tracer enter is not inside its own span */
			return !(e->scap.type == PPME_TRACER_E && p && o == p->enter);
	}
	/* a tracer exit is inside the span it closed */
	return e->scap.type == PPME_TRACER_X && p && p->enter &&
	       evtin_span_value(s, e, f, p->enter, v) && accept(ctx, v);
}

/* ------------------------------------------------------------ dispatch */

int field_extract(struct sinsp *s, struct sinsp_evt *e, const struct field_ref *f,
		  struct field_value *v)
{
	const char *n = f->def ? f->def->name : f->name;

	v->str = NULL;
	v->len = 0;
	v->pad9 = 0;
	v->hex = 0;
	v->bufmode = (uint8_t)s->render.bufmode;
	if (f->id == FIELD_ID_PLUGIN) {
		const char *str = NULL;
		uint64_t u = 0;

		if (!plugin_field_extract(f->plugin, f->plugin_field, f->has_arg ? f->arg_name : NULL,
					  &e->scap, e->num, &str, &u))
			return 0;
		return str ? set_cstr(v, str) : set_u(v, PT_UINT64, u);
	}
	switch (n[0]) {
	case 'e':
		if (n[1] == 'v' && n[2] == 't' && n[3] == '.')
			return extract_evt(s, e, f, v);
		return extract_evtin(s, e, f, v);
	case 's':
		if (f->id == F_SYSCALL_TYPE)
			return extract_evt(s, e, f, v);
		if (n[1] == 'y')
			return extract_syslog(e, f, v);
		return extract_span(s, e, f, v);
	case 'p':
	case 't':
		return extract_proc(s, e, f, v);
	case 'u':
	case 'g':
		if (f->id == F_UTIL_CNT)
			return set_u(v, PT_UINT64, 1);
		return extract_user(s, e, f, v);
	case 'c':
		return extract_container(s, e, f, v);
	case 'f':
		if (n[2] == 'l')
			return extract_fdlist(s, e, f, v);
		return extract_fd(s, e, f, v);
	default:
		return 0;
	}
}

/* ----------------------------------------------------------- to string */

void field_value_append(const struct field_ref *f, struct field_value *v, struct sbuf *out)
{
	char t[64];

	switch (v->type) {
	case PT_INT8: case PT_INT16: case PT_INT32: case PT_INT64: case PT_ERRNO: case PT_FD:
	case PT_PID:
		if (v->hex)
			sb_printf(out, "%X", (uint32_t)v->i);
		else
			sb_i64(out, v->i);
		break;
	case PT_UINT8: case PT_UINT16: case PT_UINT32: case PT_UINT64: case PT_RELTIME:
	case PT_ABSTIME: case PT_PORT: case PT_FLAGS8: case PT_FLAGS16: case PT_FLAGS32:
	case PT_UID: case PT_GID: case PT_MODE: case PT_SIGTYPE: case PT_SYSCALLID:
	case PT_L4PROTO: case PT_SOCKFAMILY: case PT_SIGSET:
		if (v->pad9)
			sb_printf(out, "%09" PRIu64, v->u);
		else
			sb_u64(out, v->u);
		break;
	case PT_BOOL:
		sb_puts(out, v->u ? "true" : "false");
		break;
	case PT_DOUBLE:
		sb_printf(out, "%.1lf", v->d);
		break;
	case PT_IPV4ADDR:
		inet_ntop(AF_INET, v->ip, t, sizeof(t));
		sb_puts(out, t);
		break;
	case PT_IPV6ADDR:
		inet_ntop(AF_INET6, v->ip, t, sizeof(t));
		sb_puts(out, t);
		break;
	case PT_BYTEBUF:
		render_bytebuf((const uint8_t *)v->str, v->len, (enum render_bufmode)v->bufmode, 0, out);
		break;
	default:
		if (v->str)
			sb_put(out, v->str, v->len);
		break;
	}
	(void)f;
}

const char *field_to_string(const struct field_ref *f, struct field_value *v, char *out,
			    size_t outlen)
{
	static struct sbuf b;

	sb_reset(&b);
	field_value_append(f, v, &b);
	if (!b.p)
		sb_putc(&b, 0);
	if (out && outlen && b.len < outlen) {
		memcpy(out, b.p, b.len + 1);
		return out;
	}
	return b.p;
}
