/*
 * filter.c - compiler of the sysdig filter language (filter.h,
 * docs/filters.md).
 *
 * The scanner reproduces the character-driven scanner of sysdig 0.29.3 so
 * that every filter it accepts means the same here and errors report the
 * same "filter error at position N: ..." text.  One deliberate extension:
 * where the reference rejects mixing 'and' and 'or' in one group ("expression
 * mixes 'and' and 'or' in an ambiguous way"), we accept it with the usual
 * precedence  not > and > or  (each group is compiled as an OR of AND-chains).
 *
 * Values are converted once, at compile time, to the field's type; checks
 * that the reference would reject on the first evaluated event ("'contains'
 * not supported for numeric filters") are rejected at compile time with the
 * same message.  The compiler also computes, per event type, whether the
 * filter can match at all (filter_may_match_type) from the evt.type checks.
 * Evaluation lives in filter_eval.c.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdarg.h>
#include <ctype.h>
#include <errno.h>
#include <netdb.h>
#include <arpa/inet.h>
#include "filter_internal.h"
#include "fields_internal.h"
#include "event_table.h"

#define ST_NEED_EXPR 0

/* Deepest nesting of '(' accepted (filter.h FILTER_MAX_DEPTH): the compiled
 * tree is then at most 2 * FILTER_MAX_DEPTH + 1 nodes deep, which bounds
 * the recursion of preselect() and filter_eval_node(). */
#define ST_DONE 1

/* connectives, as the reference keeps them: the last one seen stays in force
 * (so "a and b not c" means "a and b and not c") and is reset by '(' */
#define CONN_NONE 0
#define CONN_AND 1
#define CONN_OR 2

/* a group being built: items joined by and/or, compiled when it closes */
struct pgroup {
	int *items;
	uint8_t *ops;		/* ops[i]: connective before items[i] (1 = or) */
	uint32_t n, cap;
	int neg;
	int parent_conn;		/* CONN_*: connective before this group in its parent */
};

struct parser {
	const char *s;
	long len;
	long pos;		/* current character, as the reference's scan position */
	struct filter *f;
	char *err;
	size_t errlen;
	int failed;
	struct pgroup *stack;
	int depth, cap;
	int pending_not;
	int last_op;		/* CONN_*: connective for the next term */
	int bad_paren;		/* ')' without a matching '(' or after nothing */
	int thread_table;	/* compiled for a thread-table call: event fields refused */
};

static int perr(struct parser *p, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	if (p->failed)
		return -1;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(p->err, p->errlen, "filter error at position %ld: %s", p->pos, msg);
	p->failed = 1;
	return -1;
}

/* run-time errors of the reference carry no position */
static int perr_nopos(struct parser *p, const char *fmt, ...)
{
	va_list ap;

	if (p->failed)
		return -1;
	va_start(ap, fmt);
	vsnprintf(p->err, p->errlen, fmt, ap);
	va_end(ap);
	p->failed = 1;
	return -1;
}

static int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

static char cur(const struct parser *p)
{
	return p->pos >= 0 && p->pos < p->len ? p->s[p->pos] : 0;
}

/* advance to the next non-blank character (0 at the end; like the
 * reference, the position may then go one past the end) */
static char next(struct parser *p)
{
	for (;;) {
		p->pos++;
		if (p->pos >= p->len)
			return 0;
		if (!is_blank(p->s[p->pos]))
			return p->s[p->pos];
	}
}

/* ---- tree building ---- */

static void *xrealloc(void *ptr, size_t n)
{
	void *r = realloc(ptr, n ? n : 1);

	if (!r) {
		fprintf(stderr, "out of memory\n");
		exit(1);
	}
	return r;
}

static int new_node(struct filter *f, int kind)
{
	struct fnode *n;

	if (f->nnodes == f->capnodes) {
		f->capnodes = f->capnodes ? 2 * f->capnodes : 16;
		f->nodes = xrealloc(f->nodes, f->capnodes * sizeof(*f->nodes));
	}
	n = &f->nodes[f->nnodes];
	memset(n, 0, sizeof(*n));
	n->kind = (uint8_t)kind;
	n->slot = -1;
	return (int)f->nnodes++;
}

static void node_add_kid(struct filter *f, int parent, int kid)
{
	struct fnode *n = &f->nodes[parent];

	if ((n->nkids & (n->nkids - 1)) == 0)	/* doubles at powers of two */
		n->kids = xrealloc(n->kids, (n->nkids ? 2 * n->nkids : 1) * sizeof(int));
	n->kids[n->nkids++] = kid;
}

static void group_add(struct pgroup *g, int item, int is_or)
{
	if (g->n == g->cap) {
		g->cap = g->cap ? 2 * g->cap : 4;
		g->items = xrealloc(g->items, g->cap * sizeof(int));
		g->ops = xrealloc(g->ops, g->cap);
	}
	g->items[g->n] = item;
	g->ops[g->n] = (uint8_t)is_or;
	g->n++;
}

/* One AND-chain of a group: items[from, to) */
static int and_chain(struct filter *f, const struct pgroup *g, uint32_t from, uint32_t to)
{
	int n;

	if (to - from == 1)
		return g->items[from];
	n = new_node(f, N_AND);
	for (; from < to; from++)
		node_add_kid(f, n, g->items[from]);
	return n;
}

/* Compile a closed group: and binds tighter than or, so the group is an OR
 * of AND-chains.  A negated group that is a single term gets a wrapper so
 * the term's own "not" is kept. */
static int group_close(struct filter *f, struct pgroup *g)
{
	int res = -1, first = -1;
	uint32_t i, from = 0;

	for (i = 1; i <= g->n; i++) {
		int chain;
		if (i < g->n && !g->ops[i])
			continue;
		chain = and_chain(f, g, from, i);
		from = i;
		if (first < 0) {
			first = res = chain;
			continue;
		}
		if (res == first) {
			res = new_node(f, N_OR);
			node_add_kid(f, res, first);
		}
		node_add_kid(f, res, chain);
	}
	if (g->neg) {
		if (f->nodes[res].neg || f->nodes[res].kind == N_CHECK) {
			int w = new_node(f, N_AND);
			node_add_kid(f, w, res);
			res = w;
		}
		f->nodes[res].neg = 1;
	}
	free(g->items);
	free(g->ops);
	memset(g, 0, sizeof(*g));
	return res;
}

/* A term joins its group with the connective in force.  A term after the
 * first one with no and/or before it ("a not b") is ignored, as by the
 * reference. */
static void add_term(struct pgroup *g, int node, int conn)
{
	if (g->n > 0 && conn == CONN_NONE)
		return;
	group_add(g, node, conn == CONN_OR);
}

static struct pgroup *push_group(struct parser *p, int neg)
{
	struct pgroup *g;

	if (p->depth == p->cap) {
		p->cap = p->cap ? 2 * p->cap : 8;
		p->stack = xrealloc(p->stack, p->cap * sizeof(*p->stack));
	}
	g = &p->stack[p->depth++];
	memset(g, 0, sizeof(*g));
	g->neg = neg;
	return g;
}

/* ---- field slots ---- */

static int find_slot(struct filter *f, const struct field_ref *r)
{
	uint32_t i;

	for (i = 0; i < f->nslots; i++)
		if (strcmp(f->slots[i].ref.name, r->name) == 0)
			return (int)i;
	f->slots = xrealloc(f->slots, (f->nslots + 1) * sizeof(*f->slots));
	memset(&f->slots[f->nslots], 0, sizeof(f->slots[0]));
	f->slots[f->nslots].ref = *r;
	f->slots[f->nslots].ref.flags |= FIELD_IN_FILTER;
	return (int)f->nslots++;
}

/* ---- value conversion ---- */

static enum cmp_kind kind_of_type(int t)
{
	switch (t) {
	case PT_INT8: case PT_INT16: case PT_INT32: case PT_INT64:
	case PT_FD: case PT_PID: case PT_ERRNO:
		return CK_SIGNED;
	case PT_UINT8: case PT_UINT16: case PT_UINT32: case PT_UINT64:
	case PT_L4PROTO: case PT_SOCKFAMILY: case PT_BOOL: case PT_PORT:
	case PT_FLAGS8: case PT_FLAGS16: case PT_FLAGS32: case PT_MODE:
	case PT_UID: case PT_GID: case PT_SYSCALLID: case PT_SIGTYPE:
	case PT_RELTIME: case PT_ABSTIME: case PT_SIGSET:
		return CK_UNSIGNED;
	case PT_BYTEBUF:
		return CK_BUFFER;
	case PT_IPV4ADDR: case PT_IPV6ADDR: case PT_IPADDR:
		return CK_IP;
	case PT_IPV4NET: case PT_IPV6NET: case PT_IPNET:
		return CK_NET;
	}
	return CK_STRING;
}

/* bit width of the stored value of integer types */
static int int_bits(int t)
{
	switch (t) {
	case PT_INT8: case PT_UINT8: case PT_FLAGS8: case PT_L4PROTO: case PT_SOCKFAMILY:
		return 8;
	case PT_INT16: case PT_UINT16: case PT_FLAGS16: case PT_PORT: case PT_SYSCALLID:
		return 16;
	case PT_INT32: case PT_UINT32: case PT_FLAGS32: case PT_MODE: case PT_UID:
	case PT_GID: case PT_BOOL: case PT_SIGTYPE:
		return 32;
	}
	return 64;
}

static int parse_num(struct parser *p, const char *v, int sgn, int bits, struct fvalue *out)
{
	char *end;
	const char *q = v;

	while (is_blank(*q))
		q++;
	if (!*q || !(isdigit((unsigned char)*q) || ((*q == '-' || *q == '+') && isdigit((unsigned char)q[1]))))
		return perr(p, "%s is not a valid number", v);
	errno = 0;
	if (sgn) {
		long long x = strtoll(q, &end, 10);
		if (*end)
			return perr(p, "%s is not a valid number", v);
		if (bits == 8)
			x = (int8_t)x;
		else if (bits == 16)
			x = (int16_t)x;
		else if (bits == 32)
			x = (int32_t)x;
		out->i = x;
		out->u = (uint64_t)x;
	} else {
		unsigned long long x = strtoull(q, &end, 10);
		if (*end)
			return perr(p, "%s is not a valid number", v);
		if (bits < 64)
			x &= (1ULL << bits) - 1;
		out->u = x;
		out->i = (int64_t)x;
	}
	return 0;
}

static int parse_ip(struct parser *p, const char *v, int type, struct fvalue *out)
{
	if (type == PT_IPV4ADDR || strchr(v, '.')) {
		if (inet_pton(AF_INET, v, out->ip) != 1)
			return perr(p, "unrecognized IPv4 address %s", v);
		out->iplen = 4;
	} else {
		if (inet_pton(AF_INET6, v, out->ip) != 1)
			return perr(p, "unrecognized IPv6 address %s", v);
		out->iplen = 16;
	}
	return 0;
}

static int parse_net(struct parser *p, const char *v, struct fvalue *out)
{
	char addr[128];
	const char *slash = strchr(v, '/');
	char *end;
	long bits;

	if (!strchr(v, '.') && !slash) {
		if (inet_pton(AF_INET6, v, out->ip) != 1)
			return perr(p, "unrecognized IPv6 address %s", v);
		out->iplen = 16;
		out->prefix = 128;
		return 0;
	}
	if (!slash || (size_t)(slash - v) >= sizeof(addr))
		return perr(p, "unrecognized IP network %s", v);
	memcpy(addr, v, (size_t)(slash - v));
	addr[slash - v] = 0;
	bits = strtol(slash + 1, &end, 10);
	if (strchr(addr, '.')) {
		if (inet_pton(AF_INET, addr, out->ip) != 1)
			return perr(p, "unrecognized IP network %s", v);
		if (*end || end == slash + 1 || bits < 0 || bits > 32)
			return perr(p, "invalid netmask %s", slash + 1);
		out->iplen = 4;
	} else {
		if (inet_pton(AF_INET6, addr, out->ip) != 1)
			return perr(p, "unrecognized IP network %s", v);
		if (*end || end == slash + 1 || bits < 0 || bits > 128)
			return perr(p, "invalid netmask %s", slash + 1);
		out->iplen = 16;
	}
	out->prefix = (uint8_t)bits;
	return 0;
}

static int parse_port(struct parser *p, const char *v, struct fvalue *out)
{
	struct servent *se;

	if (!*v) {
		out->u = 0;
		return 0;
	}
	if (strspn(v, "0123456789") == strlen(v)) {
		/* 0.29.3 reads the digits as an int (std::stoi): beyond its
		 * range the whole filter fails, without a position */
		errno = 0;
		unsigned long long x = strtoull(v, NULL, 10);
		if (errno || x > INT32_MAX)
			return perr_nopos(p, "error parsing the filter string");
		out->u = x & 0xffff;
		out->i = (int64_t)out->u;
		return 0;
	}
	se = getservbyname(v, NULL);
	if (!se)
		return perr(p, "unrecognized protocol %s", v);
	out->u = ntohs((uint16_t)se->s_port);
	out->i = (int64_t)out->u;
	return 0;
}

/* an event or syscall name known to the event table */
static int known_event_name(const char *v)
{
	unsigned i;

	for (i = 0; i < PPM_EVENT_MAX; i++)
		if (g_event_info[i].name && strcmp(g_event_info[i].name, v) == 0)
			return 1;
	for (i = 0; i < g_ppm_sc_count; i++)
		if (g_ppm_sc_names[i] && strcmp(g_ppm_sc_names[i], v) == 0)
			return 1;
	return 0;
}

static int is_field(const struct field_ref *r, const char *name)
{
	return strcmp(r->name, name) == 0;
}

/* types the reference cannot parse a comparison value for */
static int value_type_supported(const struct field_ref *r)
{
	switch (r->type) {
	case PT_DOUBLE: case PT_PID: case PT_SIGTYPE: case PT_SOCKTUPLE: case PT_SOCKADDR:
	case PT_FDLIST: case PT_SIGSET: case PT_SYSCALLID: case PT_CHARBUFARRAY:
	case PT_CHARBUF_PAIR_ARRAY: case PT_DYN:
		return 0;
	case PT_BYTEBUF:	/* evt.buffer is special-cased, evt.rawarg.* is not */
		return strncmp(r->name, "evt.rawarg", 10) != 0;
	}
	return 1;
}

/* Convert one value text (len bytes, may hold NULs from \x00) for check c. */
static int convert_value(struct parser *p, struct fnode *c, const struct field_ref *r,
			 const char *v, uint32_t len, struct fvalue *out)
{
	int t = r->type;

	memset(out, 0, sizeof(*out));
	if (c->special == SP_AROUND)
		return parse_num(p, v, 0, 64, out) < 0 ? -1 : (out->u *= 1000000, 0);
	if (c->special == SP_ANAME_ANY)
		t = PT_CHARBUF;
	if (!value_type_supported(r))
		return perr(p, "wrong parameter type %d", t);
	switch (c->ck) {
	case CK_STRING:
	case CK_BUFFER: {
		char *copy = xrealloc(NULL, len + 1);
		memcpy(copy, v, len);
		copy[len] = 0;
		out->s = copy;
		out->len = len;
		if (is_field(r, "evt.type") && !known_event_name(copy))
			return perr(p, "unknown event type %s", copy);
		return 0;
	}
	case CK_SIGNED:
		return parse_num(p, v, 1, int_bits(t), out);
	case CK_UNSIGNED:
		if (t == PT_BOOL) {
			if (strcmp(v, "true") == 0)
				out->u = 1;
			else if (strcmp(v, "false") == 0)
				out->u = 0;
			else
				return perr(p, "filter error: unrecognized boolean value %s", v);
			out->i = (int64_t)out->u;
			return 0;
		}
		if (t == PT_PORT)
			return parse_port(p, v, out);
		return parse_num(p, v, 0, int_bits(t), out);
	case CK_IP:
		return parse_ip(p, v, t, out);
	case CK_NET:
		return parse_net(p, v, out);
	}
	return 0;
}

static const char *op_text(int op)
{
	static const char *const t[] = {
		"=", "!=", "<", "<=", ">", ">=", "contains", "icontains",
		"startswith", "endswith", "glob", "in", "intersects", "pmatch", "exists",
	};
	return t[op];
}

/* Operators the reference rejects when it first evaluates the check. */
static int check_op_supported(struct parser *p, const struct fnode *c)
{
	int op = c->op;

	if (op == OP_EXISTS || op == OP_IN || op == OP_INTERSECTS || op == OP_PMATCH)
		return 0;
	if ((c->ck == CK_SIGNED || c->ck == CK_UNSIGNED || c->ck == CK_IP) &&
	    op >= OP_CONTAINS && op <= OP_GLOB && (c->special == SP_NONE || c->special == SP_EVTIN))
		return perr_nopos(p, "'%s' not supported for numeric filters", op_text(op));
	if (c->ck == CK_BUFFER && (op == OP_ICONTAINS || op == OP_GLOB ||
				   (op >= OP_LT && op <= OP_GE)))
		return perr_nopos(p, "'%s' not supported for buffer filters", op_text(op));
	return 0;
}

/* ---- scanner ---- */

/* A value: quoted or not, with \\ \" \xHH escapes.  On return pos is on the
 * closing quote / the blank after the value / the last character before a
 * bracket (or ',' in lists) / the end, like the reference. */
static int next_operand(struct parser *p, int in_list, char **out, uint32_t *outlen)
{
	int quoted = 0, esc = 0, nhex = 0, hex = 0;
	long start;
	char *res = xrealloc(NULL, (size_t)(p->len - (p->pos > 0 ? p->pos : 0)) + 2);
	uint32_t n = 0;

	*out = res;
	if (is_blank(cur(p)))
		next(p);
	if (p->pos < p->len && (cur(p) == '"' || cur(p) == '\'')) {
		quoted = 1;
		p->pos++;
	}
	start = p->pos;
	for (; p->pos < p->len; p->pos++) {
		char c = p->s[p->pos];
		int end = quoted ? (esc != 1 && (c == '"' || c == '\''))
			: (is_blank(c) || c == '(' || c == ')' || (in_list && c == ','));
		if (end) {
			if (esc)
				goto bad_escape;
			if (c == '(' || c == ')' || (in_list && c == ','))
				p->pos--;
			res[n] = 0;
			*outlen = n;
			return 0;
		}
		if (esc == 0) {
			if (c == '\\')
				esc = 1;
			else
				res[n++] = c;
		} else if (esc == 1) {
			esc = 0;
			if (c == '\\' || c == '"') {
				res[n++] = c;
			} else if (c == 'x') {
				esc = 2;
				nhex = hex = 0;
			} else {
				res[n++] = '\\';
				res[n++] = c;
			}
		} else {
			int d = isdigit((unsigned char)c) ? c - '0'
				: (c >= 'a' && c <= 'f') ? c - 'a' + 10
				: (c >= 'A' && c <= 'F') ? c - 'A' + 10 : -1;
			if (d < 0) {
				p->pos++;
				goto bad_escape;
			}
			hex = hex * 16 + d;
			if (++nhex == 2) {
				res[n++] = (char)hex;
				esc = 0;
			}
		}
	}
	/* an escape cut by the end of the filter is dropped, not an error */
	if (quoted)
		return perr(p, "filter error: unclosed quotes");
	res[n] = 0;
	*outlen = n;
	return 0;
bad_escape:
	return perr(p, "filter error: unrecognized escape sequence at %.*s",
		    (int)(p->pos < p->len - start ? p->pos : p->len - start), p->s + start);
}

static int next_operator(struct parser *p)
{
	static const struct { const char *t; int op; } ops[] = {
		{ "=", OP_EQ }, { "!=", OP_NE }, { "<=", OP_LE }, { "<", OP_LT },
		{ ">=", OP_GE }, { ">", OP_GT }, { "contains", OP_CONTAINS },
		{ "icontains", OP_ICONTAINS }, { "startswith", OP_STARTSWITH },
		{ "endswith", OP_ENDSWITH }, { "glob", OP_GLOB }, { "in", OP_IN },
		{ "intersects", OP_INTERSECTS }, { "pmatch", OP_PMATCH },
		{ "exists", OP_EXISTS },
	};
	size_t i;
	long start;

	if (is_blank(cur(p)))
		next(p);
	start = p->pos;
	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		size_t l = strlen(ops[i].t);
		if (p->pos >= 0 && (size_t)(p->len - p->pos) >= l &&
		    memcmp(p->s + p->pos, ops[i].t, l) == 0) {
			p->pos += (long)l;
			return ops[i].op;
		}
	}
	return perr(p, "filter error: unrecognized comparison operator after %.*s",
		    (int)(start > 0 ? start : 0), p->s);
}

static int is_field_end(char c)
{
	return is_blank(c) || c == '(' || c == ')' || c == '!' || c == '=' || c == '<' || c == '>';
}

/* The classes a thread-table filter may use: 0.29.3 refuses the fields of
 * the event classes (evt, evtin, span, syslog, util) there, at the end of the
 * first such field. */
static int works_on_thread_table(const struct field_ref *r)
{
	static const char *const event_classes[] = { "evt", "evtin", "span", "syslog", "util" };
	size_t i, len;

	if (!r->def)
		return 1;
	len = strcspn(r->def->cls, " ");	/* "evt (All event types)" */
	for (i = 0; i < sizeof(event_classes) / sizeof(event_classes[0]); i++)
		if (strlen(event_classes[i]) == len && !strncmp(r->def->cls, event_classes[i], len))
			return 0;
	return 1;
}

/* Read the field token at pos and resolve it. */
static int parse_field(struct parser *p, struct field_ref *r)
{
	long start = p->pos, e = p->pos;
	char tok[512], ferr[256];
	int n;

	while (e < p->len && !is_field_end(p->s[e]))
		e++;
	p->pos = e;
	if (e < p->len && (p->s[e] == '(' || p->s[e] == ')'))
		p->pos--;
	if (e - start >= (long)sizeof(tok))
		return perr(p, "filter error: unrecognized field %.*s at pos %ld",
			    (int)(e - start), p->s + start, start);
	memcpy(tok, p->s + start, (size_t)(e - start));
	tok[e - start] = 0;
	memset(r, 0, sizeof(*r));
	ferr[0] = 0;
	n = field_parse(tok, r, ferr, sizeof(ferr));
	if (n < 0)
		return perr(p, "%s", ferr[0] ? ferr : "filter syntax error");
	if (n == 0 || n != e - start)
		return perr(p, "filter error: unrecognized field %s at pos %ld", tok, start);
	if (r->name[0] == 0) {
		size_t l = strnlen(tok, sizeof(r->name) - 1);
		memcpy(r->name, tok, l);
		r->name[l] = 0;
	}
	if (p->thread_table && !works_on_thread_table(r)) {
		p->pos = e;
		return perr(p, "the given filter is not supported for thread table filtering");
	}
	return 0;
}

static void setup_check(struct parser *p, struct fnode *c, const struct field_ref *r)
{
	c->ck = (uint8_t)kind_of_type(r->type);
	/* without an index, or [-1]: any ancestor */
	if (strncmp(r->name, "proc.aname", 10) == 0 && !r->has_arg) {
		c->special = SP_ANAME_ANY;
		c->ck = CK_STRING;
	} else if (strncmp(r->name, "proc.apid", 9) == 0 && !r->has_arg) {
		c->special = SP_APID_ANY;
		c->ck = CK_SIGNED;
	} else if (strncmp(r->name, "evt.around", 10) == 0) {
		c->special = SP_AROUND;
	} else if (is_field(r, "fd.ip") || is_field(r, "fd.net") || is_field(r, "fd.port") ||
		   is_field(r, "fd.proto")) {
		/* either end of the socket; fd.proto compares ports like fd.port */
		c->special = SP_FDADDR;
		c->ck = is_field(r, "fd.ip") ? CK_IP : is_field(r, "fd.net") ? CK_NET : CK_UNSIGNED;
	} else if (strncmp(r->name, "evtin.", 6) == 0) {
		c->special = SP_EVTIN;
	}
	c->slot = find_slot(p->f, r);
}

static int add_value(struct parser *p, int node, const struct field_ref *r, int in_list)
{
	struct fnode *c = &p->f->nodes[node];
	char *v;
	uint32_t len = 0;

	if (next_operand(p, in_list, &v, &len) < 0) {
		free(v);
		return -1;
	}
	/* room doubles at each power of two: long 'in' lists compile in
	 * linear time */
	if ((c->nvals & (c->nvals - 1)) == 0)
		c->vals = xrealloc(c->vals, (c->nvals ? 2 * c->nvals : 1) * sizeof(*c->vals));
	if (convert_value(p, c, r, v, len, &c->vals[c->nvals]) < 0) {
		free((void *)c->vals[c->nvals].s);
		free(v);
		return -1;
	}
	c->nvals++;
	free(v);
	return 0;
}

static int parse_list(struct parser *p, int node, const struct field_ref *r)
{
	struct fnode *c = &p->f->nodes[node];
	int is_charbuf = r->type == PT_CHARBUF || c->special == SP_ANAME_ANY;

	if (is_blank(cur(p)))
		next(p);
	if (cur(p) != '(')
		return perr(p, "expected '(' after 'in/intersects/pmatch' operand");
	p->pos++;
	if (c->op == OP_PMATCH && !is_charbuf)
		return perr(p, "pmatch requires all charbuf arguments");
	for (;;) {
		char ch;
		if (add_value(p, node, r, 1) < 0)
			return -1;
		ch = next(p);
		if (ch == ',') {
			p->pos++;
			continue;
		}
		if (ch == ')')
			return 0;
		return perr(p, is_charbuf ?
			    "expected either ')' or ',' after a value inside the 'in/pmatch' clause" :
			    "expected either ')' or ',' after a value inside the 'in' clause");
	}
}

/* proc.name and fd.type compared for (in)equality with values without a
 * NUL (the hottest checks of capture filters and chisels): evaluated on the
 * thread's comm / the fd type's name in place (filter_eval.c eval_str_in) */
static int in_place_special(const struct fnode *c, const struct field_ref *r)
{
	int sp = is_field(r, "proc.name") ? SP_COMM : is_field(r, "fd.type") ? SP_FDTYPE : SP_NONE;

	if (sp == SP_NONE || c->special != SP_NONE ||
	    (c->op != OP_EQ && c->op != OP_NE && c->op != OP_IN))
		return SP_NONE;
	for (uint32_t i = 0; i < c->nvals; i++)
		if (memchr(c->vals[i].s, 0, c->vals[i].len))
			return SP_NONE;
	return sp;
}

/* check := field op value | field exists | field in/pmatch (v, ...) */
static int parse_check(struct parser *p)
{
	struct field_ref r;
	int node, op;

	if (parse_field(p, &r) < 0)
		return -1;
	op = next_operator(p);
	if (op < 0)
		return -1;
	node = new_node(p->f, N_CHECK);
	p->f->nodes[node].op = (uint8_t)op;
	setup_check(p, &p->f->nodes[node], &r);
	if (p->failed)
		return -1;
	if (op == OP_IN || op == OP_INTERSECTS || op == OP_PMATCH) {
		if (parse_list(p, node, &r) < 0)
			return -1;
	} else if (op != OP_EXISTS) {
		if (add_value(p, node, &r, 0) < 0)
			return -1;
	} else {
		p->pos--;	/* the scan goes on right after "exists" */
	}
	if (check_op_supported(p, &p->f->nodes[node]) < 0)
		return -1;
	if (p->f->nodes[node].special == SP_NONE)
		p->f->nodes[node].special = (uint8_t)in_place_special(&p->f->nodes[node], &r);
	if (vset_supported(&p->f->nodes[node]))
		vset_build(&p->f->nodes[node]);
	p->f->nodes[node].neg = (uint8_t)p->pending_not;
	p->pending_not = 0;
	add_term(&p->stack[p->depth - 1], node, p->last_op);
	return 0;
}

static int expect_word(struct parser *p, const char *rest)
{
	for (; *rest; rest++)
		if (next(p) != *rest)
			return perr(p, "syntax error in filter");
	return 0;
}

static int parse_char(struct parser *p, char c, int *state)
{
	switch (c) {
	case '(':
		if (*state != ST_NEED_EXPR)
			return perr(p, "unexpected '(' after %.*s", (int)p->pos, p->s);
		if (p->depth > FILTER_MAX_DEPTH)
			return perr(p, "filter nested too deeply (more than %d levels of parentheses)",
				    FILTER_MAX_DEPTH);
		push_group(p, p->pending_not)->parent_conn = p->last_op;
		p->pending_not = 0;
		p->last_op = CONN_NONE;
		return 0;
	case ')':
		if (p->depth <= 1 || *state != ST_DONE || p->stack[p->depth - 1].n == 0) {
			p->bad_paren = 1;
			return 0;
		}
		return 1;	/* handled by the caller (needs the parent's op) */
	case 'o':
	case 'a':
		if (p->pos != 0 && *state != ST_NEED_EXPR) {
			if (expect_word(p, c == 'o' ? "r" : "nd") < 0)
				return -1;
			p->last_op = c == 'o' ? CONN_OR : CONN_AND;
			*state = ST_NEED_EXPR;
			return 0;
		}
		break;
	case 'n':
		if (expect_word(p, "ot") < 0)
			return -1;
		p->pending_not = 1;
		*state = ST_NEED_EXPR;
		return 0;
	}
	if (*state != ST_NEED_EXPR)
		return perr(p, "syntax error in filter");
	if (parse_check(p) < 0)
		return -1;
	*state = ST_DONE;
	return 0;
}

/* ---- event-type pre-selection ---- */

/* evt.is_io, evt.is_io_read, evt.is_io_write: the event flags they test
 * (their value depends on the event type only); 0 for other fields */
static uint32_t io_field_flags(const struct fslot *sl)
{
	if (!sl || sl->ref.has_arg)
		return 0;
	if (is_field(&sl->ref, "evt.is_io"))
		return EF_READS_FROM_FD | EF_WRITES_TO_FD;
	if (is_field(&sl->ref, "evt.is_io_read"))
		return EF_READS_FROM_FD;
	if (is_field(&sl->ref, "evt.is_io_write"))
		return EF_WRITES_TO_FD;
	return 0;
}

static __attribute__((noinline)) void preselect_check(struct filter *f, const struct fnode *nd,
							uint8_t *mt, uint8_t *mf)
{
	const struct fslot *sl = nd->slot >= 0 ? &f->slots[nd->slot] : NULL;
	int is_type = nd->special == SP_NONE && sl && is_field(&sl->ref, "evt.type");
	uint32_t io = nd->special == SP_NONE ? io_field_flags(sl) : 0;
	struct field_value v;

	for (uint32_t t = 0; t < PPM_EVENT_MAX; t++) {
		int r;

		mt[t] = mf[t] = 1;
		if (is_type && t != PPME_GENERIC_E && t != PPME_GENERIC_X &&
		    g_event_info[t].name) {
			memset(&v, 0, sizeof(v));
			v.type = PT_CHARBUF;
			v.str = g_event_info[t].name;
			v.len = (uint32_t)strlen(v.str);
		} else if (io) {
			memset(&v, 0, sizeof(v));
			v.type = PT_BOOL;
			v.u = (g_event_info[t].flags & io) != 0;
			v.i = (int64_t)v.u;
		} else {
			continue;
		}
		r = filter_compare(f, nd, &v);
		mt[t] = (uint8_t)r;
		mf[t] = (uint8_t)!r;
	}
}

/* For each event type: can node n be true / false?  evt.type checks are
 * decided from the event name (except generic syscall events whose type
 * name comes from a parameter), evt.is_io* checks from the event flags;
 * every other check may be both.  Recursion depth: the tree's, bounded by
 * FILTER_MAX_DEPTH; the frames stay small (the field value lives in
 * preselect_check). */
static void preselect(struct filter *f, int n, uint8_t *mt, uint8_t *mf)
{
	const struct fnode *nd = &f->nodes[n];
	uint32_t t, i;

	if (nd->kind == N_CHECK) {
		preselect_check(f, nd, mt, mf);
	} else {
		uint8_t *kt = xrealloc(NULL, PPM_EVENT_MAX), *kf = xrealloc(NULL, PPM_EVENT_MAX);
		int is_and = nd->kind == N_AND;
		memset(mt, is_and, PPM_EVENT_MAX);
		memset(mf, !is_and, PPM_EVENT_MAX);
		for (i = 0; i < nd->nkids; i++) {
			preselect(f, nd->kids[i], kt, kf);
			for (t = 0; t < PPM_EVENT_MAX; t++) {
				if (is_and) {
					mt[t] &= kt[t];
					mf[t] |= kf[t];
				} else {
					mt[t] |= kt[t];
					mf[t] &= kf[t];
				}
			}
		}
		free(kt);
		free(kf);
	}
	if (nd->neg) {
		for (t = 0; t < PPM_EVENT_MAX; t++) {
			uint8_t x = mt[t];
			mt[t] = mf[t];
			mf[t] = x;
		}
	}
}

/* ---- API ---- */

static int parse_all(struct parser *p)
{
	int state = ST_NEED_EXPR;

	push_group(p, 0);
	for (;;) {
		char c = next(p);
		int r;

		if (c == 0) {
			if (p->depth != 1 || state != ST_DONE || p->bad_paren)
				return perr(p, "filter error: unexpected end of filter");
			p->f->root = group_close(p->f, &p->stack[0]);
			p->depth = 0;
			return 0;
		}
		r = parse_char(p, c, &state);
		if (r < 0)
			return -1;
		if (r == 1) {
			/* ')' closes a group: it becomes one term of its parent */
			struct pgroup *g = &p->stack[p->depth - 1];
			int conn = g->parent_conn;
			int node = group_close(p->f, g);
			p->depth--;
			add_term(&p->stack[p->depth - 1], node, conn);
		}
	}
}

static struct filter *compile(const char *expr, int thread_table, char *err, size_t errlen)
{
	struct parser p;
	struct filter *f;

	f = xrealloc(NULL, sizeof(*f));
	memset(f, 0, sizeof(*f));
	memset(&p, 0, sizeof(p));
	p.s = expr ? expr : "";
	p.len = (long)strlen(p.s);
	p.pos = -1;
	p.f = f;
	p.err = err;
	p.errlen = errlen;
	p.thread_table = thread_table;
	if (parse_all(&p) < 0) {
		while (p.depth > 0) {
			p.depth--;
			free(p.stack[p.depth].items);
			free(p.stack[p.depth].ops);
		}
		free(p.stack);
		filter_free(f);
		return NULL;
	}
	free(p.stack);
	f->nmay = PPM_EVENT_MAX;
	f->may = xrealloc(NULL, PPM_EVENT_MAX);
	{
		uint8_t *mf = xrealloc(NULL, PPM_EVENT_MAX);
		preselect(f, f->root, f->may, mf);
		free(mf);
	}
	return f;
}

struct filter *filter_compile(const char *expr, char *err, size_t errlen)
{
	return compile(expr, 0, err, errlen);
}

struct filter *filter_compile_thread_table(const char *expr, char *err, size_t errlen)
{
	return compile(expr, 1, err, errlen);
}

int filter_run(struct filter *f, struct sinsp *s, struct sinsp_evt *e)
{
	if (e->scap.type < f->nmay && !f->may[e->scap.type])
		return 0;
	f->gen++;
	return filter_eval_node(f, s, e, f->root);
}

const char *filter_error(const struct filter *f)
{
	return f->error;
}

int filter_may_match_type(const struct filter *f, uint16_t evtype)
{
	return evtype >= f->nmay || f->may[evtype];
}

int filter_only_proc_name(const struct filter *f)
{
	for (uint32_t i = 0; i < f->nnodes; i++)
		if (f->nodes[i].kind == N_CHECK && f->nodes[i].special != SP_COMM)
			return 0;
	return 1;
}

void filter_free(struct filter *f)
{
	uint32_t i, j;

	if (!f)
		return;
	for (i = 0; i < f->nnodes; i++) {
		for (j = 0; j < f->nodes[i].nvals; j++)
			free((void *)f->nodes[i].vals[j].s);
		free(f->nodes[i].vals);
		free(f->nodes[i].kids);
		vset_free(&f->nodes[i]);
	}
	free(f->nodes);
	free(f->slots);
	free(f->may);
	free(f);
}
