/*
 * chisel_fmt.c - the per-chisel event formatter (chisel.set_event_formatter).
 *
 * A format is the -p syntax: literal text and %[width]field references,
 * with a leading '*' meaning "print even when a field has no value"
 * (otherwise such an event prints nothing).  Fields are evaluated with the
 * shared extractor of fields.h so chisel output matches -p output.
 */
#include <stdlib.h>
#include <string.h>
#include "chisel_internal.h"

struct fmt_tok {
	char *text;		/* literal, or NULL for a field */
	struct field_ref ref;
	int width;
};

struct chisel_fmt {
	int star;
	struct fmt_tok *t;
	size_t n;
};

static struct fmt_tok *add_tok(struct chisel_fmt *f)
{
	struct fmt_tok *nt = realloc(f->t, (f->n + 1) * sizeof(*nt));

	if (!nt)
		return NULL;
	f->t = nt;
	memset(&nt[f->n], 0, sizeof(*nt));
	return &nt[f->n++];
}

static int add_literal(struct chisel_fmt *f, const char *s, size_t len)
{
	struct fmt_tok *t;

	if (!len)
		return 0;
	t = add_tok(f);
	if (!t)
		return -1;
	t->text = strndup(s, len);
	return t->text ? 0 : -1;
}

struct chisel_fmt *chisel_fmt_new(const char *fmt, char *err, size_t errlen)
{
	struct chisel_fmt *f = calloc(1, sizeof(*f));
	const char *p = fmt, *lit;

	if (!f)
		return NULL;
	if (*p == '*') {
		f->star = 1;
		p++;
	}
	lit = p;
	while (*p) {
		const char *q = p + 1;
		int width = 0, used;
		struct field_ref ref;

		if (*p != '%') {
			p++;
			continue;
		}
		while (*q >= '0' && *q <= '9')
			width = width * 10 + (*q++ - '0');
		used = field_parse(q, &ref, err, errlen);
		if (used < 0) {
			chisel_fmt_free(f);
			return NULL;
		}
		if (used == 0) {
			p++;
			continue;
		}
		if (add_literal(f, lit, (size_t)(p - lit)) < 0) {
			chisel_fmt_free(f);
			return NULL;
		}
		struct fmt_tok *t = add_tok(f);

		if (!t) {
			chisel_fmt_free(f);
			return NULL;
		}
		t->ref = ref;
		t->width = width;
		p = q + used;
		lit = p;
	}
	if (add_literal(f, lit, (size_t)(p - lit)) < 0) {
		chisel_fmt_free(f);
		return NULL;
	}
	return f;
}

void chisel_fmt_print(struct chisel_fmt *f, struct sinsp *s, struct sinsp_evt *e, FILE *out)
{
	struct field_value *v = malloc(sizeof(*v));
	char *line = NULL;
	size_t len = 0, i;
	FILE *m;

	if (!v)
		return;
	m = open_memstream(&line, &len);
	if (!m) {
		free(v);
		return;
	}
	for (i = 0; i < f->n; i++) {
		struct fmt_tok *t = &f->t[i];
		char buf[FIELD_STRBUF_SIZE];
		const char *str = "<NA>";

		if (t->text) {
			fputs(t->text, m);
			continue;
		}
		if (field_extract(s, e, &t->ref, v))
			str = field_to_string(&t->ref, v, buf, sizeof(buf));
		else if (!f->star)
			goto skip;
		fprintf(m, "%-*s", t->width, str ? str : "");
	}
	fclose(m);
	fprintf(out, "%s\n", line);
	free(line);
	free(v);
	return;
skip:
	fclose(m);
	free(line);
	free(v);
}

void chisel_fmt_free(struct chisel_fmt *f)
{
	size_t i;

	if (!f)
		return;
	for (i = 0; i < f->n; i++)
		free(f->t[i].text);
	free(f->t);
	free(f);
}
