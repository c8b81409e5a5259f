/*
 * export_clickhouse.c - `sysdig --export clickhouse://HOST:PORT/DB.TABLE`:
 * the events that pass the filter, as rows of one ClickHouse table.
 *
 * The capture thread renders each event as a TabSeparated row into the
 * current batch (--export-batch rows, or whatever a second brought) and
 * hands full batches to a queue of at most --export-queue batches.  A
 * sender thread POSTs them with libcurl to ClickHouse's HTTP interface
 * (INSERT ... FORMAT TabSeparated).  When the queue is full the batch is
 * dropped and its rows counted as export drops: the capture never waits on
 * the sink, and nothing is lost silently (the totals go to stderr at the
 * end and to the metrics endpoint).  Rows the sink refuses after retries
 * count as failed and make the exit status 1; at the end the sink gets 10 s
 * for the rest, then what is left counts as failed (a hung sink never hangs
 * the exit).  The database and table are
 * created when missing (SQL that ClickHouse 18.16 accepts); docs/fleet.md
 * shows the schema and the queries.
 */
#define _GNU_SOURCE
#include <curl/curl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "fields.h"
#include "fleet.h"
#include "render.h"

#define DEFAULT_BATCH_ROWS 50000
#define DEFAULT_QUEUE 8
#define BATCH_MAX_AGE_NS 1000000000ULL
#define SEND_ATTEMPTS 3
#define FINISH_WAIT_MS 10000	/* at the end, the sink gets this long for the rest */

/* one column: its ClickHouse type and the field it comes from ('s'tring,
 * 'i'nt, 'u'nsigned; missing values are "" / the given default) */
struct column {
	const char *name, *type, *field;
	char kind;
	int64_t missing;
};

static const struct column g_columns[] = {
	{ "evt_num", "UInt64", "evt.num", 'u', 0 },
	{ "ts", "UInt64", "evt.rawtime", 'u', 0 },
	{ "cpu", "UInt16", "evt.cpu", 'u', 0 },
	{ "proc_name", "String", "proc.name", 's', 0 },
	{ "pid", "Int64", "proc.pid", 'i', -1 },
	{ "tid", "Int64", "thread.tid", 'i', -1 },
	{ "ppid", "Int64", "proc.ppid", 'i', -1 },
	{ "user_name", "String", "user.name", 's', 0 },
	{ "container_id", "String", "container.id", 's', 0 },
	{ "type", "String", "evt.type", 's', 0 },
	{ "dir", "String", "evt.dir", 's', 0 },
	{ "is_io", "UInt8", "evt.is_io", 'u', 0 },
	{ "fd", "Int64", "fd.num", 'i', -1 },
	{ "fd_type", "String", "fd.type", 's', 0 },
	{ "fd_name", "String", "fd.name", 's', 0 },
	{ "res", "Int64", "evt.rawres", 'i', 0 },
	{ "latency_ns", "UInt64", "evt.latency", 'u', 0 },
	{ "args", "String", "evt.args", 's', 0 },
	{ "buffer", "String", "evt.buffer", 's', 0 },
};
#define NCOLUMNS (sizeof(g_columns) / sizeof(g_columns[0]))

struct batch {
	struct sbuf rows;
	uint64_t n;
	uint64_t started;	/* monotonic ns of the first row */
};

struct ch_export {
	char base[512];		/* http://HOST:PORT/ */
	char db[128], table[128];
	char *insert_url;	/* base?query=INSERT ... */
	const char *host;
	struct field_ref ref[NCOLUMNS];
	struct field_value *val;
	uint64_t batch_rows;
	/* the queue (under lock) */
	pthread_mutex_t lock;
	pthread_cond_t wake;
	struct batch **queue;	/* ring */
	size_t qhead, qlen, qmax;
	struct batch **spare;	/* sent batches, for reuse */
	size_t nspare;
	int finishing;
	int abort;		/* the end's wait ran out: stop sending (atomic) */
	int sender_done;	/* (atomic) */
	uint64_t rows, drops, failed;
	char last_error[512];
	pthread_t sender;
	int sender_running;
	struct batch *cur;	/* capture thread only */
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* ------------------------------------------------------------ HTTP */

static size_t on_body(char *p, size_t size, size_t n, void *arg)
{
	struct sbuf *b = arg;

	sb_put(b, p, size * n);
	return size * n;
}

/* libcurl's progress callback: non-zero aborts the transfer */
static int on_progress(void *arg, curl_off_t dt, curl_off_t dn, curl_off_t ut, curl_off_t un)
{
	(void)dt;
	(void)dn;
	(void)ut;
	(void)un;
	return arg ? __atomic_load_n((int *)arg, __ATOMIC_RELAXED) : 0;
}

/* POST body to url (at most timeout s, abort when *abort becomes non-zero);
 * 0 on HTTP 200, else -1 with the reason in err */
static int post(CURL *c, const char *url, const char *body, size_t len, long timeout, int *abort,
		struct sbuf *resp, char *err, size_t errlen)
{
	char cerr[CURL_ERROR_SIZE] = "";
	long code = 0;
	CURLcode rc;

	sb_reset(resp);
	curl_easy_setopt(c, CURLOPT_URL, url);
	curl_easy_setopt(c, CURLOPT_POST, 1L);
	curl_easy_setopt(c, CURLOPT_POSTFIELDS, body);
	curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)len);
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body);
	curl_easy_setopt(c, CURLOPT_WRITEDATA, resp);
	curl_easy_setopt(c, CURLOPT_ERRORBUFFER, cerr);
	curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT, 5L);
	curl_easy_setopt(c, CURLOPT_TIMEOUT, timeout);
	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(c, CURLOPT_NOPROGRESS, 0L);
	curl_easy_setopt(c, CURLOPT_XFERINFOFUNCTION, on_progress);
	curl_easy_setopt(c, CURLOPT_XFERINFODATA, abort);
	rc = curl_easy_perform(c);
	if (rc != CURLE_OK) {
		snprintf(err, errlen, "%s", cerr[0] ? cerr : curl_easy_strerror(rc));
		return -1;
	}
	curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &code);
	if (code != 200) {
		size_t n = resp->len;

		while (n && (resp->p[n - 1] == '\n' || resp->p[n - 1] == ' '))
			n--;
		snprintf(err, errlen, "HTTP %ld: %.*s", code, (int)(n > 300 ? 300 : n),
			 resp->p ? resp->p : "");
		return -1;
	}
	return 0;
}

/* run one statement (DDL, checks) */
static int query(struct ch_export *x, const char *sql, char *err, size_t errlen)
{
	CURL *c = curl_easy_init();
	struct sbuf resp = { 0 };
	int rc;

	if (!c) {
		snprintf(err, errlen, "curl_easy_init failed");
		return -1;
	}
	rc = post(c, x->base, sql, strlen(sql), 10, NULL, &resp, err, errlen);
	curl_easy_cleanup(c);
	sb_free(&resp);
	return rc;
}

/* ------------------------------------------------------- the sender */

static void *sender_main(void *arg)
{
	struct ch_export *x = arg;
	CURL *c = curl_easy_init();
	struct sbuf resp = { 0 };

	for (;;) {
		struct batch *b;
		char err[512] = "";
		int ok = -1;

		pthread_mutex_lock(&x->lock);
		while (!x->qlen && !x->finishing)
			pthread_cond_wait(&x->wake, &x->lock);
		if (!x->qlen) {
			pthread_mutex_unlock(&x->lock);
			break;
		}
		b = x->queue[x->qhead];
		x->qhead = (x->qhead + 1) % x->qmax;
		x->qlen--;
		pthread_mutex_unlock(&x->lock);
		for (int attempt = 0; c && attempt < SEND_ATTEMPTS && ok; attempt++) {
			if (__atomic_load_n(&x->abort, __ATOMIC_RELAXED)) {
				snprintf(err, sizeof(err), "not sent: the sink took longer than %d s at the end",
					 FINISH_WAIT_MS / 1000);
				break;
			}
			if (attempt)
				usleep(200000U * (unsigned)attempt);
			ok = post(c, x->insert_url, b->rows.p, b->rows.len, 60, &x->abort, &resp, err,
				  sizeof(err));
		}
		pthread_mutex_lock(&x->lock);
		if (!ok) {
			x->rows += b->n;
		} else {
			if (!x->failed)	/* the first failure at once, the last at the end */
				fprintf(stderr, "export: a batch of %llu rows failed: %s\n",
					(unsigned long long)b->n, c ? err : "curl_easy_init failed");
			x->failed += b->n;
			snprintf(x->last_error, sizeof(x->last_error), "%s", c ? err : "curl_easy_init failed");
		}
		sb_reset(&b->rows);
		b->n = 0;
		x->spare[x->nspare++] = b;
		pthread_mutex_unlock(&x->lock);
	}
	if (c)
		curl_easy_cleanup(c);
	sb_free(&resp);
	__atomic_store_n(&x->sender_done, 1, __ATOMIC_RELEASE);
	return NULL;
}

/* hand the current batch to the sender, or drop it when the queue is full */
static void submit(struct ch_export *x)
{
	struct batch *b = x->cur;

	if (!b || !b->n)
		return;
	pthread_mutex_lock(&x->lock);
	if (x->qlen < x->qmax) {
		x->queue[(x->qhead + x->qlen) % x->qmax] = b;
		x->qlen++;
		x->cur = x->nspare ? x->spare[--x->nspare] : NULL;
		pthread_cond_signal(&x->wake);
	} else {
		x->drops += b->n;
		sb_reset(&b->rows);
		b->n = 0;
	}
	pthread_mutex_unlock(&x->lock);
}

/* ------------------------------------------------------- the rows */

/* a TabSeparated string value */
static void put_tsv(struct sbuf *b, const char *s, size_t n)
{
	sb_reserve(b, 2 * n);
	for (size_t i = 0; i < n; i++) {
		char c = s[i], e = 0;

		switch (c) {
		case '\\': e = '\\'; break;
		case '\t': e = 't'; break;
		case '\n': e = 'n'; break;
		case '\r': e = 'r'; break;
		case '\0': e = '0'; break;
		case '\b': e = 'b'; break;
		case '\f': e = 'f'; break;
		}
		if (e) {
			b->p[b->len++] = '\\';
			b->p[b->len++] = e;
		} else {
			b->p[b->len++] = c;
		}
	}
	b->p[b->len] = 0;
}

static int is_hidden(const struct sinsp_evt *e)
{
	return (e->scap.dump_flags & SCAP_DF_STATE_ONLY) || e->filtered_out ||
	       (e->info && (e->info->category & EC_INTERNAL)) ||
	       e->scap.type == PPME_CONTAINER_JSON_E || e->scap.type == PPME_CONTAINER_JSON_2_E;
}

void ch_export_event(struct ch_export *x, struct sinsp *s, struct sinsp_evt *e)
{
	static char tmp[FIELD_STRBUF_SIZE];
	struct batch *b;

	if (is_hidden(e))
		return;
	if (!x->cur) {
		x->cur = calloc(1, sizeof(*x->cur));
		if (!x->cur) {
			pthread_mutex_lock(&x->lock);
			x->drops++;
			pthread_mutex_unlock(&x->lock);
			return;
		}
	}
	b = x->cur;
	if (!b->n)
		b->started = now_ns();
	put_tsv(&b->rows, x->host, strlen(x->host));
	for (size_t k = 0; k < NCOLUMNS; k++) {
		const struct column *col = &g_columns[k];
		int have = field_extract(s, e, &x->ref[k], x->val);

		sb_putc(&b->rows, '\t');
		if (col->kind == 's') {
			const char *t = have ? field_to_string(&x->ref[k], x->val, tmp, sizeof(tmp)) : "";

			put_tsv(&b->rows, t, strlen(t));
		} else if (col->kind == 'u') {
			sb_u64(&b->rows, have ? x->val->u : (uint64_t)col->missing);
		} else {
			sb_i64(&b->rows, have ? x->val->i : col->missing);
		}
	}
	sb_putc(&b->rows, '\n');
	b->n++;
	if (b->n >= x->batch_rows)
		submit(x);
}

void ch_export_tick(struct ch_export *x)
{
	if (x->cur && x->cur->n && now_ns() - x->cur->started >= BATCH_MAX_AGE_NS)
		submit(x);
}

void ch_export_counters(struct ch_export *x, uint64_t *rows, uint64_t *drops, uint64_t *failed)
{
	pthread_mutex_lock(&x->lock);
	*rows = x->rows;
	*drops = x->drops;
	*failed = x->failed;
	pthread_mutex_unlock(&x->lock);
}

/* ------------------------------------------------- start and finish */

static int is_name(const char *s, size_t n)
{
	if (!n)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
		      (s[i] >= '0' && s[i] <= '9') || s[i] == '_'))
			return 0;
	return 1;
}

/* clickhouse://HOST[:PORT]/DB.TABLE */
static int parse_url(struct ch_export *x, const char *url, char *err, size_t errlen)
{
	static const char scheme[] = "clickhouse://";
	const char *hp = url + sizeof(scheme) - 1, *slash, *dot;

	if (strncmp(url, scheme, sizeof(scheme) - 1) || !(slash = strchr(hp, '/')) ||
	    slash == hp || !(dot = strchr(slash + 1, '.')) || strchr(dot + 1, '.') ||
	    !is_name(slash + 1, (size_t)(dot - slash - 1)) || !is_name(dot + 1, strlen(dot + 1)) ||
	    memchr(hp, '@', (size_t)(slash - hp)) || slash - hp > 256) {
		snprintf(err, errlen, "--export: invalid URL '%s' (use clickhouse://HOST:PORT/DB.TABLE)",
			 url);
		return -1;
	}
	snprintf(x->db, sizeof(x->db), "%.*s", (int)(dot - slash - 1), slash + 1);
	snprintf(x->table, sizeof(x->table), "%s", dot + 1);
	/* a port after the host ("]:" for [v6]), else ClickHouse's 8123 */
	{
		const char *colon = memrchr(hp, ':', (size_t)(slash - hp));
		const char *rb = memchr(hp, ']', (size_t)(slash - hp));
		int has_port = colon && (!rb || colon > rb);

		snprintf(x->base, sizeof(x->base), "http://%.*s%s/", (int)(slash - hp), hp,
			 has_port ? "" : ":8123");
	}
	return 0;
}

static char *columns_list(int with_types)
{
	struct sbuf b = { 0 };

	sb_puts(&b, with_types ? "host String" : "host");
	for (size_t k = 0; k < NCOLUMNS; k++) {
		sb_printf(&b, ", %s", g_columns[k].name);
		if (with_types)
			sb_printf(&b, " %s", g_columns[k].type);
		if (with_types && !strcmp(g_columns[k].name, "ts"))
			sb_puts(&b, ", time DateTime DEFAULT toDateTime(intDiv(ts, 1000000000))");
	}
	return b.p;
}

static int create_table(struct ch_export *x, char *err, size_t errlen)
{
	char *typed = columns_list(1), *names = columns_list(0);
	struct sbuf sql = { 0 };
	char qerr[512] = "";
	int rc = -1;

	if (!typed || !names)
		goto out;
	sb_printf(&sql, "CREATE DATABASE IF NOT EXISTS %s", x->db);
	if (query(x, sql.p, qerr, sizeof(qerr)))
		goto fail;
	sb_reset(&sql);
	sb_printf(&sql, "CREATE TABLE IF NOT EXISTS %s.%s (%s) ENGINE = MergeTree() "
		  "PARTITION BY toYYYYMMDD(time) ORDER BY (host, ts)", x->db, x->table, typed);
	if (query(x, sql.p, qerr, sizeof(qerr)))
		goto fail;
	/* an older table of another shape fails here, not on every insert */
	sb_reset(&sql);
	sb_printf(&sql, "SELECT %s FROM %s.%s LIMIT 0", names, x->db, x->table);
	if (query(x, sql.p, qerr, sizeof(qerr)))
		goto fail;
	sb_reset(&sql);
	sb_printf(&sql, "INSERT INTO %s.%s (%s) FORMAT TabSeparated", x->db, x->table, names);
	{
		CURL *c = curl_easy_init();
		char *q = c ? curl_easy_escape(c, sql.p, (int)sql.len) : NULL;

		if (q && asprintf(&x->insert_url, "%s?query=%s", x->base, q) > 0)
			rc = 0;
		else
			snprintf(err, errlen, "--export: out of memory");
		curl_free(q);
		if (c)
			curl_easy_cleanup(c);
	}
	goto out;
fail:
	snprintf(err, errlen, "--export: ClickHouse at %s: %s", x->base, qerr);
out:
	free(typed);
	free(names);
	sb_free(&sql);
	return rc;
}

static void export_free(struct ch_export *x)
{
	if (x->cur) {
		sb_free(&x->cur->rows);
		free(x->cur);
	}
	for (size_t i = 0; i < x->nspare; i++) {
		sb_free(&x->spare[i]->rows);
		free(x->spare[i]);
	}
	free(x->spare);
	free(x->queue);
	free(x->insert_url);
	free(x->val);
	pthread_mutex_destroy(&x->lock);
	pthread_cond_destroy(&x->wake);
	free(x);
}

struct ch_export *ch_export_start(const struct fleet_opts *fo, char *err, size_t errlen)
{
	struct ch_export *x = calloc(1, sizeof(*x));

	if (!x) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	pthread_mutex_init(&x->lock, NULL);
	pthread_cond_init(&x->wake, NULL);
	x->host = fleet_hostname(fo);
	x->batch_rows = fo->export_batch ? fo->export_batch : DEFAULT_BATCH_ROWS;
	x->qmax = fo->export_queue ? fo->export_queue : DEFAULT_QUEUE;
	x->queue = calloc(x->qmax, sizeof(*x->queue));
	x->spare = calloc(x->qmax + 2, sizeof(*x->spare));
	x->val = calloc(1, sizeof(*x->val));
	if (!x->queue || !x->spare || !x->val) {
		snprintf(err, errlen, "--export-queue: out of memory");
		goto fail;
	}
	for (size_t k = 0; k < NCOLUMNS; k++) {
		char ferr[128];

		if (field_parse(g_columns[k].field, &x->ref[k], ferr, sizeof(ferr)) !=
		    (int)strlen(g_columns[k].field)) {
			snprintf(err, errlen, "--export: field %s unknown", g_columns[k].field);
			goto fail;
		}
	}
	if (parse_url(x, fo->export_url, err, errlen))
		goto fail;
	curl_global_init(CURL_GLOBAL_DEFAULT);
	if (create_table(x, err, errlen))
		goto fail;
	if (pthread_create(&x->sender, NULL, sender_main, x)) {
		snprintf(err, errlen, "--export: cannot start the sender thread");
		goto fail;
	}
	x->sender_running = 1;
	return x;
fail:
	export_free(x);
	return NULL;
}

int ch_export_finish(struct ch_export *x, uint64_t totals[3])
{
	int rc;

	if (!x)
		return 0;
	submit(x);
	pthread_mutex_lock(&x->lock);
	x->finishing = 1;
	pthread_cond_signal(&x->wake);
	pthread_mutex_unlock(&x->lock);
	if (x->sender_running) {
		/* a hung sink must not hang the exit: after the wait, what is
		 * left counts as failed */
		for (int ms = 0; ms < FINISH_WAIT_MS && !__atomic_load_n(&x->sender_done, __ATOMIC_ACQUIRE);
		     ms += 20)
			usleep(20000);
		__atomic_store_n(&x->abort, 1, __ATOMIC_RELAXED);
		pthread_join(x->sender, NULL);
	}
	if (totals) {
		totals[0] = x->rows;
		totals[1] = x->drops;
		totals[2] = x->failed;
	}
	fprintf(stderr, "export: %llu rows written to %s.%s, %llu dropped (queue full), %llu failed\n",
		(unsigned long long)x->rows, x->db, x->table, (unsigned long long)x->drops,
		(unsigned long long)x->failed);
	if (x->failed)
		fprintf(stderr, "export: last error: %s\n", x->last_error);
	rc = x->failed ? 1 : 0;
	export_free(x);
	curl_global_cleanup();
	return rc;
}
