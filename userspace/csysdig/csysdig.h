/*
 * csysdig.h - shared state of csysdig: options (main.c), the capture and
 * the view stack (app.c), the ncurses front end (ui.c, ui_text.c).
 */
#ifndef CSYSDIG_H
#define CSYSDIG_H

#include <stdint.h>
#include <stdio.h>
#include "format.h"
#include "sinsp.h"
#include "table.h"
#include "view.h"

#define CSYSDIG_VERSION "0.29.3"
#define MAX_INPUTS 64
#define MAX_DEPTH 32

struct opts {
	struct render_opts render;	/* -A -X, F2 in the text view: given to the sinsp */
	const char *inputs[MAX_INPUTS];	/* -r, read one after the other */
	int ninputs;
	uint64_t delay_ms;		/* -d */
	const char *view_id;		/* -v */
	int raw;			/* --raw */
	int print_containers;		/* -pc */
	uint32_t snaplen;		/* -s */
	uint64_t max_events;		/* -n, 0: none */
	int driver;			/* enum scap_live_driver (-B: bpf) */
	const char *logfile;		/* --logfile */
	int term_compat;		/* --force-term-compat */
	char *filter;			/* trailing words */
};

/* one level of the drill-down stack */
struct level {
	struct view *view;
	char *field, *value;	/* the selection that led below (NULL at the top) */
	char *view_filter;	/* the filter of the view the selection was made in */
	int selected;		/* row selected when leaving */
	int sort_col, sort_ascending;
	char *manual_filter;
	int manual_is_sysdig;
};

enum text_mode { TEXT_NONE, TEXT_ECHO, TEXT_DIG };

struct app {
	struct opts o;
	struct view_set views;
	struct level stack[MAX_DEPTH];
	int depth;		/* stack[depth] is the current view */
	struct table table;
	int have_table;
	struct sinsp *s;
	int input;		/* index of the -r file being read */
	int eof;		/* end of the inputs reached (files) */
	uint64_t first_ts, last_ts, nevents;
	struct sinsp_evt evt;
	int have_evt;
	char manual_filter[512];	/* F4: free text or a sysdig filter */
	int manual_is_sysdig;
	int paused;
	/* F5/F6 text windows */
	enum text_mode text;
	struct filter *text_filter;
	struct formatter *text_fmt;
	char **lines;
	size_t nlines, lines_cap;
	uint64_t lines_dropped;
	FILE *log;
	char err[1024];
};

/* app.c */
struct view *app_view(struct app *a);
/* (re)start the capture for the current view; 0 or -1 with a->err */
int app_start(struct app *a);
/* one step: read and process up to n events; returns 1 when a sample ended
 * (the table has new data), 0 otherwise, -1 on error (a->err), 2 at the end
 * of the input files */
int app_step(struct app *a, int n);
uint64_t app_time_delta(struct app *a);
/* 1 when the current view is a spectrogram shown on the screen */
int app_spectro_replay(struct app *a);
/* drill down into the row's key; 0, or -1 when no view applies */
int app_drilldown(struct app *a, const struct row *r);
/* the same into a given view (F12: the spectrogram of the selection) */
int app_drilldown_into(struct app *a, const struct row *r, struct view *v);
int app_drillup(struct app *a);
int app_switch_view(struct app *a, struct view *v);
/* the filter of the current view as the table runs it */
char *app_complete_filter(struct app *a, int with_view);
/* "proc.pid=338 and ..." of the selections, "" at the top */
char *app_selection_text(struct app *a);
void app_close(struct app *a);
void app_log(struct app *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* F5/F6: start the text window on the selection (row r, NULL: everything) */
int app_text_start(struct app *a, enum text_mode mode, const struct row *r);
void app_text_stop(struct app *a);

/* ui.c: the interactive front end; returns the exit status */
int ui_run(struct app *a);
/* 1 when the terminal can show the interface (it can address the cursor) */
int ui_terminal_usable(void);
/* restore the terminal (signal handlers, atexit) */
void ui_restore_terminal(void);

#endif
