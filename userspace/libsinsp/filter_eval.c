/*
 * filter_eval.c - evaluation of a compiled filter (see filter.c for the
 * compiler and filter_internal.h for the tree).
 *
 * Semantics follow docs/filters.md: a check whose field
 * cannot be extracted is false for every operator (only "exists" looks at
 * extraction itself); groups short-circuit left to right; comparisons are
 * type-specific (strings byte-wise, integers signed/unsigned, buffers with
 * lengths, IPs and networks).  Nothing here allocates.
 */
#define _GNU_SOURCE
#include <string.h>
#include <fnmatch.h>
#include <ctype.h>
#include "filter_internal.h"

/* Numbers as fields.c stores them: signed kinds in v->i, unsigned in v->u. */
static inline int64_t val_i64(const struct field_value *v)
{
	return v->i;
}

static inline uint64_t val_u64(const struct field_value *v)
{
	return v->u;
}

static int cmp_order(int op, int c)
{
	switch (op) {
	case OP_EQ: return c == 0;
	case OP_NE: return c != 0;
	case OP_LT: return c < 0;
	case OP_LE: return c <= 0;
	case OP_GT: return c > 0;
	case OP_GE: return c >= 0;
	}
	return 0;
}

static int cmp_mem(const char *a, size_t alen, const char *b, size_t blen)
{
	size_t n = alen < blen ? alen : blen;
	int c = memcmp(a, b, n);

	if (c)
		return c;
	return alen < blen ? -1 : alen > blen;
}

static int icontains(const char *h, size_t hl, const char *n, size_t nl)
{
	size_t i, j;

	if (nl == 0)
		return 1;
	for (i = 0; i + nl <= hl; i++) {
		for (j = 0; j < nl; j++)
			if (tolower((unsigned char)h[i + j]) != tolower((unsigned char)n[j]))
				break;
		if (j == nl)
			return 1;
	}
	return 0;
}

/* path-prefix match: the components of p begin the components of s */
/* the next non-empty '/'-separated component of p[*i..n) */
static size_t next_component(const char *p, size_t n, size_t *i, const char **c)
{
	size_t start;

	while (*i < n && p[*i] == '/')
		(*i)++;
	start = *i;
	while (*i < n && p[*i] != '/')
		(*i)++;
	*c = p + start;
	return *i - start;
}

/* pmatch (the reference's path_prefix_search): the pattern's components
 * are the first components of the value; empty components and leading
 * '/' do not count, so "()", ("") and (/) match every value */
static int path_prefix(const char *s, size_t sl, const char *p, size_t pl)
{
	size_t i = 0, j = 0, a, b;
	const char *pc, *sc;

	while ((a = next_component(p, pl, &i, &pc)) > 0) {
		b = next_component(s, sl, &j, &sc);
		if (a != b || memcmp(pc, sc, a) != 0)
			return 0;
	}
	return 1;
}

static int glob_match(struct filter *f, const char *pat, const char *s, size_t sl)
{
	if (sl > FIELD_STRBUF_SIZE)
		sl = FIELD_STRBUF_SIZE;
	memcpy(f->scratch, s, sl);
	f->scratch[sl] = 0;
	return fnmatch(pat, f->scratch, 0) == 0;
}

static int cmp_string1(struct filter *f, int op, const char *s, size_t sl,
		       const struct fvalue *w)
{
	switch (op) {
	case OP_EQ:
	case OP_IN:
	case OP_INTERSECTS:
		return sl == w->len && memcmp(s, w->s, sl) == 0;
	case OP_NE:
		return !(sl == w->len && memcmp(s, w->s, sl) == 0);
	case OP_LT: case OP_LE: case OP_GT: case OP_GE:
		return cmp_order(op, cmp_mem(s, sl, w->s, w->len));
	case OP_CONTAINS:
		return memmem(s, sl, w->s, w->len) != NULL;
	case OP_ICONTAINS:
		return icontains(s, sl, w->s, w->len);
	case OP_STARTSWITH:
		return w->len <= sl && memcmp(s, w->s, w->len) == 0;
	case OP_ENDSWITH:
		return w->len <= sl && memcmp(s + sl - w->len, w->s, w->len) == 0;
	case OP_GLOB:
		return glob_match(f, w->s, s, sl);
	case OP_PMATCH:
		return path_prefix(s, sl, w->s, w->len);
	}
	return 0;
}

static int cmp_int1(int op, int sgn, const struct field_value *v, const struct fvalue *w)
{
	int c;

	if (sgn) {
		int64_t a = val_i64(v);
		c = a < w->i ? -1 : a > w->i;
	} else {
		uint64_t a = val_u64(v);
		c = a < w->u ? -1 : a > w->u;
	}
	if (op == OP_IN || op == OP_INTERSECTS)
		op = OP_EQ;
	return cmp_order(op, c);
}

static uint32_t ip4_u32(const uint8_t *p)
{
	uint32_t x;

	memcpy(&x, p, 4);
	return x;
}

static int value_iplen(const struct field_value *v)
{
	return v->type == PT_IPV6ADDR || v->type == PT_IPV6NET ? 16 : 4;
}

static int cmp_ip1(int op, const struct field_value *v, const struct fvalue *w)
{
	int vl = value_iplen(v);

	if (op == OP_IN || op == OP_INTERSECTS)
		op = OP_EQ;
	if (vl != w->iplen)
		return op == OP_NE;
	if (vl == 4) {
		uint32_t a = ip4_u32(v->ip), b = ip4_u32(w->ip);
		return cmp_order(op, a < b ? -1 : a > b);
	}
	if (op == OP_EQ)
		return memcmp(v->ip, w->ip, 16) == 0;
	if (op == OP_NE)
		return memcmp(v->ip, w->ip, 16) != 0;
	return 0;
}

static int in_net(const uint8_t *a, const struct fvalue *w)
{
	int bits = w->prefix, i;

	for (i = 0; bits > 0; i++, bits -= 8) {
		uint8_t m = bits >= 8 ? 0xff : (uint8_t)(0xff << (8 - bits));
		if ((a[i] & m) != (w->ip[i] & m))
			return 0;
	}
	return 1;
}

static int cmp_net1(int op, const struct field_value *v, const struct fvalue *w)
{
	if (value_iplen(v) != w->iplen)
		return op == OP_NE;
	switch (op) {
	case OP_EQ:
	case OP_IN:
	case OP_INTERSECTS:
		return in_net(v->ip, w);
	case OP_NE:
		return !in_net(v->ip, w);
	}
	return 0;
}

static int cmp_one(struct filter *f, const struct fnode *c, const struct field_value *v,
		   const char *s, size_t sl, const struct fvalue *w)
{
	switch (c->ck) {
	case CK_STRING:
	case CK_BUFFER:
		return cmp_string1(f, c->op, s, sl, w);
	case CK_SIGNED:
		return cmp_int1(c->op, 1, v, w);
	case CK_UNSIGNED:
		return cmp_int1(c->op, 0, v, w);
	case CK_IP:
		return cmp_ip1(c->op, v, w);
	case CK_NET:
		return cmp_net1(c->op, v, w);
	}
	return 0;
}

/* Compare an extracted value with the check's values: true if any matches
 * (a single value except for in/pmatch). */
int filter_compare(struct filter *f, const struct fnode *c, struct field_value *v)
{
	const char *s = NULL;
	size_t sl = 0;
	uint32_t i;

	if (c->op == OP_EXISTS)
		return 1;
	if (c->ck == CK_STRING) {
		s = v->str ? v->str : "";
		sl = strnlen(s, v->len);
	} else if (c->ck == CK_BUFFER) {
		s = v->str ? v->str : "";
		sl = v->len;
	}
	if (c->op == OP_PMATCH && c->nvals == 0)	/* "()": every value */
		return 1;
	if (c->set)
		return s ? vset_has_str(c, s, sl) :
		       vset_has_int(c, c->ck == CK_SIGNED ? (uint64_t)val_i64(v) : val_u64(v));
	for (i = 0; i < c->nvals; i++)
		if (cmp_one(f, c, v, s, sl, &c->vals[i]))
			return 1;
	return 0;
}

static struct field_value *slot_value(struct filter *f, struct sinsp *s,
				      struct sinsp_evt *e, int k)
{
	struct fslot *sl = &f->slots[k];

	if (sl->gen != f->gen) {
		sl->gen = f->gen;
		sl->ok = field_extract(s, e, &sl->ref, &sl->val);
	}
	return sl->ok ? &sl->val : NULL;
}

/* proc.aname / proc.apid without an index: any ancestor (from the parent
 * of the main thread upwards) matching */
static int eval_ancestors(struct filter *f, struct sinsp *s, struct sinsp_evt *e,
			  const struct fnode *c)
{
	struct sinsp_threadinfo *t;
	struct field_value *v = &f->tmp;
	int depth;

	if (!e->thread)
		return 0;
	t = sinsp_get_main_thread(s, e->thread);
	if (!t)
		return 0;
	for (depth = 0; depth < 4096; depth++) {
		t = sinsp_get_parent(s, t);
		if (!t)
			break;
		if (c->special == SP_ANAME_ANY) {
			v->type = PT_CHARBUF;
			v->str = t->comm;
			v->len = (uint32_t)strlen(t->comm);
		} else {
			v->type = PT_PID;
			v->i = t->pid;
			v->u = (uint64_t)t->pid;
		}
		if (filter_compare(f, c, v))
			return 1;
	}
	return 0;
}

/* What 0.29.3 compares on an IP socket: fd.port/fd.proto =, !=, <, <=, >,
 * >= and in; fd.ip/fd.net =, != and in.  It throws on the others (exists,
 * contains, glob, ...) when it first meets such a socket (filter_error). */
static int fdaddr_op_supported(const struct fnode *c)
{
	if (c->op == OP_EQ || c->op == OP_NE || c->op == OP_IN)
		return 1;
	return c->ck == CK_UNSIGNED && c->op >= OP_LT && c->op <= OP_GE;
}

/* fd.ip / fd.net / fd.port / fd.proto: true when either address (port) of
 * a connected-or-not socket matches, or the address of a listening one;
 * false for other fds */
/* fd.ip/fd.net/fd.port/fd.proto: either end of the fd the fd.* fields
 * read (not only the event's own: an exit whose enter was filtered out
 * still has its thread's last fd, so the result does not depend on what
 * the filter evaluated before) */
static int eval_fdaddr(struct filter *f, struct sinsp *s, struct sinsp_evt *e, const struct fnode *c)
{
	const struct sinsp_fdinfo *fd = field_fd(s, e);
	struct field_value *v = &f->tmp;
	int v6, serv, k;

	if (!fd)
		return 0;
	switch (fd->type) {
	case SCAP_FD_IPV4_SOCK: v6 = 0; serv = 0; break;
	case SCAP_FD_IPV6_SOCK: v6 = 1; serv = 0; break;
	case SCAP_FD_IPV4_SERVSOCK: v6 = 0; serv = 1; break;
	case SCAP_FD_IPV6_SERVSOCK: v6 = 1; serv = 1; break;
	default: return 0;
	}
	if (!fdaddr_op_supported(c)) {
		if (!f->error)
			f->error = c->ck == CK_UNSIGNED ?
				"filter error: unsupported port comparison operator" :
				"filter error: IP filter only supports '=' and '!=' operators";
		return 0;
	}
	for (k = 0; k < (serv ? 1 : 2); k++) {
		if (c->ck == CK_UNSIGNED) {
			v->type = PT_PORT;
			v->u = k ? fd->dport : fd->sport;
		} else {
			v->type = v6 ? PT_IPV6ADDR : PT_IPV4ADDR;
			memset(v->ip, 0, sizeof(v->ip));
			memcpy(v->ip, k ? fd->dip : fd->sip, v6 ? 16 : 4);
		}
		v->i = (int64_t)v->u;
		if (filter_compare(f, c, v))
			return 1;
	}
	return 0;
}

/* SP_COMM, SP_FDTYPE: what extract + compare give for the string str of
 * the field (NULL: not extracted, false for every operator), without copies */
static inline __attribute__((always_inline))
int eval_str_in(const char *str, const struct fnode *c)
{
	uint32_t i;

	if (!str)
		return 0;
	if (c->set)	/* 'in' only */
		return vset_has_str(c, str, strlen(str));
	for (i = 0; i < c->nvals; i++) {
		const struct fvalue *w = &c->vals[i];

		/* w->s holds no NUL; most mismatches differ in the first byte */
		if (w->len == 0 ? str[0] == 0 :
		    str[0] == w->s[0] && strncmp(str, w->s, w->len) == 0 && str[w->len] == 0)
			return c->op != OP_NE;
	}
	return c->op == OP_NE;
}

/* SP_EVTIN: each span's value compared as the check's */
struct evtin_check {
	struct filter *f;
	const struct fnode *c;
};

static int evtin_accept(void *ctx, struct field_value *v)
{
	const struct evtin_check *k = ctx;

	return filter_compare(k->f, k->c, v);
}

/* not inlined: filter_eval_node recurses and keeps a small frame */
static __attribute__((noinline)) int eval_check(struct filter *f, struct sinsp *s,
						struct sinsp_evt *e, const struct fnode *c)
{
	struct field_value *v;

	switch (c->special) {
	case SP_COMM:
		return eval_str_in(e->thread ? e->thread->comm : NULL, c);
	case SP_FDTYPE:
		return eval_str_in(field_fd_type(s, e), c);
	case SP_ANAME_ANY:
	case SP_APID_ANY:
		return eval_ancestors(f, s, e, c);
	case SP_AROUND: {
		uint64_t ts = e->scap.ts, t = (uint64_t)f->slots[c->slot].ref.arg_index;
		uint64_t d;
		if (c->nvals == 0)	/* evt.around[T] exists: the event at T */
			return ts == t;
		d = c->vals[0].u;
		return ts >= t - d && ts <= t + d;
	}
	case SP_FDADDR:
		return eval_fdaddr(f, s, e, c);
	case SP_EVTIN: {
		struct evtin_check k = { f, c };

		return field_evtin_match(s, e, &f->slots[c->slot].ref, &f->tmp, evtin_accept, &k);
	}
	}
	v = slot_value(f, s, e, c->slot);
	return v && filter_compare(f, c, v);
}

int filter_eval_node(struct filter *f, struct sinsp *s, struct sinsp_evt *e, int n)
{
	const struct fnode *nd = &f->nodes[n];
	uint32_t i;
	int r;

	if (nd->kind == N_CHECK) {
		r = eval_check(f, s, e, nd);
	} else if (nd->kind == N_AND) {
		r = 1;
		for (i = 0; i < nd->nkids && r; i++)
			r = filter_eval_node(f, s, e, nd->kids[i]);
	} else {
		r = 0;
		for (i = 0; i < nd->nkids && !r; i++)
			r = filter_eval_node(f, s, e, nd->kids[i]);
	}
	return nd->neg ? !r : r;
}
