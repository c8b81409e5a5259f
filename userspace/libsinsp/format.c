/*
 * format.c - the -p output formatter (see format.h): parses a format once
 * into tokens, renders events as text lines or sorted-key JSON objects.
 */
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "format.h"
#include "fields_internal.h"

struct fmt_token {
	char *lit;		/* literal text before the field (may be empty) */
	size_t litlen;
	int has_field;
	uint32_t width;		/* 0: natural width */
	struct field_ref ref;
};

struct formatter {
	int star;		/* leading '*': print even with missing values */
	struct fmt_token *tok;
	size_t ntok;
	size_t *json_order;	/* token indices sorted by key, duplicates dropped */
	size_t njson;
	struct sbuf json_keys;	/* '"key":' of each json_order entry, escaped once */
	size_t *json_key_end;	/* end offset of entry k in json_keys */
	struct field_value val;
};

void format_unescape(char *s)
{
	char *d = s;

	while (*s) {
		if (s[0] == '\\' && s[1]) {
			char c = s[1];

			if (c == 'n' || c == 't' || c == 'e' || c == '\\') {
				*d++ = c == 'n' ? '\n' : c == 't' ? '\t' : c == 'e' ? '\x1b' : '\\';
				s += 2;
				continue;
			}
		}
		*d++ = *s++;
	}
	*d = 0;
}

void formatter_free(struct formatter *f)
{
	if (!f)
		return;
	for (size_t i = 0; i < f->ntok; i++)
		free(f->tok[i].lit);
	free(f->tok);
	free(f->json_order);
	free(f->json_key_end);
	sb_free(&f->json_keys);
	free(f);
}

static struct formatter *fail(struct formatter *f, char *err, size_t errlen, const char *msg,
			      const char *arg)
{
	snprintf(err, errlen, msg, arg);
	formatter_free(f);
	return NULL;
}

static int add_token(struct formatter *f, const char *lit, size_t litlen)
{
	struct fmt_token *t = realloc(f->tok, (f->ntok + 1) * sizeof(*t));

	if (!t)
		return -1;
	f->tok = t;
	t = &f->tok[f->ntok++];
	memset(t, 0, sizeof(*t));
	t->lit = malloc(litlen + 1);
	if (!t->lit)
		return -1;
	memcpy(t->lit, lit, litlen);
	t->lit[litlen] = 0;
	t->litlen = litlen;
	return 0;
}

static const struct formatter *g_sort_fmt;

static int cmp_key(const void *a, const void *b)
{
	const struct fmt_token *ta = &g_sort_fmt->tok[*(const size_t *)a];
	const struct fmt_token *tb = &g_sort_fmt->tok[*(const size_t *)b];
	int c = strcmp(ta->ref.name, tb->ref.name);

	if (c)
		return c;
	return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

static int build_json_order(struct formatter *f)
{
	size_t n = 0;

	f->json_order = calloc(f->ntok + 1, sizeof(size_t));
	if (!f->json_order)
		return -1;
	for (size_t i = 0; i < f->ntok; i++)
		if (f->tok[i].has_field)
			f->json_order[n++] = i;
	g_sort_fmt = f;
	qsort(f->json_order, n, sizeof(size_t), cmp_key);
	/* a repeated key keeps its last occurrence (JSON object semantics) */
	size_t m = 0;

	for (size_t i = 0; i < n; i++) {
		if (i + 1 < n && strcmp(f->tok[f->json_order[i]].ref.name,
					f->tok[f->json_order[i + 1]].ref.name) == 0)
			continue;
		f->json_order[m++] = f->json_order[i];
	}
	f->njson = m;
	f->json_key_end = calloc(m + 1, sizeof(size_t));
	if (!f->json_key_end)
		return -1;
	for (size_t k = 0; k < m; k++) {
		const char *name = f->tok[f->json_order[k]].ref.name;

		sb_json_string(&f->json_keys, name, strlen(name));
		sb_putc(&f->json_keys, ':');
		f->json_key_end[k] = f->json_keys.len;
	}
	return 0;
}

struct formatter *formatter_new(const char *fmt, char *err, size_t errlen)
{
	struct formatter *f = calloc(1, sizeof(*f));
	const char *p = fmt, *lit;

	if (!f)
		return fail(NULL, err, errlen, "%s", "out of memory");
	if (*p == 0)
		return fail(f, err, errlen, "%s", "empty formatting token");
	if (*p == '*') {
		f->star = 1;
		p++;
	}
	lit = p;
	while (*p) {
		const char *q;
		uint32_t width = 0;
		struct fmt_token *t;
		int n;

		if (*p != '%') {
			p++;
			continue;
		}
		if (add_token(f, lit, (size_t)(p - lit)))
			return fail(f, err, errlen, "%s", "out of memory");
		t = &f->tok[f->ntok - 1];
		q = p + 1;
		if (*q == 0)
			return fail(f, err, errlen, "%s",
				    "invalid formatting syntax: formatting cannot end with a %");
		while (isdigit((unsigned char)*q))
			width = width * 10 + (uint32_t)(*q++ - '0');
		if (*q == 0)
			return fail(f, err, errlen, "%s",
				    "invalid formatting syntax: formatting cannot end with a number");
		err[0] = 0;
		n = field_parse(q, &t->ref, err, errlen);
		if (n < 0) {
			formatter_free(f);
			return NULL;
		}
		if (n == 0)
			return fail(f, err, errlen, "invalid formatting token %s", q);
		/* evt.around[T] is accepted by the reference's -p, never
		 * with a value */
		if ((t->ref.flags & FIELD_FILTER_ONLY) && strncmp(t->ref.name, "evt.around", 10) != 0)
			return fail(f, err, errlen, "%s is filter only and cannot be used as a display field",
				    t->ref.name);
		/* the reference's -p reads evt.type.is without its suffix: no
		 * value, and the text goes on from the name */
		if (strncmp(t->ref.name, "evt.type.is", 11) == 0)
			t->ref.flags |= FIELD_NAME_ONLY;
		t->has_field = 1;
		t->width = width;
		p = q + n;
		if (t->ref.flags & FIELD_NAME_ONLY)
			p = q;	/* as the reference: the text goes on from the name */
		lit = p;
	}
	if (p > lit && add_token(f, lit, (size_t)(p - lit)))
		return fail(f, err, errlen, "%s", "out of memory");
	if (build_json_order(f))
		return fail(f, err, errlen, "%s", "out of memory");
	return f;
}

size_t formatter_nfields(const struct formatter *f)
{
	size_t n = 0;

	for (size_t i = 0; i < f->ntok; i++)
		n += f->tok[i].has_field;
	return n;
}

const struct field_ref *formatter_field(const struct formatter *f, size_t i)
{
	for (size_t k = 0; k < f->ntok; k++) {
		if (!f->tok[k].has_field)
			continue;
		if (i-- == 0)
			return &f->tok[k].ref;
	}
	return NULL;
}

/* raw event arguments as -p prints them (probed with sysdig 0.29.3):
 * 1 = an error ("wrong event type N"), -1 = no value (unsigned integers,
 * addresses: the line is not printed), 0 = printed */
static int text_unsupported(const struct field_ref *r, const struct field_value *v)
{
	if (r->id != F_EVT_RAWARG)
		return 0;
	switch (v->type) {
	case PT_FD: case PT_FLAGS8: case PT_FLAGS16: case PT_FLAGS32: case PT_FDLIST:
	case PT_DOUBLE: case PT_MODE: case PT_SIGSET: case PT_SIGTYPE: case PT_SYSCALLID:
		return 1;
	case PT_UINT8: case PT_UINT16: case PT_UINT32: case PT_UINT64: case PT_SOCKADDR:
	case PT_SOCKTUPLE:
		return -1;
	default:
		return 0;
	}
}

int field_value_append_json(const struct field_ref *f, struct field_value *v, struct sbuf *out,
			    char *err, size_t errlen)
{
	static struct sbuf tmp;

	switch (v->hex ? -1 : v->type) {	/* hex integers are JSON strings */
	case PT_INT8: case PT_INT16: case PT_INT32: case PT_INT64:
		sb_i64(out, v->i);
		return 0;
	case PT_UINT8: case PT_UINT16: case PT_UINT32: case PT_UINT64: case PT_RELTIME:
	case PT_ABSTIME: case PT_PORT: case PT_SIGTYPE: case PT_SYSCALLID: case PT_UID:
	case PT_GID: case PT_L4PROTO: case PT_SOCKFAMILY:
		sb_u64(out, v->u);
		return 0;
	case PT_BOOL:
		sb_puts(out, v->u ? "true" : "false");
		return 0;
	case PT_ERRNO: case PT_DOUBLE: case PT_FD: case PT_FLAGS8: case PT_FLAGS16:
	case PT_FLAGS32: case PT_MODE: case PT_SOCKADDR: case PT_SOCKTUPLE: case PT_FDLIST:
		snprintf(err, errlen, "wrong event type %d", v->type);
		return -1;
	case PT_PID:
		sb_reset(&tmp);
		sb_i64(&tmp, v->i);
		sb_json_string(out, tmp.p, tmp.len);
		return 0;
	case PT_CHARBUF: case PT_FSPATH: case PT_FSRELPATH:
		sb_json_string(out, v->str ? v->str : "", v->len);
		return 0;
	default:
		sb_reset(&tmp);
		field_value_append(f, v, &tmp);
		sb_json_string(out, tmp.p ? tmp.p : "", tmp.len);
		return 0;
	}
}

static int format_text(struct formatter *f, struct sinsp *s, struct sinsp_evt *e, struct sbuf *out,
		       char *err, size_t errlen)
{
	size_t start = out->len;

	for (size_t i = 0; i < f->ntok; i++) {
		struct fmt_token *t = &f->tok[i];
		size_t vstart;

		if (t->litlen)
			sb_put(out, t->lit, t->litlen);
		if (!t->has_field)
			continue;
		vstart = out->len;
		if (field_extract(s, e, &t->ref, &f->val) && text_unsupported(&t->ref, &f->val) >= 0) {
			if (text_unsupported(&t->ref, &f->val)) {
				snprintf(err, errlen, "wrong event type %d", f->val.type);
				out->len = start;
				return -1;
			}
			field_value_append(&t->ref, &f->val, out);
		} else if (f->star) {
			sb_put(out, "<NA>", 4);
		} else {
			out->len = start;
			out->p[start] = 0;
			return 0;
		}
		if (t->width) {
			size_t n = out->len - vstart;

			if (n > t->width) {
				out->len = vstart + t->width;
			} else if (n < t->width) {
				sb_reserve(out, t->width - n);
				memset(out->p + out->len, ' ', t->width - n);
				out->len += t->width - n;
			}
			out->p[out->len] = 0;
		}
	}
	return 1;
}

static int format_json(struct formatter *f, struct sinsp *s, struct sinsp_evt *e, struct sbuf *out,
		       char *err, size_t errlen)
{
	size_t start = out->len;

	sb_putc(out, '{');
	for (size_t k = 0; k < f->njson; k++) {
		struct fmt_token *t = &f->tok[f->json_order[k]];
		size_t ks = k ? f->json_key_end[k - 1] : 0;

		if (k)
			sb_putc(out, ',');
		sb_put(out, f->json_keys.p + ks, f->json_key_end[k] - ks);
		if (field_extract(s, e, &t->ref, &f->val)) {
			if (field_value_append_json(&t->ref, &f->val, out, err, errlen) < 0) {
				out->len = start;
				return -1;
			}
		} else if (f->star) {
			sb_put(out, "null", 4);
		} else {
			out->len = start;
			out->p[start] = 0;
			return 0;
		}
	}
	sb_putc(out, '}');
	return 1;
}

int formatter_format(struct formatter *f, struct sinsp *s, struct sinsp_evt *e, int json,
		     struct sbuf *out, char *err, size_t errlen)
{
	sb_reserve(out, 256);
	if (json)
		return format_json(f, s, e, out, err, errlen);
	return format_text(f, s, e, out, err, errlen);
}
