/*
 * table.c - the csysdig data table (see table.h for what it computes).
 */
#include <arpa/inet.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "scap.h"
#include "stl_sort.h"
#include "table.h"

#define ONE_SECOND_NS 1000000000ULL
/* the synthetic event of the end-of-sample thread pass has a type no filter
 * or field reads as a real event (the reference uses the same one) */
#define SAMPLE_THREAD_EVENT PPME_SYSDIGEVENT_X

/* fields printed as plain numbers, never with K/M/G units (ids) */
static const char *const g_id_fields[] = {
	"proc.pid", "proc.ppid", "proc.vpid", "proc.apid", "proc.sid", "proc.vpgid",
	"thread.tid", "thread.vtid", "thread.ptid", "fd.num", "evt.num", "user.uid",
	"group.gid", "user.loginuid", "util.cnt", "proc.loginuid", "fd.ino", NULL
};

enum kind { K_INT, K_UINT, K_DOUBLE, K_STR, K_IP };

static enum kind type_kind_of(uint8_t t)
{
	switch (t) {
	case PT_INT8: case PT_INT16: case PT_INT32: case PT_INT64: case PT_ERRNO: case PT_FD:
	case PT_PID:
		return K_INT;
	case PT_UINT8: case PT_UINT16: case PT_UINT32: case PT_UINT64: case PT_RELTIME:
	case PT_ABSTIME: case PT_PORT: case PT_BOOL: case PT_FLAGS8: case PT_FLAGS16:
	case PT_FLAGS32: case PT_UID: case PT_GID: case PT_MODE: case PT_SIGTYPE:
	case PT_SYSCALLID: case PT_L4PROTO: case PT_SOCKFAMILY: case PT_SIGSET:
		return K_UINT;
	case PT_DOUBLE:
		return K_DOUBLE;
	case PT_IPV4ADDR: case PT_IPV6ADDR: case PT_IPADDR: case PT_IPNET:
		return K_IP;
	default:
		return K_STR;
	}
}

/* width in bits of the reference's storage of a numeric type (sums wrap) */
static int type_bits_of(uint8_t t)
{
	switch (t) {
	case PT_INT8: case PT_UINT8: return 8;
	case PT_INT16: case PT_UINT16: return 16;
	case PT_INT32: case PT_UINT32: case PT_BOOL: return 32;
	default: return 64;
	}
}

/* the two above as tables (hot path), filled by table_init */
static uint8_t g_kind[256], g_bits[256];

static void init_type_tables(void)
{
	for (int t = 0; t < 256; t++) {
		g_kind[t] = (uint8_t)type_kind_of((uint8_t)t);
		g_bits[t] = (uint8_t)type_bits_of((uint8_t)t);
	}
}

static inline enum kind type_kind(uint8_t t)
{
	return (enum kind)g_kind[t];
}

static inline int type_bits(uint8_t t)
{
	return g_bits[t];
}

static void wrap(uint8_t type, struct cell *c)
{
	if (type_bits(type) == 64)
		return;
	switch (type_bits(type)) {
	case 8:
		if (type_kind(type) == K_INT)
			c->i = (int8_t)c->i;
		else
			c->u = (uint8_t)c->u;
		break;
	case 16:
		if (type_kind(type) == K_INT)
			c->i = (int16_t)c->i;
		else
			c->u = (uint16_t)c->u;
		break;
	case 32:
		if (type_kind(type) == K_INT)
			c->i = (int32_t)c->i;
		else
			c->u = (uint32_t)c->u;
		break;
	default:
		break;
	}
}

/* ---- row maps ---- */

/* bytes of a number of this type as the reference stores it in a row */
static size_t number_width(uint8_t type)
{
	switch (type) {
	case PT_INT8: case PT_UINT8: case PT_FLAGS8: case PT_SIGTYPE:
		return 1;
	case PT_INT16: case PT_UINT16: case PT_FLAGS16: case PT_PORT: case PT_SYSCALLID:
		return 2;
	case PT_INT32: case PT_UINT32: case PT_FLAGS32: case PT_MODE: case PT_BOOL:
	case PT_SIGSET:
		return 4;
	default:
		return 8;
	}
}

/* the reference's hash of a key: of its bytes (a string with its NUL, a
 * number's little-endian bytes in the width of its type) */
static size_t key_hash(uint8_t type, const struct cell *k)
{
	uint8_t b[8];
	size_t w;

	if (k->s)
		return stl_hash_table_key(k->s, k->len + (type == PT_CHARBUF));
	w = number_width(type);
	for (size_t i = 0; i < w; i++)
		b[i] = (uint8_t)(k->u >> (8 * i));
	return stl_hash_table_key(b, w);
}

static int key_eq(const struct cell *a, const struct cell *b)
{
	if (!a->s != !b->s)
		return 0;
	if (a->s)
		return a->len == b->len && memcmp(a->s, b->s, a->len) == 0;
	return a->u == b->u;
}

static struct row *map_find(struct rowmap *m, const struct cell *k, size_t h)
{
	for (struct stl_hash_node *n = stl_hash_bucket_first(&m->h, h); n;
	     n = stl_hash_bucket_next(&m->h, n)) {
		struct row *r = (struct row *)n;

		if (n->hash == h && key_eq(&r->key, k))
			return r;
	}
	return NULL;
}

/* keeps r (and, when hashed, indexes it under h) */
static void map_append(struct rowmap *m, struct row *r, int hashed, size_t h)
{
	if (m->n == m->cap) {
		size_t nc = m->cap ? m->cap * 2 : 256;
		struct row **o = realloc(m->order, nc * sizeof(*o));

		if (!o)
			abort();
		m->order = o;
		m->cap = nc;
	}
	m->order[m->n++] = r;
	if (hashed && stl_hash_insert(&m->h, &r->node, h))
		abort();
}

static void cell_release(struct cell *c)
{
	free(c->s);
	c->s = NULL;
}

static void map_clear(struct rowmap *m, size_t nvals)
{
	for (size_t i = 0; i < m->n; i++) {
		struct row *r = m->order[i];

		cell_release(&r->key);
		for (size_t j = 0; j < nvals; j++)
			cell_release(&r->vals[j]);
		free(r);
	}
	m->n = 0;
	stl_hash_clear(&m->h);	/* as std::unordered_map::clear: the buckets stay */
}

static void map_free(struct rowmap *m, size_t nvals)
{
	map_clear(m, nvals);
	stl_hash_free(&m->h);
	free(m->order);
	m->order = NULL;
	m->cap = 0;
}

/* ---- cells ---- */

static void cell_copy(struct cell *dst, const struct cell *src)
{
	*dst = *src;
	if (src->s) {
		dst->s = malloc(src->len + 1);
		if (!dst->s)
			abort();
		memcpy(dst->s, src->s, src->len);
		dst->s[src->len] = 0;
	}
}

static void cell_set_str(struct cell *dst, const struct cell *src)
{
	if (dst->len < src->len || !dst->s) {
		free(dst->s);
		dst->s = malloc(src->len + 1);
		if (!dst->s)
			abort();
	}
	memcpy(dst->s, src->s, src->len);
	dst->s[src->len] = 0;
	dst->len = src->len;
}

/* an extracted value as a cell of the column's type; strings point into v */
static void value_to_cell(uint8_t type, const struct field_value *v, struct cell *c)
{
	int64_t si = v->i;
	uint64_t ui = v->u;

	if (v->type == type) {	/* the usual case: no conversion */
		c->s = NULL;
		c->cnt = 1;
		c->len = 8;
		switch (type) {
		case PT_INT64: case PT_ERRNO: case PT_FD: case PT_PID:
			c->i = v->i;
			return;
		case PT_UINT64: case PT_RELTIME: case PT_ABSTIME:
			c->u = v->u;
			return;
		case PT_UINT32:
			c->u = (uint32_t)v->u;
			return;
		case PT_DOUBLE:
			c->d = v->d;
			return;
		case PT_CHARBUF:
			c->s = (char *)(v->str ? v->str : "");
			c->len = v->str ? (uint32_t)strnlen(c->s, v->len) : 0;
			return;
		default:
			break;
		}
	}
	switch (type_kind(v->type)) {
	case K_INT: ui = (uint64_t)v->i; break;
	case K_UINT: si = (int64_t)v->u; break;
	case K_DOUBLE: si = (int64_t)v->d; ui = (uint64_t)v->d; break;
	default: break;
	}
	c->s = NULL;
	c->cnt = 1;
	c->u = 0;
	switch (type_kind(type)) {
	case K_INT:
		c->i = si;
		wrap(type, c);
		c->len = 8;
		break;
	case K_UINT:
		c->u = ui;
		wrap(type, c);
		c->len = 8;
		break;
	case K_DOUBLE:
		c->d = type_kind(v->type) == K_DOUBLE ? v->d : (double)si;
		c->len = 8;
		break;
	case K_IP:
		c->s = (char *)v->ip;
		c->len = v->type == PT_IPV4ADDR ? 4 : 16;
		break;
	default:
		c->s = (char *)(v->str ? v->str : "");
		c->len = v->str ? v->len : 0;
		if (type == PT_CHARBUF)
			c->len = (uint32_t)strnlen(c->s, c->len);
		break;
	}
}

/* the reference's defaults for fields without a value (use_defaults):
 * numbers 0, strings "", counted as no value (cnt 0); 0 when the row is
 * to be dropped instead */
static int default_cell(const struct table_col *col, struct cell *c)
{
	memset(c, 0, sizeof(*c));
	switch (col->type) {
	case PT_INT8: case PT_INT16: case PT_INT32: case PT_INT64: case PT_UINT8:
	case PT_UINT16: case PT_UINT32: case PT_UINT64: case PT_BOOL: case PT_RELTIME:
	case PT_ABSTIME:
		c->len = 8;
		return !col->pf_id;
	case PT_DOUBLE:
		c->len = 8;
		return 1;
	case PT_CHARBUF:
		c->s = (char *)"";
		return 1;
	default:
		return 0;
	}
}

/* ---- aggregation (the reference's rules, including its integer math) ---- */

static void add_sum(uint8_t type, struct cell *d, const struct cell *s)
{
	switch (type_kind(type)) {
	case K_INT: d->i += s->i; wrap(type, d); break;
	case K_UINT: d->u += s->u; wrap(type, d); break;
	case K_DOUBLE: d->d += s->d; break;
	default: break;
	}
}

static void add_sum_of_avg(uint8_t type, struct cell *d, struct cell *s)
{
	switch (type_kind(type)) {
	case K_INT:
		if (d->cnt > 1)
			d->i /= d->cnt;
		d->i += s->i / s->cnt;
		wrap(type, d);
		break;
	case K_UINT:
		if (d->cnt > 1)
			d->u /= d->cnt;
		d->u += s->u / s->cnt;
		wrap(type, d);
		break;
	case K_DOUBLE:
		if (d->cnt > 1)
			d->d /= d->cnt;
		d->d += s->d / s->cnt;
		break;
	default:
		break;
	}
	s->cnt = 1;
	d->cnt = 1;
}

static void add_minmax(uint8_t type, struct cell *d, const struct cell *s, int is_max)
{
	switch (type_kind(type)) {
	case K_INT:
		if (is_max ? d->i < s->i : d->i > s->i)
			d->i = s->i;
		break;
	case K_UINT:
		if (is_max ? d->u < s->u : d->u > s->u)
			d->u = s->u;
		break;
	case K_DOUBLE:
		if (is_max ? d->d < s->d : d->d > s->d)
			d->d = s->d;
		break;
	case K_STR:
		/* strings: the latest value */
		if ((type == PT_CHARBUF || type == PT_BYTEBUF) &&
		    !(d->s && d->len == s->len && memcmp(d->s, s->s, s->len) == 0))
			cell_set_str(d, s);
		break;
	default:
		break;
	}
}

static void add_fields(uint8_t type, struct cell *d, struct cell *s, enum aggr a)
{
	switch (a) {
	case AGGR_NONE:
		return;
	case AGGR_SUM:
	case AGGR_TIME_AVG:
		if (s->cnt < 2)
			add_sum(type, d, s);
		else
			add_sum_of_avg(type, d, s);
		return;
	case AGGR_AVG:
		d->cnt += s->cnt;
		add_sum(type, d, s);
		return;
	case AGGR_MAX:
		add_minmax(type, d, s, 1);
		return;
	case AGGR_MIN:
		if (s->cnt != 0) {
			if (d->cnt == 0) {
				add_sum(type, d, s);
				d->cnt++;
			} else {
				add_minmax(type, d, s, 0);
			}
		}
		return;
	}
}

/* 1 when column c of an existing row ignores new values whatever they are:
 * no aggregation (the first value stays) and a missing value takes a
 * default instead of dropping the event */
static int value_unused(const struct table *t, const struct table_col *c)
{
	struct cell tmp;

	return c->aggr == AGGR_NONE && t->use_defaults && default_cell(c, &tmp);
}

/* ---- configuration ---- */

static int is_id_field(const char *name)
{
	for (size_t i = 0; g_id_fields[i]; i++)
		if (strcmp(g_id_fields[i], name) == 0)
			return 1;
	return 0;
}

/* copy of s with every %depth replaced by depth (and %depth+1 by depth+1) */
static char *subst_depth(const char *s, unsigned depth)
{
	size_t cap = strlen(s) * 2 + 32, n = 0;
	char *r = malloc(cap);

	if (!r)
		abort();
	while (*s) {
		if (strncmp(s, "%depth+1", 8) == 0) {
			n += (size_t)snprintf(r + n, cap - n, "%u", depth + 1);
			s += 8;
		} else if (strncmp(s, "%depth", 6) == 0) {
			n += (size_t)snprintf(r + n, cap - n, "%u", depth);
			s += 6;
		} else {
			if (n + 2 >= cap) {
				cap *= 2;
				r = realloc(r, cap);
				if (!r)
					abort();
			}
			r[n++] = *s++;
		}
	}
	r[n] = 0;
	return r;
}

static int add_col(struct table *t, const char *field, const struct view_column *vc, int front,
		   unsigned depth, char *err, size_t errlen)
{
	char *name = subst_depth(field, depth);
	struct table_col *c;
	int used;

	c = &t->cols[t->ncols];
	memset(c, 0, sizeof(*c));
	used = field_parse(name, &c->ref, err, errlen);
	if (used <= 0 || name[used]) {
		snprintf(err, errlen, "invalid field name %s", name);
		free(name);
		return -1;
	}
	free(name);
	c->vc = vc;
	c->type = c->ref.type;
	c->pf_id = is_id_field(c->ref.name);
	c->aggr = vc ? vc->aggregation : AGGR_NONE;
	c->merge_aggr = vc ? vc->groupby_aggregation : AGGR_NONE;
	if (front) {
		struct table_col tmp = *c;

		memmove(&t->cols[1], &t->cols[0], t->ncols * sizeof(*c));
		t->cols[0] = tmp;
	}
	t->ncols++;
	return 0;
}

static int col_visible(const struct view_column *c, int print_containers)
{
	if (c->for_containers && !print_containers)
		return 0;
	if (c->for_default && print_containers)
		return 0;
	return 1;
}

/* the reference's screen of a grouped view divides by the time the
 * column that has the same index among all the view's columns, the hidden
 * ones included (its --raw, and its screen of other views, divide the rate
 * columns themselves): with the containers columns of v_procs hidden, NET
 * and Command, not FILE and NET; a deterministic rule of it, copied */
static void set_screen_rates(struct table *t, const struct view *v, int print_containers)
{
	for (size_t j = 0; j < t->ncols; j++) {
		const struct view_column *vc = t->cols[j].vc, *same;
		size_t k = 0;

		t->cols[j].screen_rate = t->cols[j].aggr == AGGR_TIME_AVG ||
					 t->cols[j].merge_aggr == AGGR_TIME_AVG;
		if (!vc || !t->merging)
			continue;
		for (const struct view_column *p = v->cols; p < vc; p++)
			k += (size_t)col_visible(p, print_containers);
		same = &v->cols[k];
		t->cols[j].screen_rate = same->aggregation == AGGR_TIME_AVG ||
					 same->groupby_aggregation == AGGR_TIME_AVG;
	}
}

static int setup_merge(struct table *t, char *err, size_t errlen)
{
	size_t ngby = 0;

	for (size_t j = 0; j < t->ncols; j++)
		if (t->cols[j].vc && t->cols[j].vc->is_groupby_key)
			ngby++;
	if (ngby == 0)
		return 0;
	if (ngby > 1) {
		snprintf(err, errlen, "invalid table definition: multiple groupby keys");
		return -1;
	}
	if (t->is_list) {
		snprintf(err, errlen, "group by not supported for list tables");
		return -1;
	}
	t->merging = 1;
	t->gcols = calloc(t->ncols, sizeof(*t->gcols));
	for (size_t j = 1; j < t->ncols; j++) {
		if (t->cols[j].vc->is_groupby_key) {
			memmove(&t->gcols[1], &t->gcols[0], t->ngcols * sizeof(*t->gcols));
			t->gcols[0] = j;
		} else {
			t->gcols[t->ngcols] = j;
		}
		t->ngcols++;
	}
	if (t->ngcols < 2) {
		snprintf(err, errlen, "groupby table has no values");
		return -1;
	}
	return 0;
}

static void default_sorting(struct table *t)
{
	t->sort_col = -1;
	for (size_t j = 0; j < table_nvals(t); j++) {
		const struct table_col *c = table_val_col(t, j);

		if (c->vc && c->vc->is_sorting) {
			t->sort_col = -2;
			table_set_sort(t, (int)j);
			return;
		}
	}
	if (!t->is_list && table_nvals(t) > 0) {
		t->sort_col = -2;
		table_set_sort(t, 0);
	}
}

int table_init(struct table *t, struct sinsp *s, const struct view *v, int print_containers,
	       const char *filter, unsigned depth, char *err, size_t errlen)
{
	int has_key = 0;

	memset(t, 0, sizeof(*t));
	stl_hash_init(&t->pre.h);
	stl_hash_init(&t->merged.h);
	if (!g_bits[0])
		init_type_tables();
	t->s = s;
	t->is_list = v->type == VIEW_LIST;
	t->use_defaults = v->use_defaults;
	t->refresh_ns = 2 * ONE_SECOND_NS;
	t->cols = calloc(v->ncols + 2, sizeof(*t->cols));
	for (size_t i = 0; i < v->ncols; i++) {
		const struct view_column *vc = &v->cols[i];

		if (!col_visible(vc, print_containers))
			continue;
		if (vc->is_key) {
			if (has_key) {
				snprintf(err, errlen, "invalid table configuration: multiple keys specified");
				return -1;
			}
			has_key = 1;
		}
		if (add_col(t, vc->field, vc, vc->is_key, depth, err, errlen) < 0)
			return -1;
	}
	if (t->is_list) {
		if (has_key) {
			snprintf(err, errlen, "list table can't have a key");
			return -1;
		}
		if (add_col(t, "util.cnt", NULL, 1, depth, err, errlen) < 0)
			return -1;
	} else if (!has_key) {
		snprintf(err, errlen, "table is missing the key");
		return -1;
	}
	if (t->ncols < 2) {
		snprintf(err, errlen, "table has no values");
		return -1;
	}
	if (setup_merge(t, err, errlen) < 0)
		return -1;
	set_screen_rates(t, v, print_containers);
	if (filter && *filter) {
		char *f = subst_depth(filter, depth);

		t->filter = filter_compile(f, err, errlen);
		free(f);
		if (!t->filter)
			return -1;
	}
	t->vbuf = calloc(t->ncols, sizeof(*t->vbuf));
	t->tmp = calloc(t->ncols, sizeof(*t->tmp));
	t->unused = calloc(t->ncols, sizeof(*t->unused));
	if (!t->vbuf || !t->tmp || !t->unused)
		abort();
	for (size_t j = 1; j < t->ncols; j++)
		t->unused[j] = value_unused(t, &t->cols[j]);
	if (t->is_list)
		t->refresh_ns = ONE_SECOND_NS / 5;
	default_sorting(t);
	return 0;
}

void table_free(struct table *t)
{
	map_free(&t->pre, t->ncols - 1);
	map_free(&t->merged, table_nvals(t));
	if (t->filter)
		filter_free(t->filter);
	free(t->cols);
	free(t->gcols);
	free(t->vbuf);
	free(t->tmp);
	free(t->unused);
	free(t->sample);
	memset(t, 0, sizeof(*t));
}

/* ---- event processing ---- */

static struct row *new_row(size_t nvals)
{
	struct row *r = calloc(1, sizeof(*r) + nvals * sizeof(struct cell));

	if (!r)
		abort();
	r->vals = (struct cell *)(r + 1);
	return r;
}

/* lists of live captures: forget the k oldest rows (bounded memory) */
static void drop_oldest(struct rowmap *m, size_t k, size_t nvals)
{
	for (size_t i = 0; i < k; i++) {
		struct row *r = m->order[i];

		cell_release(&r->key);
		for (size_t j = 0; j < nvals; j++)
			cell_release(&r->vals[j]);
		free(r);
	}
	memmove(m->order, m->order + k, (m->n - k) * sizeof(*m->order));
	m->n -= k;
}

/* add the row in cells[0..n) (key first) to map m; types/aggrs of column j
 * given by colidx[j] */
static void add_row(struct table *t, struct rowmap *m, struct cell *cells, size_t n,
		    const size_t *colidx, int merging)
{
	struct row *r;

	if (t->is_list) {
		if (t->max_list_rows && m->n >= t->max_list_rows)
			drop_oldest(m, m->n / 2, n - 1);
		r = new_row(n - 1);
		cell_copy(&r->key, &cells[0]);
		r->key.cnt = 1;
		for (size_t j = 1; j < n; j++) {
			cell_copy(&r->vals[j - 1], &cells[j]);
			r->vals[j - 1].cnt = 1;
		}
		map_append(m, r, 0, 0);
		return;
	}
	size_t h = key_hash(t->cols[colidx ? colidx[0] : 0].type, &cells[0]);

	r = map_find(m, &cells[0], h);
	if (!r) {
		r = new_row(n - 1);
		cell_copy(&r->key, &cells[0]);
		r->key.cnt = 1;
		for (size_t j = 1; j < n; j++)
			cell_copy(&r->vals[j - 1], &cells[j]);
		map_append(m, r, 1, h);
		return;
	}
	for (size_t j = 1; j < n; j++) {
		const struct table_col *c = &t->cols[colidx ? colidx[j] : j];

		add_fields(c->type, &r->vals[j - 1], &cells[j], merging ? c->merge_aggr : c->aggr);
	}
}

/* column j of the event into t->tmp[j]; 0 when the event is dropped */
static int extract_col(struct table *t, struct sinsp_evt *e, size_t j)
{
	struct table_col *c = &t->cols[j];

	if (field_extract(t->s, e, &c->ref, &t->vbuf[j])) {
		value_to_cell(c->type, &t->vbuf[j], &t->tmp[j]);
		return 1;
	}
	return t->use_defaults && default_cell(c, &t->tmp[j]);
}

void table_process(struct table *t, struct sinsp_evt *e)
{
	struct row *r = NULL;

	if (t->is_list && t->paused)
		return;
	if (t->filter && !filter_run(t->filter, t->s, e))
		return;
	if (!extract_col(t, e, 0))
		return;
	if (!t->is_list)
		r = map_find(&t->pre, &t->tmp[0], key_hash(t->cols[0].type, &t->tmp[0]));
	for (size_t j = 1; j < t->ncols; j++) {
		if (r && t->unused[j])
			continue;
		if (!extract_col(t, e, j))
			return;
	}
	if (!r) {
		add_row(t, &t->pre, t->tmp, t->ncols, NULL, 0);
		return;
	}
	for (size_t j = 1; j < t->ncols; j++)
		if (!t->unused[j])
			add_fields(t->cols[j].type, &r->vals[j - 1], &t->tmp[j], t->cols[j].aggr);
}

struct thread_pass {
	struct table *t;
	struct sinsp_evt *e;
};

static int thread_pass_one(struct sinsp_threadinfo *ti, void *arg)
{
	struct thread_pass *p = arg;

	p->e->thread = ti;
	p->e->scap.tid = (uint64_t)ti->tid;
	table_process(p->t, p->e);
	return 0;
}

/* every thread once, as a synthetic event at the end of the second before ts */
static void process_threads(struct table *t, uint64_t ts)
{
	struct sinsp_evt e;
	struct thread_pass p = { t, &e };

	memset(&e, 0, sizeof(e));
	e.scap.ts = ts - ts % ONE_SECOND_NS - 1;
	e.scap.type = SAMPLE_THREAD_EVENT;
	e.info = &g_event_info[SAMPLE_THREAD_EVENT];
	e.fd = -1;
	e.num = 0;
	sinsp_foreach_thread(t->s, thread_pass_one, &p);
}

static void create_sample(struct table *t)
{
	struct rowmap *src = &t->pre;

	if (t->merging) {
		struct cell *cells = calloc(t->ngcols, sizeof(*cells));

		map_clear(&t->merged, t->ngcols - 1);
		for (struct stl_hash_node *n = stl_hash_first(&t->pre.h); n; n = n->next) {
			struct row *r = (struct row *)n;

			for (size_t j = 0; j < t->ngcols; j++)
				cells[j] = t->gcols[j] == 0 ? r->key : r->vals[t->gcols[j] - 1];
			add_row(t, &t->merged, cells, t->ngcols, t->gcols, 1);
		}
		free(cells);
		src = &t->merged;
	}
	free(t->sample);
	t->sample = malloc((src->n + 1) * sizeof(*t->sample));
	if (!t->sample)
		abort();
	t->nsample = 0;
	for (struct stl_hash_node *n = stl_hash_first(&src->h); n; n = n->next)
		t->sample[t->nsample++] = (struct row *)n;
}

void table_flush(struct table *t, struct sinsp_evt *e)
{
	uint64_t ts = e ? e->scap.ts : 0;

	if (!t->paused && t->next_flush_ns != 0) {
		process_threads(t, ts);
		if (!t->is_list) {
			create_sample(t);
			if (t->merging) {
				map_clear(&t->pre, t->ncols - 1);
			} else {
				/* the sample's rows live in `merged` until the
				 * next one; `pre` keeps its buckets */
				struct row **o = t->merged.order;
				size_t cap = t->merged.cap;

				map_clear(&t->merged, t->ncols - 1);
				t->merged.order = t->pre.order;
				t->merged.n = t->pre.n;
				t->merged.cap = t->pre.cap;
				t->pre.order = o;
				t->pre.n = 0;
				t->pre.cap = cap;
				stl_hash_clear(&t->pre.h);
			}
		}
	}
	if (t->is_list) {
		free(t->sample);
		t->sample = malloc((t->pre.n + 1) * sizeof(*t->sample));
		if (!t->sample)
			abort();
		if (t->pre.n)
			memcpy(t->sample, t->pre.order, t->pre.n * sizeof(*t->sample));
		t->nsample = t->pre.n;
	}
	t->prev_flush_ns = t->next_flush_ns;
	t->next_flush_ns = ts - ts % t->refresh_ns + t->refresh_ns;
	table_sort(t);
}

/* ---- output ---- */

size_t table_nvals(const struct table *t)
{
	return t->merging ? t->ngcols - 1 : t->ncols - 1;
}

const struct table_col *table_val_col(const struct table *t, size_t j)
{
	return t->merging ? &t->cols[t->gcols[j + 1]] : &t->cols[j + 1];
}

const struct table_col *table_key_col(const struct table *t)
{
	return t->merging ? &t->cols[t->gcols[0]] : &t->cols[0];
}

/* 1230 -> "1.20K" (binary units), right-aligned in width */
static void format_bytes(double val, int width, int is_int, char *buf, size_t n)
{
	static const struct { double lim; char u; } units[] = {
		{ 1125899906842624.0, 'P' }, { 1099511627776.0, 'T' }, { 1073741824.0, 'G' },
		{ 1048576.0, 'M' }, { 1024.0, 'K' },
	};
	size_t len;

	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (val > units[i].lim) {
			snprintf(buf, n, is_int ? "%*.0lf%c" : "%*.2lf%c", width - 1,
				 val / units[i].lim, units[i].u);
			goto out;
		}
	snprintf(buf, n, is_int ? "%*.0lf" : "%*.2lf", width, val);
out:
	len = strlen(buf);
	if (len > (size_t)width)
		memmove(buf, buf + len - width, (size_t)width + 1);
}

/* nanoseconds -> "1.10s", "23ms", "4.56us"..., right-aligned in width */
static void format_time(uint64_t v, int width, char *buf, size_t n)
{
	const uint64_t S = ONE_SECOND_NS;
	char t[64];

	if (v >= 3600 * S)
		snprintf(t, sizeof(t), "%.2u:%.2u:%.2u", (unsigned)(v / (3600 * S)),
			 (unsigned)((v / (60 * S)) % 60), (unsigned)((v / S) % 60));
	else if (v >= 60 * S)
		snprintf(t, sizeof(t), "%u:%u", (unsigned)(v / (60 * S)), (unsigned)((v / S) % 60));
	else if (v >= S)
		snprintf(t, sizeof(t), "%u.%02us", (unsigned)(v / S), (unsigned)((v % S) / 10000000));
	else if (v >= S / 100)
		snprintf(t, sizeof(t), "%ums", (unsigned)(v / 1000000));
	else if (v >= S / 1000)
		snprintf(t, sizeof(t), "%u.%02ums", (unsigned)(v / 1000000), (unsigned)((v % 1000000) / 10000));
	else if (v >= S / 100000)
		snprintf(t, sizeof(t), "%uus", (unsigned)(v / 1000));
	else if (v >= S / 1000000)
		snprintf(t, sizeof(t), "%u.%02uus", (unsigned)(v / 1000), (unsigned)((v % 1000) / 10));
	else
		snprintf(t, sizeof(t), "%uns", (unsigned)v);
	snprintf(buf, n, "%*s", width, t);
}

void table_format_time(uint64_t ns, char *buf, size_t n)
{
	format_time(ns, 0, buf, n);
}

/* the text of a value that is not a number: strings, addresses, flags */
static const char *plain_text(const struct table_col *c, const struct cell *v, char *buf, size_t n)
{
	switch (type_kind(c->type)) {
	case K_INT:
		snprintf(buf, n, "%" PRId64, v->i);
		return buf;
	case K_UINT:
		if (c->type == PT_BOOL)
			return v->u ? "true" : "false";
		snprintf(buf, n, "%" PRIu64, v->u);
		return buf;
	case K_IP:
		if (!inet_ntop(v->len == 4 ? AF_INET : AF_INET6, v->s, buf, (socklen_t)n))
			buf[0] = 0;
		return buf;
	default:
		return v->s ? v->s : "";
	}
}

static int is_plain_int_type(uint8_t t)
{
	return t >= PT_INT8 && t <= PT_UINT64;
}

int table_col_is_number(const struct table *t, size_t j)
{
	uint8_t type = table_val_col(t, j)->type;

	return is_plain_int_type(type) || type == PT_RELTIME || type == PT_DOUBLE;
}

static const char *format_cell(const struct table *t, const struct row *r, size_t j, int rate,
			       uint64_t time_delta, int width, char *buf, size_t buflen)
{
	const struct table_col *c = table_val_col(t, j);
	const struct cell *v = &r->vals[j];
	double cnt = v->cnt;

	if (time_delta && rate)
		cnt = (double)time_delta / ONE_SECOND_NS;
	if (is_plain_int_type(c->type)) {
		int is_signed = type_kind(c->type) == K_INT;

		if (c->pf_id || cnt == 1 || cnt == 0) {
			int64_t val = is_signed ? v->i : (int64_t)v->u;

			if (cnt > 1)
				val /= (int64_t)cnt;
			if (c->pf_id)
				snprintf(buf, buflen, "%*" PRId64, width, val);
			else
				format_bytes((double)val, width, 1, buf, buflen);
		} else {
			double val = is_signed ? (double)v->i : (double)v->u;

			if (cnt > 1)
				val /= cnt;
			if (c->pf_id)
				snprintf(buf, buflen, "%*lf", width, val);
			else
				format_bytes(val, width, 0, buf, buflen);
		}
		return buf;
	}
	if (c->type == PT_RELTIME) {
		double val = (double)v->u;

		if (cnt > 1)
			val /= cnt;
		format_time((uint64_t)(int64_t)val, width, buf, buflen);
		return buf;
	}
	if (c->type == PT_DOUBLE) {
		double val = v->d;

		if (cnt > 1)
			val /= cnt;
		snprintf(buf, buflen, "%*.2lf", width, val);
		return buf;
	}
	return plain_text(c, v, buf, buflen);
}

const char *table_format(const struct table *t, const struct row *r, size_t j,
			 uint64_t time_delta, int width, char *buf, size_t buflen)
{
	const struct table_col *c = table_val_col(t, j);

	return format_cell(t, r, j, c->aggr == AGGR_TIME_AVG || c->merge_aggr == AGGR_TIME_AVG,
			   time_delta, width, buf, buflen);
}

const char *table_format_screen(const struct table *t, const struct row *r, size_t j,
				uint64_t time_delta, int width, char *buf, size_t buflen)
{
	return format_cell(t, r, j, table_val_col(t, j)->screen_rate, time_delta, width, buf, buflen);
}

const char *table_key_string(const struct table *t, const struct row *r, char *buf, size_t buflen)
{
	return plain_text(table_key_col(t), &r->key, buf, buflen);
}

void table_print_raw(const struct table *t, FILE *out, uint64_t time_delta)
{
	size_t nv = table_nvals(t);
	char buf[4096];

	for (size_t i = 0; i < t->nsample; i++) {
		for (size_t j = 0; j < nv; j++) {
			fputs(table_format(t, t->sample[i], j, time_delta, TABLE_VALUE_WIDTH, buf, sizeof(buf)), out);
			fputc(' ', out);
		}
		fputc('\n', out);
	}
	fputs("----------------------\n", out);
}

/* ---- sorting ---- */

static double cell_num(const struct table_col *c, const struct cell *v, int avg)
{
	double x;

	switch (type_kind(c->type)) {
	case K_INT: x = (double)v->i; break;
	case K_UINT: x = (double)v->u; break;
	case K_DOUBLE: x = v->d; break;
	default: return 0;
	}
	if (avg && v->cnt > 1)
		x /= v->cnt;
	return x;
}

/* the order of the sort column, <0 when row a goes before row b */
static int cmp_rows(const struct table *t, const struct row *x, const struct row *y)
{
	const struct table_col *c = table_val_col(t, (size_t)t->sort_col);
	const struct cell *cx = &x->vals[t->sort_col], *cy = &y->vals[t->sort_col];
	int r;

	if (type_kind(c->type) == K_STR || type_kind(c->type) == K_IP) {
		size_t n = cx->len < cy->len ? cx->len : cy->len;

		r = memcmp(cx->s ? cx->s : "", cy->s ? cy->s : "", n);
		if (!r)
			r = (cx->len > cy->len) - (cx->len < cy->len);
	} else {
		int avg = cx->cnt > 1 || cy->cnt > 1;
		double dx = cell_num(c, cx, avg), dy = cell_num(c, cy, avg);

		r = (dx > dy) - (dx < dy);
	}
	return t->sort_ascending ? r : -r;
}

static int row_before(const void *a, const void *b, void *t)
{
	return cmp_rows(t, a, b) < 0;
}

/* std::sort as the reference sorts: rows tied on the column come in its order */
void table_sort(struct table *t)
{
	if (t->sort_col < 0 || t->nsample < 2)
		return;
	stl_sort((void **)t->sample, t->nsample, row_before, t);
}

void table_set_sort(struct table *t, int j)
{
	const struct table_col *c;

	if (j < 0 || (size_t)j >= table_nvals(t))
		return;
	c = table_val_col(t, (size_t)j);
	if (j == t->sort_col) {
		t->sort_ascending = !t->sort_ascending;
		return;
	}
	t->sort_ascending = !(type_kind(c->type) == K_INT || type_kind(c->type) == K_UINT ||
			      type_kind(c->type) == K_DOUBLE);
	t->sort_col = j;
}
