/*
 * json_schema.c - checks a plugin's init config against its JSON schema
 * (plugin_get_init_schema), as sysdig 0.29.3 does when it loads a plugin.
 *
 * A small JSON reader builds a tree of the schema and of the config; the
 * checker applies the JSON schema draft 7 keywords as 0.29.3 does (not
 * $ref, format and propertyNames), in its order at each level (by
 * keyword name: allOf, anyOf, not, oneOf, const, contains, dependencies,
 * enum, if/then/else, items,
 * the number, length and count limits, pattern, properties with
 * patternProperties and additionalProperties, required, type, uniqueItems),
 * members (and missing required ones) in name order, and reports the first
 * failure with its path ("In <root>[a][1], ..."), in the reference's words.
 * Patterns are POSIX extended regular expressions.  A malformed keyword
 * (e.g. a boolean exclusiveMaximum, which 0.29.3 aborts on) is read as
 * draft 4 would, or not applied.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <regex.h>
#include "json_schema.h"

enum jtype { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ };

struct jval {
	enum jtype t;
	double num;
	int b;
	char *str;		/* J_STR; member name in objects */
	struct jval **kids;	/* J_ARR items, J_OBJ members */
	char **keys;
	size_t n;
};

struct reader {
	const char *s;
	int bad;
};

static void ws(struct reader *r)
{
	while (*r->s == ' ' || *r->s == '\t' || *r->s == '\n' || *r->s == '\r')
		r->s++;
}

static void jfree(struct jval *v)
{
	size_t i;

	if (!v)
		return;
	for (i = 0; i < v->n; i++) {
		jfree(v->kids[i]);
		if (v->keys)
			free(v->keys[i]);
	}
	free(v->kids);
	free(v->keys);
	free(v->str);
	free(v);
}

/* the JSON reader's string, also plugin.c's */
char *json_read_string(const char **p)
{
	const char *s = *p;
	size_t cap = 16, n = 0;
	char *out;

	if (*s != '"' || !(out = malloc(cap)))
		return NULL;
	s++;
	while (*s && *s != '"') {
		char c = *s++;

		if (c == '\\') {
			if (!*s)
				break;	/* unterminated: refused below */
			c = *s++;
			switch (c) {
			case 'n': c = '\n'; break;
			case 't': c = '\t'; break;
			case 'r': c = '\r'; break;
			case 'b': c = '\b'; break;
			case 'f': c = '\f'; break;
			case 'u':	/* kept as text: names compare as written */
				c = '?';
				if (strlen(s) >= 4)
					s += 4;
				break;
			default: break;
			}
		}
		if (n + 2 > cap) {
			char *t = realloc(out, cap *= 2);

			if (!t) {
				free(out);
				return NULL;
			}
			out = t;
		}
		out[n++] = c;
	}
	if (*s != '"') {
		free(out);
		return NULL;
	}
	out[n] = 0;
	*p = s + 1;
	return out;
}

static char *read_string(struct reader *r)
{
	char *out = json_read_string(&r->s);

	if (!out)
		r->bad = 1;
	return out;
}

static struct jval *read_value(struct reader *r, int depth);

static int add_kid(struct jval *v, struct jval *kid, char *key)
{
	struct jval **k = realloc(v->kids, (v->n + 1) * sizeof(*k));
	char **names;

	if (!k)
		return -1;
	v->kids = k;
	if (v->t == J_OBJ) {
		names = realloc(v->keys, (v->n + 1) * sizeof(*names));
		if (!names)
			return -1;
		v->keys = names;
		v->keys[v->n] = key;
	}
	v->kids[v->n++] = kid;
	return 0;
}

static void read_list(struct reader *r, struct jval *v, char close, int depth)
{
	ws(r);
	if (*r->s == close) {
		r->s++;
		return;
	}
	for (;;) {
		char *key = NULL;
		struct jval *kid;

		ws(r);
		if (v->t == J_OBJ) {
			key = read_string(r);
			ws(r);
			if (r->bad || *r->s != ':') {
				free(key);
				r->bad = 1;
				return;
			}
			r->s++;
		}
		kid = read_value(r, depth + 1);
		if (r->bad || add_kid(v, kid, key) < 0) {
			jfree(kid);
			free(key);
			r->bad = 1;
			return;
		}
		ws(r);
		if (*r->s == ',') {
			r->s++;
			continue;
		}
		if (*r->s == close) {
			r->s++;
			return;
		}
		r->bad = 1;
		return;
	}
}

static struct jval *read_value(struct reader *r, int depth)
{
	struct jval *v;
	char *end;

	ws(r);
	if (depth > 200 || !(v = calloc(1, sizeof(*v)))) {
		r->bad = 1;
		return NULL;
	}
	if (*r->s == '{' || *r->s == '[') {
		char close = *r->s == '{' ? '}' : ']';

		v->t = close == '}' ? J_OBJ : J_ARR;
		r->s++;
		read_list(r, v, close, depth);
	} else if (*r->s == '"') {
		v->t = J_STR;
		v->str = read_string(r);
	} else if (!strncmp(r->s, "true", 4) || !strncmp(r->s, "false", 5)) {
		v->t = J_BOOL;
		v->b = *r->s == 't';
		r->s += v->b ? 4 : 5;
	} else if (!strncmp(r->s, "null", 4)) {
		v->t = J_NULL;
		r->s += 4;
	} else {
		v->t = J_NUM;
		v->num = strtod(r->s, &end);
		if (end == r->s)
			r->bad = 1;
		r->s = end;
	}
	if (r->bad) {
		jfree(v);
		return NULL;
	}
	return v;
}

static struct jval *parse(const char *text)
{
	struct reader r = { text, 0 };
	struct jval *v = read_value(&r, 0);

	if (!r.bad)
		ws(&r);
	if (r.bad || *r.s) {
		jfree(v);
		return NULL;
	}
	return v;
}

static const struct jval *member(const struct jval *o, const char *name)
{
	size_t i;

	if (!o || o->t != J_OBJ)
		return NULL;
	for (i = 0; i < o->n; i++)
		if (!strcmp(o->keys[i], name))
			return o->kids[i];
	return NULL;
}

static int equal(const struct jval *a, const struct jval *b)
{
	size_t i;

	if (a->t != b->t || a->n != b->n)
		return 0;
	switch (a->t) {
	case J_NULL: return 1;
	case J_BOOL: return a->b == b->b;
	case J_NUM: return a->num == b->num;
	case J_STR: return !strcmp(a->str, b->str);
	case J_ARR:
		for (i = 0; i < a->n; i++)
			if (!equal(a->kids[i], b->kids[i]))
				return 0;
		return 1;
	case J_OBJ:
		for (i = 0; i < a->n; i++) {
			const struct jval *o = member(b, a->keys[i]);

			if (!o || !equal(a->kids[i], o))
				return 0;
		}
		return 1;
	}
	return 0;
}

static int type_is(const struct jval *v, const char *name)
{
	if (!strcmp(name, "integer"))
		return v->t == J_NUM && v->num == floor(v->num);
	if (!strcmp(name, "number"))
		return v->t == J_NUM;
	if (!strcmp(name, "string"))
		return v->t == J_STR;
	if (!strcmp(name, "boolean"))
		return v->t == J_BOOL;
	if (!strcmp(name, "object"))
		return v->t == J_OBJ;
	if (!strcmp(name, "array"))
		return v->t == J_ARR;
	if (!strcmp(name, "null"))
		return v->t == J_NULL;
	return 0;
}

static int type_ok(const struct jval *v, const struct jval *type)
{
	size_t i;

	if (type->t == J_STR)
		return type_is(v, type->str);
	if (type->t != J_ARR)
		return 1;
	for (i = 0; i < type->n; i++)
		if (type->kids[i]->t == J_STR && type_is(v, type->kids[i]->str))
			return 1;
	return 0;
}

struct check {
	char *err;
	size_t errlen;
	char path[512];
};

static int fail(struct check *c, const char *what)
{
	snprintf(c->err, c->errlen, "In %s, %s", c->path, what);
	return -1;
}

static int validate(struct check *c, const struct jval *schema, const struct jval *v);

/* validate v at path + "[part]", then restore the path */
static int validate_at(struct check *c, const struct jval *schema, const struct jval *v,
		       const char *part)
{
	size_t len = strlen(c->path);
	int rc;

	snprintf(c->path + len, sizeof(c->path) - len, "[%s]", part);
	rc = validate(c, schema, v);
	c->path[len] = 0;
	return rc;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* the number as the reference prints it: integers plain, others %f */
static void fmt_num(char *b, size_t n, double v)
{
	if (v == floor(v) && fabs(v) < 1e15)
		snprintf(b, n, "%.0f", v);
	else
		snprintf(b, n, "%f", v);
}

static int failf(struct check *c, const char *fmt, const char *arg)
{
	char m[400];

	snprintf(m, sizeof(m), fmt, arg);
	return fail(c, m);
}

static int count_fail(struct check *c, const char *fmt, double n)
{
	char m[300];

	snprintf(m, sizeof(m), fmt, (int)n);
	return fail(c, m);
}

static int regex_match(const char *re, const char *s)
{
	regex_t r;
	int m;

	if (regcomp(&r, re, REG_EXTENDED | REG_NOSUB))
		return 1;	/* a pattern we cannot read is not applied */
	m = !regexec(&r, s, 0, NULL, 0);
	regfree(&r);
	return m;
}

static size_t utf8_len(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

/* does v satisfy schema (errors not kept) */
static int satisfies(struct check *c, const struct jval *schema, const struct jval *v)
{
	struct check t = *c;
	char m[16];

	t.err = m;
	t.errlen = sizeof(m);
	return validate(&t, schema, v) == 0;
}

static double num_of(const struct jval *k, int *ok)
{
	*ok = k && k->t == J_NUM;
	return *ok ? k->num : 0;
}

static int check_numbers(struct check *c, const struct jval *schema, const struct jval *v)
{
	const struct jval *emax = member(schema, "exclusiveMaximum"), *emin = member(schema, "exclusiveMinimum");
	int ok;
	double x;
	char b[64], m[128];

	if (v->t != J_NUM)
		return 0;
	x = num_of(emax, &ok);
	if (ok && !(v->num < x)) {
		fmt_num(b, sizeof(b), x);
		snprintf(m, sizeof(m), "Expected number less than %f", x);
		return fail(c, m);
	}
	x = num_of(emin, &ok);
	if (ok && !(v->num > x)) {
		snprintf(m, sizeof(m), "Expected number greater than %f", x);
		return fail(c, m);
	}
	x = num_of(member(schema, "maximum"), &ok);
	if (ok && (emax && emax->t == J_BOOL && emax->b ? !(v->num < x) : v->num > x)) {
		snprintf(m, sizeof(m), "Expected number less than%s %f",
			 emax && emax->t == J_BOOL && emax->b ? "" : " or equal to", x);
		return fail(c, m);
	}
	x = num_of(member(schema, "minimum"), &ok);
	if (ok && (emin && emin->t == J_BOOL && emin->b ? !(v->num > x) : v->num < x)) {
		snprintf(m, sizeof(m), "Expected number greater than%s %f",
			 emin && emin->t == J_BOOL && emin->b ? "" : " or equal to", x);
		return fail(c, m);
	}
	x = num_of(member(schema, "multipleOf"), &ok);
	if (ok && x > 0 && fabs(remainder(v->num, x)) > 1e-9 * fabs(x)) {
		fmt_num(b, sizeof(b), x);
		return failf(c, "Value should be a multiple of %s", b);
	}
	return 0;
}

static int check_counts(struct check *c, const struct jval *schema, const struct jval *v)
{
	int ok;
	double x;

	if (v->t == J_ARR) {
		x = num_of(member(schema, "maxItems"), &ok);
		if (ok && v->n > x)
			return count_fail(c, "Array should contain no more than %d elements.", x);
		x = num_of(member(schema, "minItems"), &ok);
		if (ok && v->n < x)
			return count_fail(c, "Array should contain no fewer than %d elements.", x);
	}
	if (v->t == J_STR) {
		x = num_of(member(schema, "maxLength"), &ok);
		if (ok && utf8_len(v->str) > x)
			return count_fail(c, "String should be no more than %d characters in length.", x);
		x = num_of(member(schema, "minLength"), &ok);
		if (ok && utf8_len(v->str) < x)
			return count_fail(c, "String should be no fewer than %d characters in length.", x);
	}
	if (v->t == J_OBJ) {
		x = num_of(member(schema, "maxProperties"), &ok);
		if (ok && v->n > x)
			return count_fail(c, "Object should have no more than %d properties.", x);
		x = num_of(member(schema, "minProperties"), &ok);
		if (ok && v->n < x)
			return count_fail(c, "Object should have no fewer than %d properties.", x);
	}
	return 0;
}

/* allOf, anyOf, not, oneOf */
static int check_combinations(struct check *c, const struct jval *schema, const struct jval *v)
{
	const struct jval *k;
	size_t i, n = 0;

	k = member(schema, "allOf");
	for (i = 0; k && k->t == J_ARR && i < k->n; i++)
		if (validate(c, k->kids[i], v) < 0)
			return -1;
	k = member(schema, "anyOf");
	if (k && k->t == J_ARR && k->n) {
		for (i = 0; i < k->n && !satisfies(c, k->kids[i], v); i++)
			;
		if (i == k->n)
			return validate(c, k->kids[0], v);	/* the first one's words */
	}
	k = member(schema, "not");
	if (k && k->t == J_OBJ && satisfies(c, k, v))
		return fail(c, "Target should not validate against schema specified in 'not' constraint.");
	k = member(schema, "oneOf");
	if (k && k->t == J_ARR) {
		for (i = 0; i < k->n; i++)
			n += (size_t)satisfies(c, k->kids[i], v);
		if (n == 0 && k->n)
			return validate(c, k->kids[0], v);	/* the first one's words */
		if (n > 1)
			return fail(c, "Failed to validate against exactly one child schema.");
	}
	return 0;
}

/* properties, patternProperties, additionalProperties: each member in name
 * order against the schemas that apply to it */
static int check_members(struct check *c, const struct jval *schema, const struct jval *v)
{
	const struct jval *props = member(schema, "properties"), *pat = member(schema, "patternProperties"),
			  *add = member(schema, "additionalProperties");
	const char **names;
	size_t i, j;
	int rc = 0;

	if (v->t != J_OBJ || !v->n || (!props && !pat && !add))
		return 0;
	names = malloc(v->n * sizeof(*names));
	if (!names)
		return 0;
	for (i = 0; i < v->n; i++)
		names[i] = v->keys[i];
	qsort(names, v->n, sizeof(*names), by_name);
	for (i = 0; i < v->n && !rc; i++) {
		const struct jval *sub = props && props->t == J_OBJ ? member(props, names[i]) : NULL;
		int known = sub != NULL;

		if (sub)
			rc = validate_at(c, sub, member(v, names[i]), names[i]);
		for (j = 0; !rc && pat && pat->t == J_OBJ && j < pat->n; j++)
			if (regex_match(pat->keys[j], names[i])) {
				known = 1;
				rc = validate_at(c, pat->kids[j], member(v, names[i]), names[i]);
			}
		if (rc || known || !add)
			continue;
		if (add->t == J_BOOL && !add->b)
			rc = failf(c, "Object contains a property that could not be validated using "
				   "'properties' or 'additionalProperties' constraints: '%s'.", names[i]);
		else if (add->t == J_OBJ)
			rc = validate_at(c, add, member(v, names[i]), names[i]);
	}
	free(names);
	return rc;
}

/* the keywords in the reference's order (its parser's: by name) */
static int validate(struct check *c, const struct jval *schema, const struct jval *v)
{
	const struct jval *k;
	size_t i, j;

	if (schema->t != J_OBJ)
		return 0;
	if (check_combinations(c, schema, v) < 0)
		return -1;
	k = member(schema, "const");
	if (k && !equal(k, v))
		return fail(c, "Failed to match expected value set by 'const' constraint.");
	k = member(schema, "contains");
	if (k && k->t == J_OBJ && v->t == J_ARR) {
		for (i = 0; i < v->n && !satisfies(c, k, v->kids[i]); i++)
			;
		if (i == v->n)	/* sic */
			return fail(c, "Failed to any values against subschema in 'contains' constraint.");
	}
	k = member(schema, "dependencies");
	if (k && k->t == J_OBJ && v->t == J_OBJ) {
		for (i = 0; i < k->n; i++) {
			const struct jval *d = k->kids[i];

			if (!member(v, k->keys[i]))
				continue;
			for (j = 0; d->t == J_ARR && j < d->n; j++)
				if (d->kids[j]->t == J_STR && !member(v, d->kids[j]->str))
					return failf(c, "Missing dependency '%s'.", d->kids[j]->str);
			if (d->t == J_OBJ && validate(c, d, v) < 0)
				return -1;
		}
	}
	k = member(schema, "enum");
	if (k && k->t == J_ARR) {
		for (i = 0; i < k->n && !equal(k->kids[i], v); i++)
			;
		if (i == k->n)
			return fail(c, "Failed to match against any enum values.");
	}
	k = member(schema, "if");
	if (k && k->t == J_OBJ) {
		const struct jval *then = member(schema, satisfies(c, k, v) ? "then" : "else");

		if (then && validate(c, then, v) < 0)
			return -1;
	}
	k = member(schema, "items");
	if (k && k->t == J_OBJ && v->t == J_ARR) {
		for (i = 0; i < v->n; i++) {
			char idx[32];

			snprintf(idx, sizeof(idx), "%zu", i);
			if (validate_at(c, k, v->kids[i], idx) < 0)
				return -1;
		}
	}
	if (check_numbers(c, schema, v) < 0 || check_counts(c, schema, v) < 0)
		return -1;
	k = member(schema, "pattern");
	if (k && k->t == J_STR && v->t == J_STR && !regex_match(k->str, v->str))
		return fail(c, "Failed to match regex specified by 'pattern' constraint.");
	if (check_members(c, schema, v) < 0)
		return -1;
	k = member(schema, "required");
	if (k && k->t == J_ARR && v->t == J_OBJ) {
		const char *missing = NULL;	/* the first in name order */

		for (i = 0; i < k->n; i++)
			if (k->kids[i]->t == J_STR && !member(v, k->kids[i]->str) &&
			    (!missing || strcmp(k->kids[i]->str, missing) < 0))
				missing = k->kids[i]->str;
		if (missing)
			return failf(c, "Missing required property '%s'.", missing);
	}
	k = member(schema, "type");
	if (k && !type_ok(v, k))
		return fail(c, "Value type not permitted by 'type' constraint.");
	k = member(schema, "uniqueItems");
	if (k && k->t == J_BOOL && k->b && v->t == J_ARR) {
		for (i = 0; i < v->n; i++)
			for (j = i + 1; j < v->n; j++)
				if (equal(v->kids[i], v->kids[j])) {
					char m[128];

					snprintf(m, sizeof(m),
						 "Elements at indexes #%zu and #%zu violate uniqueness constraint.", i, j);
					return fail(c, m);
				}
	}
	return 0;
}

int json_schema_check(const char *schema, const char *doc, char *err, size_t errlen)
{
	struct jval *s = parse(schema), *d;
	struct check c;
	int rc = 0;

	if (!s)
		return 0;	/* not a schema we can read: nothing to apply */
	d = parse(doc);
	if (d) {
		c.err = err;
		c.errlen = errlen;
		snprintf(c.path, sizeof(c.path), "<root>");
		rc = validate(&c, s, d);
	}
	jfree(s);
	jfree(d);
	return rc;
}
