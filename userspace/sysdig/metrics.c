/*
 * metrics.c - the Prometheus endpoint of `sysdig --metrics-listen`.
 *
 * The capture thread folds every event that passed the filter into a table
 * of series (a family plus its label values): syscalls by type, errors by
 * errno, bytes by fd type, network bytes by remote endpoint and server
 * port, CPU time from the switch events, syscall latency histograms.  The
 * per-process labels are fields (--metrics-labels, default proc.name); the
 * table holds at most --metrics-max-series series, later label sets count in
 * one "__overflow__" series per family, and --metrics-top N keeps the N
 * largest series of a family per scrape (the rest summed as "__other__").
 *
 * libmicrohttpd serves /metrics from its own thread.  A scrape copies the
 * table under the lock (a memcpy, the capture waits at most that long) and
 * renders and sends the text outside it, so a slow scraper never stalls the
 * capture.  Chisels publish gauge families through sysdig.publish_metrics
 * (metrics_publish).  docs/fleet.md lists every metric.
 */
#define _GNU_SOURCE
#include <microhttpd.h>
#include <netdb.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include "fields.h"
#include "fleet.h"
#include "render.h"

#define DEFAULT_MAX_SERIES 10000
#define MAX_LABEL_FIELDS 8
#define LABELS_MAX 2048
#define NBUCKETS 8	/* le 1us .. 10s, then +Inf */

static const double g_bucket_le[NBUCKETS] = { 1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 1, 10 };

enum family {
	FAM_SYSCALLS,
	FAM_ERRORS,
	FAM_FD_BYTES,
	FAM_NET_BYTES,
	FAM_CPU,
	FAM_LATENCY,
	NFAMILIES,
};

struct family_def {
	const char *name, *type, *help;
	const char *extra[5];	/* label names after the per-process ones */
	int ns_to_s;		/* value kept in ns, shown in seconds */
};

static const struct family_def g_families[NFAMILIES] = {
	{ "sysdig_syscalls_total", "counter", "System calls (exit events) by type",
	  { "syscall" }, 0 },
	{ "sysdig_syscall_errors_total", "counter", "Failed system calls by type and errno",
	  { "syscall", "errno" }, 0 },
	{ "sysdig_fd_bytes_total", "counter", "Bytes read and written, by fd type",
	  { "fd_type", "direction" }, 0 },
	{ "sysdig_net_bytes_total", "counter",
	  "Network bytes by remote address and server port (the topprocs_net view)",
	  { "l4proto", "remote", "port", "direction" }, 0 },
	{ "sysdig_cpu_seconds_total", "counter", "CPU time, from the switch events", { 0 }, 1 },
	{ "sysdig_syscall_latency_seconds", "histogram", "System call latency (exit - enter)",
	  { "syscall" }, 1 },
};

struct series {
	uint32_t fam;
	uint32_t hash;
	char *labels;		/* rendered: a="x",b="y" */
	uint64_t v;		/* counter, or histogram count */
	uint64_t sum;		/* histogram sum (ns) */
	uint64_t b[NBUCKETS];	/* histogram buckets, not cumulative */
};

struct chisel_family {
	char *name, *label, *help;
	size_t n;
	char **keys;
	double *vals;
};

struct metrics {
	struct MHD_Daemon *httpd;
	pthread_mutex_t lock;
	/* per-process label fields */
	struct field_ref label_ref[MAX_LABEL_FIELDS];
	char label_name[MAX_LABEL_FIELDS][96];
	int nlabels;
	struct field_ref f_latency, f_res, f_rip, f_sport, f_l4proto;
	struct field_value *val;	/* capture thread's extraction buffer */
	/* the series table (under lock) */
	struct series *series;
	size_t nseries, max_series;
	uint32_t *slots;	/* 1 + index into series, 0: empty */
	size_t nslots;
	uint64_t overflow;	/* events counted in an __overflow__ series */
	uint64_t top;
	char *other_labels[NFAMILIES];	/* every label "__other__" */
	char *overflow_labels[NFAMILIES];
	uint64_t events;	/* atomic */
	/* counters (under lock) */
	uint64_t driver_events, driver_drops;
	int have_export;
	uint64_t export_rows, export_drops, export_failed;
	uint64_t scrapes, scrape_cpu_ns;
	/* switch events: when each CPU last switched */
	uint64_t last_switch[256];
	struct chisel_family *chisel;
	size_t nchisel;
};

/* ------------------------------------------------------------- labels */

/* a Prometheus label name from a field name: proc.name -> proc_name */
static void label_name_of(const char *field, char *out, size_t len)
{
	size_t k = 0;

	for (; *field && k + 1 < len; field++)
		out[k++] = (*field >= 'a' && *field <= 'z') || (*field >= 'A' && *field <= 'Z') ||
				   (*field >= '0' && *field <= '9') ? *field : '_';
	out[k] = 0;
}

/* length of the valid UTF-8 sequence at p (at most n bytes), 0 if invalid */
static size_t utf8_len(const unsigned char *p, size_t n)
{
	size_t k, need = p[0] < 0x80 ? 1 : (p[0] & 0xe0) == 0xc0 ? 2 : (p[0] & 0xf0) == 0xe0 ? 3 :
		(p[0] & 0xf8) == 0xf0 ? 4 : 0;

	if (!need || need > n || (need == 2 && p[0] < 0xc2))
		return 0;
	for (k = 1; k < need; k++)
		if ((p[k] & 0xc0) != 0x80)
			return 0;
	return need;
}

/* name="value", escaped as the text format wants, invalid UTF-8 as '?' */
static void put_label(struct sbuf *b, const char *name, const char *v, size_t n)
{
	if (b->len)
		sb_putc(b, ',');
	sb_puts(b, name);
	sb_put(b, "=\"", 2);
	for (size_t i = 0; i < n;) {
		unsigned char c = (unsigned char)v[i];
		size_t k = utf8_len((const unsigned char *)v + i, n - i);

		if (c == '\\' || c == '"') {
			sb_putc(b, '\\');
			sb_putc(b, (char)c);
		} else if (c == '\n') {
			sb_put(b, "\\n", 2);
		} else if (!k || c < 0x20 || c == 0x7f) {
			sb_putc(b, '?');
			k = k ? k : 1;
			i += k;
			continue;
		} else {
			sb_put(b, v + i, k);
			i += k;
			continue;
		}
		i++;
	}
	sb_putc(b, '"');
}

static void put_label_s(struct sbuf *b, const char *name, const char *v)
{
	put_label(b, name, v, strlen(v));
}

/* the per-process labels of e into b (reset first) */
static void process_labels(struct metrics *m, struct sinsp *s, struct sinsp_evt *e, struct sbuf *b)
{
	char tmp[256];

	sb_reset(b);
	for (int i = 0; i < m->nlabels; i++) {
		const char *txt = "";

		if (field_extract(s, e, &m->label_ref[i], m->val))
			txt = field_to_string(&m->label_ref[i], m->val, tmp, sizeof(tmp));
		put_label_s(b, m->label_name[i], txt);
	}
}

/* labels of a family with every value v (the __other__ / __overflow__ series) */
static char *constant_labels(const struct metrics *m, int fam, const char *v)
{
	struct sbuf b = { 0 };

	for (int i = 0; i < m->nlabels; i++)
		put_label_s(&b, m->label_name[i], v);
	for (int i = 0; g_families[fam].extra[i]; i++)
		put_label_s(&b, g_families[fam].extra[i], v);
	if (!b.p)
		return strdup("");
	return b.p;
}

/* ------------------------------------------------------------- series */

static uint32_t hash_labels(int fam, const char *s, size_t n)
{
	uint32_t h = 2166136261u ^ (uint32_t)fam;

	for (size_t i = 0; i < n; i++)
		h = (h ^ (uint8_t)s[i]) * 16777619u;
	return h;
}

static struct series *insert(struct metrics *m, int fam, const char *labels, size_t n, uint32_t h,
			     size_t limit)
{
	size_t mask = m->nslots - 1, k;
	struct series *se;

	for (k = h & mask; m->slots[k]; k = (k + 1) & mask) {
		se = &m->series[m->slots[k] - 1];
		if (se->hash == h && se->fam == (uint32_t)fam && !strcmp(se->labels, labels))
			return se;
	}
	if (m->nseries >= limit)
		return NULL;
	se = &m->series[m->nseries];
	memset(se, 0, sizeof(*se));
	se->labels = strndup(labels, n);
	if (!se->labels)
		return NULL;
	se->fam = (uint32_t)fam;
	se->hash = h;
	m->slots[k] = (uint32_t)++m->nseries;
	return se;
}

/* the series of fam with labels (then overflow when the table is full) */
static struct series *series_get(struct metrics *m, int fam, const char *labels, size_t n)
{
	struct series *se = insert(m, fam, labels, n, hash_labels(fam, labels, n), m->max_series);

	if (se)
		return se;
	m->overflow++;
	se = insert(m, fam, m->overflow_labels[fam], strlen(m->overflow_labels[fam]),
		    hash_labels(fam, m->overflow_labels[fam], strlen(m->overflow_labels[fam])),
		    m->max_series + NFAMILIES);
	return se;	/* the overflow series have room reserved */
}

static void count(struct metrics *m, int fam, const struct sbuf *labels, uint64_t v)
{
	struct series *se = series_get(m, fam, labels->p ? labels->p : "", labels->len);

	if (se)
		se->v += v;
}

static void observe(struct metrics *m, int fam, const struct sbuf *labels, uint64_t ns)
{
	struct series *se = series_get(m, fam, labels->p ? labels->p : "", labels->len);
	int k;

	if (!se)
		return;
	se->v++;
	se->sum += ns;
	for (k = 0; k < NBUCKETS && (double)ns > g_bucket_le[k] * 1e9; k++)
		;
	if (k < NBUCKETS)
		se->b[k]++;
}

/* ----------------------------------------------------- the capture side */

static int is_io(const struct sinsp_evt *e)
{
	return e->info && (e->info->flags & (EF_READS_FROM_FD | EF_WRITES_TO_FD));
}

static const char *field_text(struct metrics *m, struct sinsp *s, struct sinsp_evt *e,
			      const struct field_ref *f, char *buf, size_t len)
{
	if (!field_extract(s, e, f, m->val))
		return "";
	return field_to_string(f, m->val, buf, len);
}

/* the network labels after the process ones: l4proto, remote, port, direction */
static void net_labels(struct metrics *m, struct sinsp *s, struct sinsp_evt *e, struct sbuf *b,
		       const char *dir)
{
	char tmp[128];

	put_label_s(b, "l4proto", field_text(m, s, e, &m->f_l4proto, tmp, sizeof(tmp)));
	put_label_s(b, "remote", field_text(m, s, e, &m->f_rip, tmp, sizeof(tmp)));
	put_label_s(b, "port", field_text(m, s, e, &m->f_sport, tmp, sizeof(tmp)));
	put_label_s(b, "direction", dir);
}

static void syscall_exit(struct metrics *m, struct sinsp *s, struct sinsp_evt *e,
			 const struct sbuf *proc, struct sbuf *b)
{
	const char *name = render_evt_type(e);
	size_t plen = proc->len;

	sb_reset(b);
	sb_put(b, proc->p ? proc->p : "", plen);
	put_label_s(b, "syscall", name);
	count(m, FAM_SYSCALLS, b, 1);
	if (field_extract(s, e, &m->f_latency, m->val))
		observe(m, FAM_LATENCY, b, m->val->u);
	if (e->errorcode > 0) {
		const char *en = render_errno_name(-(int64_t)e->errorcode);
		char num[32];

		if (!en) {
			snprintf(num, sizeof(num), "%d", e->errorcode);
			en = num;
		}
		put_label_s(b, "errno", en);
		count(m, FAM_ERRORS, b, 1);
	}
	if (is_io(e) && field_extract(s, e, &m->f_res, m->val) && m->val->i > 0) {
		uint64_t bytes = (uint64_t)m->val->i;
		const char *dir = (e->info->flags & EF_READS_FROM_FD) ? "read" : "write";
		const char *ft = field_fd_type(s, e);

		sb_reset(b);
		sb_put(b, proc->p ? proc->p : "", plen);
		put_label_s(b, "fd_type", ft ? ft : "unknown");
		put_label_s(b, "direction", dir);
		count(m, FAM_FD_BYTES, b, bytes);
		if (ft && (!strcmp(ft, "ipv4") || !strcmp(ft, "ipv6"))) {
			sb_reset(b);
			sb_put(b, proc->p ? proc->p : "", plen);
			net_labels(m, s, e, b, dir);
			count(m, FAM_NET_BYTES, b, bytes);
		}
	}
}

void metrics_event(struct metrics *m, struct sinsp *s, struct sinsp_evt *e)
{
	static struct sbuf proc, b;
	uint16_t t = e->scap.type;
	int is_switch = t == PPME_SCHEDSWITCH_6_E || t == PPME_SCHEDSWITCH_1_E;
	int is_exit = !ppm_event_is_enter(t) && e->info && !(e->info->category & EC_INTERNAL);

	__atomic_fetch_add(&m->events, 1, __ATOMIC_RELAXED);
	if (!is_switch && !is_exit)
		return;
	/* the labels are built outside the lock (field extraction may be slow) */
	process_labels(m, s, e, &proc);
	pthread_mutex_lock(&m->lock);
	if (is_switch) {
		uint16_t cpu = e->scap.cpuid;

		if (cpu < 256) {
			if (m->last_switch[cpu] && e->scap.ts > m->last_switch[cpu]) {
				sb_reset(&b);
				sb_put(&b, proc.p ? proc.p : "", proc.len);
				count(m, FAM_CPU, &b, e->scap.ts - m->last_switch[cpu]);
			}
			m->last_switch[cpu] = e->scap.ts;
		}
	} else {
		syscall_exit(m, s, e, &proc, &b);
	}
	pthread_mutex_unlock(&m->lock);
}

void metrics_set_driver(struct metrics *m, uint64_t events, uint64_t drops)
{
	pthread_mutex_lock(&m->lock);
	m->driver_events = events;
	m->driver_drops = drops;
	pthread_mutex_unlock(&m->lock);
}

void metrics_set_export(struct metrics *m, uint64_t rows, uint64_t drops, uint64_t failed)
{
	pthread_mutex_lock(&m->lock);
	m->have_export = 1;
	m->export_rows = rows;
	m->export_drops = drops;
	m->export_failed = failed;
	pthread_mutex_unlock(&m->lock);
}

/* ---------------------------------------------------- chisel families */

static void chisel_family_clear(struct chisel_family *f)
{
	for (size_t i = 0; i < f->n; i++)
		free(f->keys[i]);
	free(f->keys);
	free(f->vals);
	free(f->name);
	free(f->label);
	free(f->help);
	memset(f, 0, sizeof(*f));
}

struct kv {
	const char *key;
	double val;
};

static int cmp_kv(const void *a, const void *b)
{
	const struct kv *x = a, *y = b;

	return x->val < y->val ? 1 : x->val > y->val ? -1 : strcmp(x->key, y->key);
}

void metrics_publish(void *ctx, const char *name, const char *label, const char *help,
		     const char *const *keys, const double *values, size_t n)
{
	struct metrics *m = ctx;
	struct chisel_family nf = { 0 }, *slot = NULL;
	struct kv *kv = calloc(n ? n : 1, sizeof(*kv));
	char fname[160], lname[96];

	if (!kv)
		return;
	for (size_t i = 0; i < n; i++) {
		kv[i].key = keys[i];
		kv[i].val = values[i];
	}
	/* the largest values first; at most max_series of them */
	qsort(kv, n, sizeof(*kv), cmp_kv);
	if (n > m->max_series)
		n = m->max_series;
	label_name_of(name, lname, sizeof(lname));
	snprintf(fname, sizeof(fname), "sysdig_chisel_%s", lname);
	label_name_of(label, lname, sizeof(lname));
	nf.name = strdup(fname);
	nf.label = strdup(lname);
	nf.help = strdup(help);
	for (char *p = nf.help; p && *p; p++)	/* one line, no escapes */
		if (*p == '\n' || *p == '\\')
			*p = ' ';
	nf.keys = calloc(n ? n : 1, sizeof(char *));
	nf.vals = calloc(n ? n : 1, sizeof(double));
	if (!nf.name || !nf.label || !nf.help || !nf.keys || !nf.vals) {
		chisel_family_clear(&nf);
		free(kv);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		nf.keys[i] = strdup(kv[i].key);
		nf.vals[i] = kv[i].val;
		if (nf.keys[i])
			nf.n = i + 1;
		else
			break;
	}
	free(kv);
	pthread_mutex_lock(&m->lock);
	for (size_t i = 0; i < m->nchisel; i++)
		if (!strcmp(m->chisel[i].name, nf.name))
			slot = &m->chisel[i];
	if (!slot) {
		struct chisel_family *p = realloc(m->chisel, (m->nchisel + 1) * sizeof(*p));

		if (p) {
			m->chisel = p;
			slot = &p[m->nchisel++];
			memset(slot, 0, sizeof(*slot));
		}
	}
	if (slot) {
		chisel_family_clear(slot);
		*slot = nf;
	} else {
		chisel_family_clear(&nf);
	}
	pthread_mutex_unlock(&m->lock);
}

/* -------------------------------------------------------- the scraper */

static int cmp_series(const void *a, const void *b)
{
	const struct series *x = a, *y = b;

	if (x->fam != y->fam)
		return x->fam < y->fam ? -1 : 1;
	if (x->v != y->v)
		return x->v < y->v ? 1 : -1;
	return strcmp(x->labels, y->labels);
}

static void put_value(struct sbuf *b, const struct family_def *fd, uint64_t v)
{
	if (fd->ns_to_s)
		sb_printf(b, "%.9f", (double)v / 1e9);
	else
		sb_u64(b, v);
}

static void put_series(struct sbuf *out, const struct family_def *fd, const struct series *se)
{
	uint64_t cum = 0;

	if (strcmp(fd->type, "histogram")) {
		sb_printf(out, "%s{%s} ", fd->name, se->labels);
		put_value(out, fd, se->v);
		sb_putc(out, '\n');
		return;
	}
	for (int k = 0; k < NBUCKETS; k++) {
		cum += se->b[k];
		sb_printf(out, "%s_bucket{%s,le=\"%g\"} %llu\n", fd->name, se->labels, g_bucket_le[k],
			  (unsigned long long)cum);
	}
	sb_printf(out, "%s_bucket{%s,le=\"+Inf\"} %llu\n", fd->name, se->labels,
		  (unsigned long long)se->v);
	sb_printf(out, "%s_sum{%s} %.9f\n", fd->name, se->labels, (double)se->sum / 1e9);
	sb_printf(out, "%s_count{%s} %llu\n", fd->name, se->labels, (unsigned long long)se->v);
}

/* the families of a sorted copy of the table, --metrics-top applied */
static void render_series(struct sbuf *out, struct series *sv, size_t n, uint64_t top,
			  char *const *other_labels)
{
	size_t i = 0;

	for (int fam = 0; fam < NFAMILIES; fam++) {
		const struct family_def *fd = &g_families[fam];
		struct series other = { .labels = other_labels[fam] };
		size_t shown = 0, rest = 0;

		sb_printf(out, "# HELP %s %s\n# TYPE %s %s\n", fd->name, fd->help, fd->name, fd->type);
		for (; i < n && sv[i].fam == (uint32_t)fam; i++) {
			if (!top || shown < top) {
				put_series(out, fd, &sv[i]);
				shown++;
				continue;
			}
			rest++;
			other.v += sv[i].v;
			other.sum += sv[i].sum;
			for (int k = 0; k < NBUCKETS; k++)
				other.b[k] += sv[i].b[k];
		}
		if (rest)
			put_series(out, fd, &other);
	}
}

static void render_counter(struct sbuf *out, const char *name, const char *help, uint64_t v)
{
	sb_printf(out, "# HELP %s %s\n# TYPE %s counter\n%s %llu\n", name, help, name, name,
		  (unsigned long long)v);
}

static void render_chisel(struct sbuf *out, const struct chisel_family *f)
{
	sb_printf(out, "# HELP %s %s\n# TYPE %s gauge\n", f->name, f->help, f->name);
	for (size_t i = 0; i < f->n; i++) {
		struct sbuf l = { 0 };

		put_label_s(&l, f->label, f->keys[i]);
		sb_printf(out, "%s{%s} %.17g\n", f->name, l.p, f->vals[i]);
		sb_free(&l);
	}
}

static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* the whole /metrics text (malloc'd) */
static char *render(struct metrics *m, size_t *len)
{
	uint64_t t0 = thread_cpu_ns();
	struct sbuf out = { 0 };
	struct series *copy;
	struct metrics c;
	size_t n;

	pthread_mutex_lock(&m->lock);
	n = m->nseries;
	copy = malloc((n ? n : 1) * sizeof(*copy));
	if (!copy) {
		pthread_mutex_unlock(&m->lock);
		return NULL;
	}
	memcpy(copy, m->series, n * sizeof(*copy));
	c = *m;
	for (size_t i = 0; i < m->nchisel; i++)	/* small: rendered under the lock */
		render_chisel(&out, &m->chisel[i]);
	pthread_mutex_unlock(&m->lock);
	/* label strings are never freed while the endpoint runs */
	qsort(copy, n, sizeof(*copy), cmp_series);
	render_series(&out, copy, n, c.top, c.other_labels);
	free(copy);
	render_counter(&out, "sysdig_events_total", "Events that passed the filter",
		       __atomic_load_n(&m->events, __ATOMIC_RELAXED));
	render_counter(&out, "sysdig_driver_events_total", "Events seen by the driver", c.driver_events);
	render_counter(&out, "sysdig_driver_drops_total", "Events the driver dropped (ring full)",
		       c.driver_drops);
	render_counter(&out, "sysdig_metrics_overflow_total",
		       "Events counted in __overflow__ series (--metrics-max-series reached)", c.overflow);
	sb_printf(&out, "# HELP sysdig_metrics_series Series in the table\n# TYPE sysdig_metrics_series gauge\n"
		  "sysdig_metrics_series %zu\n", n);
	if (c.have_export) {
		render_counter(&out, "sysdig_export_rows_total", "Rows written to the export sink",
			       c.export_rows);
		render_counter(&out, "sysdig_export_drops_total",
			       "Rows dropped because the export queue was full", c.export_drops);
		render_counter(&out, "sysdig_export_failed_total", "Rows the sink refused or never got",
			       c.export_failed);
	}
	render_counter(&out, "sysdig_metrics_scrapes_total", "Scrapes served before this one", c.scrapes);
	sb_printf(&out, "# HELP sysdig_metrics_scrape_cpu_seconds_total CPU time spent rendering scrapes\n"
		  "# TYPE sysdig_metrics_scrape_cpu_seconds_total counter\n"
		  "sysdig_metrics_scrape_cpu_seconds_total %.9f\n", (double)c.scrape_cpu_ns / 1e9);
	pthread_mutex_lock(&m->lock);
	m->scrapes++;
	m->scrape_cpu_ns += thread_cpu_ns() - t0;
	pthread_mutex_unlock(&m->lock);
	*len = out.len;
	return out.p;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *conn, const char *url,
				  const char *method, const char *version, const char *upload,
				  size_t *upload_len, void **state)
{
	struct metrics *m = cls;
	struct MHD_Response *resp;
	enum MHD_Result rc;
	unsigned status = MHD_HTTP_OK;
	size_t len = 0;
	char *body;

	(void)version;
	(void)upload;
	(void)upload_len;
	(void)state;
	if (strcmp(method, "GET") && strcmp(method, "HEAD")) {
		static char msg[] = "only GET\n";

		status = MHD_HTTP_METHOD_NOT_ALLOWED;
		body = msg;
		len = strlen(msg);
		resp = MHD_create_response_from_buffer(len, body, MHD_RESPMEM_PERSISTENT);
	} else if (strcmp(url, "/metrics")) {
		static char msg[] = "sysdig metrics: see /metrics\n";

		status = MHD_HTTP_NOT_FOUND;
		resp = MHD_create_response_from_buffer(strlen(msg), msg, MHD_RESPMEM_PERSISTENT);
	} else {
		body = render(m, &len);
		if (!body)
			return MHD_NO;
		resp = MHD_create_response_from_buffer(len, body, MHD_RESPMEM_MUST_FREE);
	}
	if (!resp)
		return MHD_NO;
	MHD_add_response_header(resp, "Content-Type", "text/plain; version=0.0.4; charset=utf-8");
	rc = MHD_queue_response(conn, status, resp);
	MHD_destroy_response(resp);
	return rc;
}

/* ----------------------------------------------------- start and stop */

/* [ADDR:]PORT, [V6ADDR]:PORT; 0 with *ss filled */
static int parse_listen(const char *spec, struct sockaddr_storage *ss, socklen_t *sslen, int *v6)
{
	char host[256] = "", port[16];
	const char *colon = strrchr(spec, ':');
	struct addrinfo hints = { .ai_flags = AI_NUMERICSERV | AI_PASSIVE,
				  .ai_socktype = SOCK_STREAM };
	struct addrinfo *ai = NULL;
	char *end;
	long p;

	if (colon) {
		size_t hl = (size_t)(colon - spec);

		if (hl >= sizeof(host))
			return -1;
		memcpy(host, spec, hl);
		host[hl] = 0;
		if (host[0] == '[' && hl >= 2 && host[hl - 1] == ']') {
			memmove(host, host + 1, hl - 2);
			host[hl - 2] = 0;
		}
		spec = colon + 1;
	}
	p = strtol(spec, &end, 10);
	if (!*spec || *end || p < 0 || p > 65535)
		return -1;
	snprintf(port, sizeof(port), "%ld", p);
	if (getaddrinfo(host[0] ? host : NULL, port, &hints, &ai) || !ai)
		return -1;
	memcpy(ss, ai->ai_addr, ai->ai_addrlen);
	*sslen = ai->ai_addrlen;
	*v6 = ai->ai_family == AF_INET6;
	freeaddrinfo(ai);
	return 0;
}

static int parse_labels(struct metrics *m, const char *spec, char *err, size_t errlen)
{
	char *copy = strdup(spec), *save = NULL;

	if (!copy)
		return -1;
	for (char *w = strtok_r(copy, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		char ferr[256] = "";
		int n;

		if (m->nlabels >= MAX_LABEL_FIELDS) {
			snprintf(err, errlen, "--metrics-labels: at most %d fields", MAX_LABEL_FIELDS);
			free(copy);
			return -1;
		}
		n = field_parse(w, &m->label_ref[m->nlabels], ferr, sizeof(ferr));
		if (n <= 0 || w[n]) {
			snprintf(err, errlen, "--metrics-labels: invalid field '%s'%s%s", w,
				 ferr[0] ? ": " : "", ferr);
			free(copy);
			return -1;
		}
		label_name_of(w, m->label_name[m->nlabels], sizeof(m->label_name[0]));
		m->nlabels++;
	}
	free(copy);
	if (!m->nlabels) {
		snprintf(err, errlen, "--metrics-labels: no field given");
		return -1;
	}
	return 0;
}

static int parse_field(struct field_ref *f, const char *name)
{
	char err[128];

	return field_parse(name, f, err, sizeof(err)) == (int)strlen(name) ? 0 : -1;
}

struct metrics *metrics_start(const struct fleet_opts *fo, char *err, size_t errlen)
{
	struct metrics *m = calloc(1, sizeof(*m));
	struct sockaddr_storage ss;
	socklen_t sslen;
	int v6 = 0;
	const union MHD_DaemonInfo *info;

	if (!m || !(m->val = calloc(1, sizeof(*m->val)))) {
		snprintf(err, errlen, "out of memory");
		free(m);
		return NULL;
	}
	pthread_mutex_init(&m->lock, NULL);
	if (parse_listen(fo->metrics_listen, &ss, &sslen, &v6)) {
		snprintf(err, errlen, "--metrics-listen: invalid address '%s' (use [ADDR:]PORT)",
			 fo->metrics_listen);
		goto fail;
	}
	if (parse_labels(m, fo->metrics_labels ? fo->metrics_labels : "proc.name", err, errlen))
		goto fail;
	if (parse_field(&m->f_latency, "evt.latency") || parse_field(&m->f_res, "evt.rawres") ||
	    parse_field(&m->f_rip, "fd.rip") || parse_field(&m->f_sport, "fd.sport") ||
	    parse_field(&m->f_l4proto, "fd.l4proto")) {
		snprintf(err, errlen, "metrics: field catalogue incomplete");
		goto fail;
	}
	m->max_series = fo->metrics_max_series ? fo->metrics_max_series : DEFAULT_MAX_SERIES;
	m->top = fo->metrics_top;
	for (m->nslots = 16; m->nslots < 2 * (m->max_series + NFAMILIES); m->nslots *= 2)
		;
	/* room for the overflow series past max_series */
	m->series = calloc(m->max_series + NFAMILIES, sizeof(*m->series));
	m->slots = calloc(m->nslots, sizeof(*m->slots));
	if (!m->series || !m->slots) {
		snprintf(err, errlen, "--metrics-max-series: out of memory");
		goto fail;
	}
	for (int f = 0; f < NFAMILIES; f++) {
		m->other_labels[f] = constant_labels(m, f, "__other__");
		m->overflow_labels[f] = constant_labels(m, f, "__overflow__");
	}
	m->httpd = MHD_start_daemon(MHD_USE_POLL_INTERNAL_THREAD | MHD_USE_ERROR_LOG |
					    (v6 ? MHD_USE_IPv6 : 0),
				    0, NULL, NULL, on_request, m, MHD_OPTION_SOCK_ADDR, &ss,
				    MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)30,
				    MHD_OPTION_CONNECTION_LIMIT, (unsigned)64, MHD_OPTION_END);
	if (!m->httpd) {
		snprintf(err, errlen, "--metrics-listen: cannot listen on %s", fo->metrics_listen);
		goto fail;
	}
	info = MHD_get_daemon_info(m->httpd, MHD_DAEMON_INFO_BIND_PORT);
	fprintf(stderr, "metrics: serving /metrics on %s (port %u)\n", fo->metrics_listen,
		info ? (unsigned)info->port : 0);
	return m;
fail:
	metrics_stop(m);
	return NULL;
}

void metrics_stop(struct metrics *m)
{
	if (!m)
		return;
	if (m->httpd)
		MHD_stop_daemon(m->httpd);
	for (size_t i = 0; i < m->nseries; i++)
		free(m->series[i].labels);
	for (int f = 0; f < NFAMILIES; f++) {
		free(m->other_labels[f]);
		free(m->overflow_labels[f]);
	}
	for (size_t i = 0; i < m->nchisel; i++)
		chisel_family_clear(&m->chisel[i]);
	free(m->chisel);
	free(m->series);
	free(m->slots);
	free(m->val);
	pthread_mutex_destroy(&m->lock);
	free(m);
}
