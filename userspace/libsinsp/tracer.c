/*
 * tracer.c - parsing of sysdig tracer writes and the open spans (tracer.h).
 *
 * The rules are sysdig 0.29.3's, measured on captures (docs/tracers.md):
 * the simple form ">:ID:TAGS:ARGS:" with ID t (thread), p (process), pp
 * (parent), a number, or empty/g (0); tags split on '.', args "name=value"
 * split on ','; a backslash makes the next character plain.  A message not
 * ended yet is TRUNCATED and joined with the next write of the thread.
 * Enters are kept in a pool of 128 open spans; an exit closes the most
 * recent open span with the same id and tags.
 */
#include <stdlib.h>
#include <string.h>
#include "tracer.h"

#define TRACER_MAX_FRAGMENT 65536	/* MAX_USER_EVT_BUFFER */

int g_tracer_track;

static int grow(void **p, uint32_t *cap, uint32_t need, size_t elem)
{
	uint32_t n = *cap ? *cap : 8;
	void *q;

	if (need <= *cap)
		return 0;
	while (n < need)
		n *= 2;
	q = realloc(*p, (size_t)n * elem);
	if (!q)
		return -1;
	*p = q;
	*cap = n;
	return 0;
}

static int push_tag(struct tracer_parser *p, char *t)
{
	if (p->ntags + 1 > p->tags_cap) {
		uint32_t cap = p->tags_cap;

		if (grow((void **)&p->tags, &cap, p->ntags + 1, sizeof(*p->tags)) ||
		    grow((void **)&p->taglens, &p->tags_cap, p->ntags + 1, sizeof(*p->taglens)))
			return -1;
	}
	p->tags[p->ntags++] = t;
	return 0;
}

static void push_taglen(struct tracer_parser *p, uint32_t len)
{
	if (p->nlens == 0)
		p->taglen0 = len;
	p->taglens[p->nlens++] = len;
}

static int push_arg(struct tracer_parser *p, char ***list, uint32_t *n, char *a)
{
	if (*n + 1 > p->args_cap) {
		uint32_t cap = p->args_cap;

		if (grow((void **)&p->names, &cap, *n + 1, sizeof(char *)) ||
		    grow((void **)&p->vals, &p->args_cap, *n + 1, sizeof(char *)))
			return -1;
	}
	(*list)[(*n)++] = a;
	return 0;
}

/* remove the character at s, shifting the rest left (escapes) */
static void delete_char(char *s)
{
	memmove(s, s + 1, strlen(s + 1) + 1);
}

/* ID of the simple form; *pp is after the ':' that follows the type */
static int parse_id(char **pp, const struct tracer_ids *ids, int64_t *id)
{
	char *p = *pp;
	int neg = 0;
	int64_t v = 0;

	switch (*p) {
	case 't':
	case 'g':
	case 'p':
		*id = *p == 't' ? ids->tid : *p == 'g' ? 0 : ids->pid;
		if (*p == 'p' && p[1] == 'p') {
			*id = ids->ptid;
			p++;
		}
		/* the reference skips the character after the letter unseen */
		if (p[1] == 0)
			return TRACER_TRUNCATED;
		*pp = p + 2;
		return TRACER_OK;
	case ':':
		*id = 0;
		*pp = p + 1;
		return TRACER_OK;
	default:
		break;
	}
	if (*p == '-') {
		neg = 1;
		p++;
	}
	while (*p >= '0' && *p <= '9')
		v = v * 10 + (*p++ - '0');
	if (*p != ':')
		return *p == 0 ? TRACER_TRUNCATED : TRACER_FAILED;
	*id = neg ? -v : v;
	*pp = p + 1;
	return TRACER_OK;
}

/* scan one escaped token up to a stop character; 1 when a character of
 * bad (a FAILED message) came first */
static int scan_token(char **pp, const char *stop, const char *bad)
{
	char *p = *pp;
	int plain = 0;

	while (*p) {
		if (plain) {
			plain = 0;
			p++;
			continue;
		}
		if (*p == '\\') {
			plain = 1;
			delete_char(p);
			continue;
		}
		if (strchr(stop, *p))
			break;
		if (bad && strchr(bad, *p))
			return 1;
		p++;
	}
	*pp = p;
	return 0;
}

static int parse_simple(struct tracer_parser *p, char *s, const struct tracer_ids *ids)
{
	char *start;
	int r;

	p->type = *s++;
	if (*s != ':')
		return *s == 0 ? TRACER_TRUNCATED : TRACER_FAILED;
	*s++ = 0;
	if (*s == '0')		/* the reference reads '0' as the end of the text */
		return TRACER_TRUNCATED;
	r = parse_id(&s, ids, &p->id);
	if (r != TRACER_OK)
		return r;
	if (*s == '0')
		return TRACER_TRUNCATED;
	if (*s != ':') {
		for (;;) {
			start = s;
			if (push_tag(p, s))
				return TRACER_FAILED;
			if (scan_token(&s, ".:", "><=\n"))
				return TRACER_FAILED;
			push_taglen(p, (uint32_t)(s - start));
			if (*s == ':') {
				*s = 0;
				break;
			}
			if (*s == 0)
				return TRACER_TRUNCATED;
			*s++ = 0;
		}
	}
	s++;
	if (*s == 0)
		return TRACER_TRUNCATED;
	if (*s == ':')
		return TRACER_OK;
	for (;;) {
		if (push_arg(p, &p->names, &p->nargs, s))
			return TRACER_FAILED;
		if (scan_token(&s, "=", "><\n"))
			return TRACER_FAILED;
		if (*s == 0)
			return s[-1] == ':' ? TRACER_FAILED : TRACER_TRUNCATED;
		*s++ = 0;
		if (push_arg(p, &p->vals, &p->nvals, s))
			return TRACER_FAILED;
		scan_token(&s, ",:=", NULL);
		if (*s == ':') {
			*s = 0;
			return TRACER_OK;
		}
		if (*s == 0)
			return TRACER_TRUNCATED;
		*s++ = 0;
	}
}

/* ---- the JSON form: ["TYPE", ID, ["TAG", ...], [{"NAME":"VALUE"}, ...]] */

static char *skip_spaces(char *s)
{
	while (*s == ' ')
		s++;
	return s;
}

/* skip spaces and the characters of set, counting each of count;
 * TRUNCATED at the end of the text; ']' stops after a '[' when
 * stop_bracket */
static int skip_set(char **pp, const char *set, uint32_t counts[4], const char *count, int stop_bracket)
{
	char *s = *pp;

	for (;;) {
		const char *c;

		if (*s == 0)
			return TRACER_TRUNCATED;
		if (*s != ' ' && !strchr(set, *s))
			break;
		if (stop_bracket && *s == ']' && counts[1])
			break;
		if ((c = strchr(count, *s)))
			counts[c - count]++;
		s++;
	}
	*pp = s;
	return TRACER_OK;
}

/* a quoted string, cut in place; *out NULL when s is not at a quote */
static int parse_quoted(char **pp, char **out, uint32_t *len, int required)
{
	char *s = *pp;

	*out = NULL;
	if (*s != '"') {
		if (*s == 0)
			return TRACER_TRUNCATED;
		if (required)
			return TRACER_FAILED;
		*pp = s + 1;	/* the reference steps over the character */
		return TRACER_OK;
	}
	*out = ++s;
	while (!(*s == '"' && s[-1] != '\\')) {
		if (*s == 0)
			return TRACER_TRUNCATED;
		s++;
	}
	*s = 0;
	*len = (uint32_t)(s - *out);
	*pp = s + 1;
	return TRACER_OK;
}

static int parse_json_number(char **pp, int64_t *id)
{
	char *s = *pp;
	int neg = 0, r = TRACER_OK;
	int64_t v = 0;

	if (*s == '-') {
		neg = 1;
		s++;
	}
	while (*s >= '0' && *s <= '9')
		v = v * 10 + (*s++ - '0');
	if (*s == ',')
		r = TRACER_COMMA;
	else if (*s == 0)
		return TRACER_TRUNCATED;
	else if (*s != ' ')
		return TRACER_FAILED;
	*s = 0;
	*id = neg ? -v : v;
	*pp = s + 1;
	return r;
}

static int json_pair(struct tracer_parser *p, char **pp, char *name)
{
	uint32_t c[4] = { 0 }, len;
	char *val;
	int r;

	if (push_arg(p, &p->names, &p->nargs, name))
		return TRACER_FAILED;
	if ((r = skip_set(pp, ":", c, ":", 0)) != TRACER_OK)
		return r;
	if (c[0] != 1)
		return TRACER_FAILED;
	if ((r = parse_quoted(pp, &val, &len, 1)) != TRACER_OK)
		return r;
	return push_arg(p, &p->vals, &p->nvals, val) ? TRACER_FAILED : TRACER_OK;
}

static int parse_json(struct tracer_parser *p, char *s, const struct tracer_ids *ids)
{
	uint32_t c[4] = { 0 }, len;
	char *str;
	int r;

	s = skip_spaces(s);
	if (*s++ != '[')
		return TRACER_FAILED;
	if ((r = parse_quoted(&s, &str, &len, 1)) != TRACER_OK)
		return r;
	p->type = str[0];
	if ((r = skip_set(&s, ",", c, ",", 0)) != TRACER_OK)
		return r;
	if (c[0] < 1)
		return TRACER_FAILED;
	if (*s == '"') {
		s++;
		switch (*s) {
		case 't': p->id = ids->tid; s += 2; break;
		case 'g': p->id = 0; s += 2; break;
		case ':': p->id = 0; s += 1; break;
		case 'p':
			p->id = ids->pid;
			if (s[1] == 'p') {
				p->id = ids->ptid;
				s++;
			}
			s += 2;
			break;
		default:
			return TRACER_FAILED;
		}
		r = TRACER_OK;
	} else {
		r = parse_json_number(&s, &p->id);
		if (r > TRACER_COMMA)
			return r;
	}
	memset(c, 0, sizeof(c));
	if (r == TRACER_COMMA) {
		s = skip_spaces(s);
	} else {
		if ((r = skip_set(&s, ",", c, ",", 0)) != TRACER_OK)
			return r;
		if (c[0] < 1)
			return TRACER_FAILED;
	}
	memset(c, 0, sizeof(c));
	if ((r = skip_set(&s, "[", c, "[", 0)) != TRACER_OK)
		return r;
	if (c[0] != 1)
		return TRACER_FAILED;
	if ((r = parse_quoted(&s, &str, &len, 0)) != TRACER_OK)
		return r;
	if (str) {
		for (;;) {
			if (push_tag(p, str))
				return TRACER_FAILED;
			push_taglen(p, len);
			if ((r = skip_set(&s, ",", c, "", 0)) != TRACER_OK)
				return r;
			if (*s == ']')
				break;
			if ((r = parse_quoted(&s, &str, &len, 1)) != TRACER_OK)
				return r;
		}
	}
	/* the arguments: ", [{" or ", []" */
	memset(c, 0, sizeof(c));
	if ((r = skip_set(&s, ",[]{}", c, ",[{", 1)) != TRACER_OK)
		return r;
	if (c[0] != 1 || c[1] != 1 || (c[2] != 1 && *s != ']'))
		return TRACER_FAILED;
	if ((r = parse_quoted(&s, &str, &len, 0)) != TRACER_OK)
		return r;
	if (str) {
		if ((r = json_pair(p, &s, str)) != TRACER_OK)
			return r;
		for (;;) {
			memset(c, 0, sizeof(c));
			if ((r = skip_set(&s, ",{}", c, ",{}", 0)) != TRACER_OK)
				return r;
			if (!((c[0] == 1 && c[1] == 1) || (c[0] == 1 && c[2] == 1) ||
			      (c[2] == 1 && *s == ']')))
				return TRACER_FAILED;
			if (*s == ']') {
				s++;
				break;
			}
			if ((r = parse_quoted(&s, &str, &len, 1)) != TRACER_OK)
				return r;
			if ((r = json_pair(p, &s, str)) != TRACER_OK)
				return r;
		}
	}
	s = skip_spaces(s);
	if (*s != ']')
		return *s == 0 ? TRACER_TRUNCATED : TRACER_FAILED;
	return TRACER_OK;
}

/* ---- open spans */

static int copy_list(char **dst, uint32_t *cap, uint32_t *dlen, char *const *src, uint32_t n)
{
	uint32_t len = 1;

	for (uint32_t i = 0; i < n; i++)
		len += (uint32_t)strlen(src[i]) + 1;
	if (grow((void **)dst, cap, len, 1))
		return -1;
	len = 0;
	for (uint32_t i = 0; i < n; i++) {
		size_t l = strlen(src[i]) + 1;

		memcpy(*dst + len, src[i], l);
		len += (uint32_t)l;
	}
	(*dst)[len++] = 0;
	*dlen = len;
	return 0;
}

static void fill_span(struct tracer_span *sp, const struct tracer_parser *p, uint64_t ts,
		      int64_t tid)
{
	sp->id = p->id;
	sp->tid = tid;
	sp->time = ts;
	sp->ntags = p->ntags;
	sp->nargs = p->nargs;
	if (copy_list(&sp->tags, &sp->tags_cap, &sp->tags_len, p->tags, p->ntags) ||
	    copy_list(&sp->names, &sp->names_cap, &sp->names_len, p->names, p->nargs) ||
	    copy_list(&sp->vals, &sp->vals_cap, &sp->vals_len, p->vals, p->nvals))
		sp->ntags = sp->nargs = 0;
}

static int same_span(const struct tracer_span *a, const struct tracer_span *b)
{
	return a->id == b->id && a->tags_len == b->tags_len &&
	       memcmp(a->tags, b->tags, a->tags_len) == 0;
}

static void open_remove(struct tracer_spans *sp, uint32_t i)
{
	sp->spare[sp->nspare++] = sp->open[i];
	memmove(sp->open + i, sp->open + i + 1, sp->nopen - i - 1);
	sp->nopen--;
}

static void track(struct tracer_parser *p, struct tracer_spans *sp, uint64_t ts, int64_t tid)
{
	struct tracer_span *s;

	if (p->type == '>') {
		if (sp->nspare == 0) {
			/* all 128 open (drops leave enters without exits):
			 * start again, as the reference does */
			while (sp->nopen)
				open_remove(sp, sp->nopen - 1);
			return;
		}
		s = &sp->pool[sp->spare[--sp->nspare]];
		fill_span(s, p, ts, tid);
		memmove(sp->open + 1, sp->open, sp->nopen);
		sp->open[0] = (uint8_t)(s - sp->pool);
		sp->nopen++;
		p->enter = s;
		return;
	}
	fill_span(&p->exit, p, ts, tid);
	for (uint32_t i = 0; i < sp->nopen; i++) {
		s = &sp->pool[sp->open[i]];
		if (same_span(&p->exit, s)) {
			/* the span goes back to the pool but stays readable
			 * until the pool hands it out again */
			p->enter = s;
			open_remove(sp, i);
			return;
		}
	}
	p->enter = NULL;
}

const struct tracer_span *tracer_parent(const struct tracer_parser *p,
					const struct tracer_spans *sp)
{
	const struct tracer_span *e = p->enter;
	uint32_t len = 0;

	if (!e)
		return NULL;
	for (uint32_t i = 0; i + 1 < e->ntags; i++)
		len += (uint32_t)strlen(e->tags + len) + 1;
	for (uint32_t i = 0; i < sp->nopen; i++) {
		const struct tracer_span *o = &sp->pool[sp->open[i]];

		if (o->id == e->id && o->tags_len == len + 1 && memcmp(o->tags, e->tags, len) == 0)
			return o;
	}
	return NULL;
}

struct tracer_spans *tracer_spans_new(void)
{
	struct tracer_spans *sp = calloc(1, sizeof(*sp));

	if (!sp)
		return NULL;
	for (uint32_t i = 0; i < TRACER_MAX_OPEN; i++)
		sp->spare[i] = (uint8_t)(TRACER_MAX_OPEN - 1 - i);
	sp->nspare = TRACER_MAX_OPEN;
	return sp;
}

static void span_free(struct tracer_span *s)
{
	free(s->tags);
	free(s->names);
	free(s->vals);
}

void tracer_spans_free(struct tracer_spans *sp)
{
	if (!sp)
		return;
	for (uint32_t i = 0; i < TRACER_MAX_OPEN; i++)
		span_free(&sp->pool[i]);
	free(sp);
}

void tracer_parser_free(struct tracer_parser *p)
{
	if (!p)
		return;
	free(p->buf);
	free(p->whole);
	free(p->tags);
	free(p->taglens);
	free(p->names);
	free(p->vals);
	free(p->error);
	span_free(&p->exit);
	free(p);
}

/* ---- one write */

/* keep an incomplete message for the next write */
static void keep_fragment(struct tracer_parser *p, const char *data, uint32_t len)
{
	if (p->frag_len > TRACER_MAX_FRAGMENT) {
		p->frag_len = 0;
		return;
	}
	if (!p->whole) {
		memcpy(p->buf, data, len);
		p->buf[len] = 0;
		p->frag_len += len;
	} else {
		uint32_t l = (uint32_t)strlen(p->whole);

		memcpy(p->buf, p->whole, l);
		p->frag_len = l;
	}
}

int tracer_parse(struct tracer_parser *p, struct tracer_spans *sp, const char *data, uint32_t len,
		 uint64_t ts, const struct tracer_ids *ids, int track_spans)
{
	uint32_t total = p->frag_len + len;

	p->invalid = 0;
	if (grow((void **)&p->buf, &p->cap, total + 1, 1))
		return p->res = TRACER_FAILED;
	memcpy(p->buf + p->frag_len, data, len);
	p->buf[total] = 0;
	free(p->whole);
	p->whole = p->frag_len ? strdup(p->buf) : NULL;
	p->ntags = p->nlens = p->nargs = p->nvals = 0;
	if (total == 0)
		p->res = TRACER_FAILED;
	else if (p->buf[0] == '>' || p->buf[0] == '<')
		p->res = parse_simple(p, p->buf, ids);
	else
		p->res = parse_json(p, p->buf, ids);
	if (p->res == TRACER_COMMA)
		p->res = TRACER_OK;
	if (p->res == TRACER_FAILED) {
		p->frag_len = 0;
		return p->res;
	}
	if (p->res == TRACER_TRUNCATED) {
		keep_fragment(p, data, len);
		return p->res;
	}
	p->frag_len = 0;
	if (p->nvals < p->nargs)	/* a name without its value */
		p->nargs = p->nvals;
	if (track_spans && sp)
		track(p, sp, ts, ids->tid);
	return p->res;
}
