/*
 * table.h - the csysdig data table: the rows of a view built from events.
 *
 * A table view keeps one row per value of its key column, each column
 * folded with its aggregation (SUM, AVG, TIME_AVG, MIN, MAX or first value).
 * A groupby key merges those rows a second time at the end of a sample with
 * the columns' groupby_aggregation (e.g. threads -> processes).  A list view
 * keeps one row per event.  At the end of a sample every thread of the
 * thread table is passed once more as a synthetic event (so idle processes
 * show up with zeroes when the view uses defaults).  Values are printed as
 * the reference's csysdig does (K/M/G byte units, times as 1.23ms, rates
 * per second over the sample for TIME_AVG).
 */
#ifndef CSYSDIG_TABLE_H
#define CSYSDIG_TABLE_H

#include <stdint.h>
#include <stdio.h>
#include "fields.h"
#include "filter.h"
#include "stl_hash.h"
#include "view.h"

#define TABLE_VALUE_WIDTH 10

struct cell {
	union {
		int64_t i;
		uint64_t u;
		double d;
	};
	char *s;		/* strings (owned), NULL for numbers */
	uint32_t len;		/* bytes of s, or of the number */
	uint32_t cnt;		/* values folded in (0: a default) */
};

struct row {
	struct stl_hash_node node;	/* first: the rows in the reference's order */
	struct cell key;
	struct cell *vals;	/* ncols - 1 */
};

/* the rows of a sample as the reference keeps them: in a std::unordered_map
 * (its iteration order is the order of rows tied on the sort column), or
 * for list views in arrival order */
struct rowmap {
	struct stl_hash h;	/* keyed views */
	struct row **order;	/* every row (storage), in insertion order */
	size_t n, cap;
};

struct table_col {
	struct field_ref ref;
	const struct view_column *vc;
	uint8_t type;		/* PT_* */
	int pf_id;		/* printed as an id (no K/M units) */
	enum aggr aggr, merge_aggr;
	int screen_rate;	/* divided by the time on the screen (see table_init) */
};

struct table {
	struct sinsp *s;
	int is_list;
	int use_defaults;
	struct filter *filter;
	struct table_col *cols;	/* premerge: [0] is the key */
	size_t ncols;
	size_t *gcols;		/* merge: premerge column of each merged column, [0] groupby key */
	size_t ngcols;
	int merging;
	struct field_value *vbuf;	/* one per column */
	struct cell *tmp;	/* extracted row */
	uint8_t *unused;	/* per column: value_unused() (table.c) */
	struct rowmap pre, merged;
	struct row **sample;	/* rows of the last sample (sorted) */
	size_t nsample;
	int sort_col;		/* index in the printed values, -1: none */
	int sort_ascending;
	char freetext[256];	/* F4 free-text filter over the rows */
	uint64_t next_flush_ns, prev_flush_ns;
	uint64_t refresh_ns;
	int paused;
	size_t max_list_rows;	/* live list views keep at most this many rows (0: all) */
};

/* depth: drill-down depth (for %depth in fields and filters).  filter: the
 * complete filter (view filter and drill-down selection), NULL for none. */
int table_init(struct table *t, struct sinsp *s, const struct view *v, int print_containers,
	       const char *filter, unsigned depth, char *err, size_t errlen);
void table_free(struct table *t);
void table_process(struct table *t, struct sinsp_evt *e);
/* end of a sample at the time of e (the last event) */
void table_flush(struct table *t, struct sinsp_evt *e);
/* the printed columns (merged if the view merges) */
size_t table_nvals(const struct table *t);
const struct table_col *table_val_col(const struct table *t, size_t j);
const struct table_col *table_key_col(const struct table *t);
/* table_format as the interactive screen shows the value */
const char *table_format_screen(const struct table *t, const struct row *r, size_t j,
				uint64_t time_delta, int width, char *buf, size_t buflen);
/* column j holds numbers (printed right-aligned) */
int table_col_is_number(const struct table *t, size_t j);
/* the value printed for row r, column j (time_delta for TIME_AVG), into buf */
const char *table_format(const struct table *t, const struct row *r, size_t j,
			 uint64_t time_delta, int width, char *buf, size_t buflen);
/* the key of a row as filter text ("338", "/etc/passwd") */
const char *table_key_string(const struct table *t, const struct row *r, char *buf, size_t buflen);
/* nanoseconds as the time columns show them ("1.00us", "10ms", "1.00s") */
void table_format_time(uint64_t ns, char *buf, size_t n);
/* raw output of the last sample: rows, then a line of dashes */
void table_print_raw(const struct table *t, FILE *out, uint64_t time_delta);
/* sorting: printed column j; toggles the direction when already sorted by j */
void table_set_sort(struct table *t, int j);
void table_sort(struct table *t);

#endif
