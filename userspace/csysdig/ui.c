#define _GNU_SOURCE
/*
 * ui.c - the ncurses front end of csysdig: the table of the current view,
 * its header and the function-key bar, and the pages and menus on top of it
 * (F1 help, F2 views, F7 view info, F8 actions, F9 sort, F4 filter, / search,
 * F5/F6 text windows in ui_text.c).  Screens are redrawn with erase() and
 * refresh(): ncurses sends only the cells that changed.
 */
#include <ctype.h>
#include <inttypes.h>
#include <stdarg.h>
#include <curses.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "csysdig.h"
#include "ui.h"
#include <term.h>	/* last: its macros (lines, columns...) clash with names above */

static int g_curses_on;
static SCREEN *g_screen;
static volatile sig_atomic_t g_quit_signal;

void ui_restore_terminal(void)
{
	if (g_curses_on) {
		g_curses_on = 0;
		printf("\033[?1000l\033[?1002l");	/* mouse reporting off */
		fflush(stdout);
		endwin();
		delscreen(g_screen);
		g_screen = NULL;
	}
}

static void on_quit_signal(int sig)
{
	g_quit_signal = sig;
}

static void on_fatal_signal(int sig)
{
	ui_restore_terminal();
	signal(sig, SIG_DFL);
	raise(sig);
}

int ui_terminal_usable(void)
{
	int err = 0;
	char *cup;

	int ok;

	if (setupterm(NULL, STDOUT_FILENO, &err) != OK)
		return 0;
	cup = tigetstr("cup");
	ok = cup && cup != (char *)-1;
	del_curterm(cur_term);
	return ok;
}


static void init_colors(void)
{
	if (!has_colors())
		return;
	start_color();
	use_default_colors();
	init_pair(CP_HEADER, COLOR_BLACK, COLOR_GREEN);
	init_pair(CP_SELECTED, COLOR_BLACK, COLOR_CYAN);
	init_pair(CP_FKEY, COLOR_WHITE, -1);
	init_pair(CP_FDESC, COLOR_BLACK, COLOR_CYAN);
	init_pair(CP_INFO, COLOR_CYAN, -1);
	init_pair(CP_ERROR, COLOR_WHITE, COLOR_RED);
	init_pair(CP_MENU, COLOR_WHITE, COLOR_BLUE);
	init_pair(CP_MENUSEL, COLOR_BLACK, COLOR_CYAN);
}

int ui_start_curses(struct ui *u)
{
	if (u->a->o.term_compat)
		setenv("TERM", "xterm-1002", 1);
	if (!(g_screen = newterm(NULL, stdout, stdin))) {
		fprintf(stderr, "cannot use the terminal (TERM=%s); try --raw or TERM=xterm\n",
			getenv("TERM") ? getenv("TERM") : "");
		return -1;
	}
	g_curses_on = 1;
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	curs_set(0);
	set_escdelay(25);
	mousemask(BUTTON1_CLICKED | BUTTON1_DOUBLE_CLICKED | BUTTON1_PRESSED | BUTTON1_RELEASED, NULL);
	mouseinterval(300);
	init_colors();
	field_set_quantize_width(COLS);	/* spectrogram buckets */
	return 0;
}

void ui_stop_curses(void)
{
	ui_restore_terminal();
}

/* ---- drawing helpers ---- */

void ui_put(int y, int x, int w, const char *s, int attr)
{
	int n = 0;

	if (y < 0 || y >= LINES || x >= COLS)
		return;
	if (w < 0 || x + w > COLS)
		w = COLS - x;
	attron(attr);
	move(y, x);
	for (; s && *s && n < w; s++, n++)
		addch((unsigned char)(isprint((unsigned char)*s) ? *s : '.'));
	for (; n < w; n++)
		addch(' ');
	attroff(attr);
}

static const char *view_title(struct ui *u, char *buf, size_t n)
{
	char *sel = app_selection_text(u->a);

	snprintf(buf, n, "Viewing: %s For: %s", app_view(u->a)->name, *sel ? sel : "whole machine");
	free(sel);
	return buf;
}

/* the filter the header shows, as the reference shows it: the view's
 * (evt.type!=switch for a view without one) after the others */
static char *header_filter(struct app *a)
{
	char *f;

	if (a->manual_is_sysdig && a->manual_filter[0])
		return strdup(a->manual_filter);
	f = app_complete_filter(a, 0);
	const char *vf = app_view(a)->filter ? app_view(a)->filter : "evt.type!=switch";
	char *r;

	if (!*f)
		r = strdup(vf);
	else if (asprintf(&r, "(%s) and (%s)", f, vf) < 0)
		r = NULL;
	free(f);
	return r;
}

static void draw_header(struct ui *u)
{
	struct app *a = u->a;
	char buf[2048], src[1024];
	char *f = header_filter(a);

	ui_put(0, 0, -1, view_title(u, buf, sizeof(buf)), COLOR_PAIR(CP_INFO) | A_BOLD);
	if (a->o.ninputs) {
		double p = a->s && a->s->scap->ops->progress ? a->s->scap->ops->progress(a->s->scap) : -1;

		if (a->eof || p < 0)
			snprintf(src, sizeof(src), "Source: %s (%" PRIu64 " evts, %.2fs)", a->o.inputs[a->input],
				 a->nevents, (double)(a->last_ts - a->first_ts) / 1e9);
		else
			snprintf(src, sizeof(src), "Source: %s (reading %.0f%%)", a->o.inputs[a->input], p * 100);
	} else {
		snprintf(src, sizeof(src), "Source: Live System%s", a->paused ? " (paused)" : "");
	}
	snprintf(buf, sizeof(buf), "%s Filter: %s", src, f ? f : "");
	free(f);
	ui_put(1, 0, -1, buf, COLOR_PAIR(CP_INFO));
}

static const struct fkey g_fkeys_table[] = {
	{ "F1", "Help  ", KEY_F(1) }, { "F2", "Views ", KEY_F(2) }, { "F4", "Filter", KEY_F(4) },
	{ "F5", "Echo  ", KEY_F(5) }, { "F6", "Dig   ", KEY_F(6) }, { "F7", "Legend", KEY_F(7) },
	{ "F8", "Actions", KEY_F(8) }, { "F9", "Sort  ", KEY_F(9) }, { "F12", "Spectro", KEY_F(12) },
	{ "CTRL+F", "Search", 6 }, { "p ", "Pause ", 'p' }, { 0, 0, 0 },
};

void ui_draw_fkeys(struct ui *u, const struct fkey *keys)
{
	int x = 0;

	u->nfkey_zones = 0;
	move(LINES - 1, 0);
	clrtoeol();
	for (const struct fkey *k = keys; k->key && x < COLS; k++) {
		int x0 = x;

		ui_put(LINES - 1, x, (int)strlen(k->key), k->key, COLOR_PAIR(CP_FKEY) | A_BOLD);
		x += (int)strlen(k->key);
		ui_put(LINES - 1, x, (int)strlen(k->desc), k->desc, COLOR_PAIR(CP_FDESC));
		x += (int)strlen(k->desc);
		if (u->nfkey_zones < (int)(sizeof(u->fkey_zones) / sizeof(u->fkey_zones[0]))) {
			u->fkey_zones[u->nfkey_zones].x0 = x0;
			u->fkey_zones[u->nfkey_zones].x1 = x - 1;
			u->fkey_zones[u->nfkey_zones].ch = k->ch;
			u->nfkey_zones++;
		}
	}
}

/* width of printed column j on screen, the separating blank included */
static int col_width(struct ui *u, size_t j, int x)
{
	const struct table_col *c = table_val_col(&u->a->table, j);
	int w = c->vc && c->vc->colsize > 0 ? c->vc->colsize : 0;

	if (j + 1 == table_nvals(&u->a->table) || w == 0)
		return COLS - x > 0 ? COLS - x : 0;
	return w;
}

/* rows shown: the sample, without the rows the free-text filter drops */
static int row_matches(struct ui *u, const struct row *r, const char *text)
{
	struct table *t = &u->a->table;
	char buf[4096];

	for (size_t j = 0; j < table_nvals(t); j++) {
		const char *s = table_format_screen(t, r, j, app_time_delta(u->a), 0, buf, sizeof(buf));

		if (strstr(s, text))
			return 1;
	}
	return 0;
}

void ui_rebuild_rows(struct ui *u)
{
	struct table *t = &u->a->table;
	const char *text = !u->a->manual_is_sysdig ? u->a->manual_filter : "";

	free(u->rows);
	u->rows = malloc((t->nsample + 1) * sizeof(*u->rows));
	u->nrows = 0;
	for (size_t i = 0; i < t->nsample; i++)
		if (!*text || row_matches(u, t->sample[i], text))
			u->rows[u->nrows++] = t->sample[i];
	if (u->sel >= u->nrows)
		u->sel = u->nrows ? u->nrows - 1 : 0;
}

static int table_height(void)
{
	return LINES > 3 ? LINES - 3 : 0;
}

/* cell text of column j in width w: numbers right-aligned before a blank */
static void put_cell(struct ui *u, int y, int x, int w, size_t j, const char *s, int attr)
{
	char buf[4096];

	if (table_col_is_number(&u->a->table, j) && w > 1) {
		snprintf(buf, sizeof(buf), "%*.*s ", w - 1, w - 1, s);
		s = buf;
	}
	ui_put(y, x, w, s, attr);
}

static void draw_table(struct ui *u)
{
	struct table *t = &u->a->table;
	int h = table_height(), x = 0;
	char buf[4096];

	move(2, 0);
	attron(COLOR_PAIR(CP_HEADER));
	for (int i = 0; i < COLS; i++)
		addch(' ');
	attroff(COLOR_PAIR(CP_HEADER));
	for (size_t j = 0; j < table_nvals(t) && x < COLS; j++) {
		const struct table_col *c = table_val_col(t, j);
		int w = col_width(u, j, x);
		char name[256];

		snprintf(name, sizeof(name), "%s", c->vc ? c->vc->name : c->ref.name);
		put_cell(u, 2, x, w, j, name, COLOR_PAIR((int)j == t->sort_col ? CP_SELECTED : CP_HEADER));
		u->col_x[j < UI_MAX_COLS ? j : UI_MAX_COLS - 1] = x;
		x += w;
	}
	if (u->sel < u->top)
		u->top = u->sel;
	if (h && u->sel >= u->top + h)
		u->top = u->sel - h + 1;
	for (int i = 0; i < h; i++) {
		int r = u->top + i, y = 3 + i;

		move(y, 0);
		clrtoeol();
		if (r >= u->nrows)
			continue;
		x = 0;
		int attr = r == u->sel ? COLOR_PAIR(CP_SELECTED) : 0;

		if (attr)
			ui_put(y, 0, -1, "", attr);
		for (size_t j = 0; j < table_nvals(t) && x < COLS; j++) {
			int w = col_width(u, j, x);
			const char *s = table_format_screen(t, u->rows[r], j, app_time_delta(u->a),
						     table_col_is_number(t, j) ? w - 1 : 0, buf, sizeof(buf));

			put_cell(u, y, x, w, j, s, attr);
			x += w;
		}
	}
	if (u->a->eof && u->nrows == 0 && h > 1)
		ui_put(4, 2, -1, "No data for the current view.", A_BOLD);
}

/* "row/rows(percent)" at the right of the bottom line, on 18 cleared
 * cells, none for an empty table (as the reference) */
static void draw_counter(struct ui *u)
{
	char b[128];

	if (!u->nrows)
		return;
	ui_put(LINES - 1, COLS - 18, 18, "", 0);
	snprintf(b, sizeof(b), "%d/%d(%.1f%%)", u->nrows ? u->sel + 1 : 0, u->nrows,
		 u->nrows ? 100.0 * (u->sel + 1) / u->nrows : 0.0);
	ui_put(LINES - 1, COLS - (int)strlen(b), (int)strlen(b), b, 0);
}

static void draw_status(struct ui *u)
{
	if (u->msg[0])
		ui_put(LINES - 2, 0, -1, u->msg, COLOR_PAIR(CP_ERROR));
	else
		draw_counter(u);
}

static void draw_filter_bar(struct ui *u);

void ui_draw(struct ui *u)
{
	erase();
	if (LINES < 5 || COLS < 20) {
		ui_put(0, 0, -1, "terminal too small", A_BOLD);
		refresh();
		return;
	}
	if (u->a->text != TEXT_NONE) {
		ui_text_draw(u);
		refresh();
		return;
	}
	if (app_spectro_replay(u->a) && u->mode == UI_TABLE) {
		ui_spectro_draw(u);
		refresh();
		return;
	}
	draw_header(u);
	draw_table(u);
	ui_draw_fkeys(u, g_fkeys_table);
	draw_status(u);
	switch (u->mode) {
	case UI_VIEWS: ui_menu_draw_views(u); break;
	case UI_SORT: ui_menu_draw_sort(u); break;
	case UI_ACTIONS: ui_menu_draw_actions(u); break;
	case UI_HELP: ui_page_draw_help(u); break;
	case UI_VIEWINFO: ui_page_draw_viewinfo(u, app_view(u->a)); break;
	case UI_PROMPT: draw_filter_bar(u); break;
	default: break;
	}
	curs_set(u->mode == UI_PROMPT);
	refresh();
}

void ui_message(struct ui *u, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(u->msg, sizeof(u->msg), fmt, ap);
	va_end(ap);
}

/* ---- actions on the table ---- */

void ui_restart_failed(struct ui *u)
{
	ui_message(u, "%s", u->a->err);
}

const struct row *ui_selected_row(struct ui *u)
{
	return u->nrows && u->sel < u->nrows ? u->rows[u->sel] : NULL;
}

static void drilldown(struct ui *u)
{
	const struct row *r = ui_selected_row(u);

	if (!r) {
		app_log(u->a, "drill-down: no row selected");
		return;
	}
	u->a->stack[u->a->depth].selected = u->sel;
	if (app_drilldown(u->a, r) < 0) {
		if (u->a->err[0])
			ui_restart_failed(u);
		else
			ui_message(u, "no view to drill down into from %s", app_view(u->a)->name);
		u->a->err[0] = 0;
		return;
	}
	u->sel = u->top = 0;
	u->nrows = 0;
}

static void drillup(struct ui *u)
{
	int prev_sel = u->a->depth > 0 ? u->a->stack[u->a->depth - 1].selected : 0;
	int rc = app_drillup(u->a);

	if (rc < 0)
		ui_restart_failed(u);
	if (rc == 0) {
		u->sel = prev_sel;
		u->top = 0;
		u->nrows = 0;
	}
}

int ui_set_view(struct ui *u, struct view *v)
{
	struct view *old = app_view(u->a);

	if (app_switch_view(u->a, v) < 0) {
		char e[sizeof(u->a->err)];

		memcpy(e, u->a->err, sizeof(e));
		app_switch_view(u->a, old);
		ui_message(u, "%s", e);
		return -1;
	}
	u->sel = u->top = 0;
	u->nrows = 0;
	return 0;
}

static void search_next(struct ui *u, int from)
{
	for (int k = 0; k < u->nrows; k++) {
		int r = (from + k) % u->nrows;

		if (row_matches(u, u->rows[r], u->search)) {
			u->sel = r;
			return;
		}
	}
	ui_message(u, "not found: %s", u->search);
}

/* F4 as the reference's: free text matched against the rows, updated as
 * it is typed, or (F2 in the prompt) a sysdig filter that replaces the
 * whole filter once Enter finds it valid (the capture restarts) */
static void apply_text_filter(struct ui *u, const char *text)
{
	snprintf(u->a->manual_filter, sizeof(u->a->manual_filter), "%s", text);
	ui_rebuild_rows(u);
}

static int apply_sysdig_filter(struct ui *u, const char *text)
{
	struct app *a = u->a;
	char err[256];
	struct filter *f = *text ? filter_compile(text, err, sizeof(err)) : NULL;

	if (*text && !f)
		return -1;
	if (f)
		filter_free(f);
	if (!*text)
		return 0;	/* as Esc: the filter stays */
	snprintf(a->manual_filter, sizeof(a->manual_filter), "%s", text);
	if (app_start(a) < 0) {
		ui_restart_failed(u);
		a->manual_filter[0] = 0;
		app_start(a);
	}
	u->sel = u->top = 0;
	u->nrows = 0;
	return 0;
}

/* the prompt's first text: the text filter, or the filter to edit */
static void filter_prompt_start(struct ui *u)
{
	struct app *a = u->a;
	char *f = a->manual_is_sysdig ? header_filter(a) : NULL;

	ui_prompt_start(u, PROMPT_FILTER, a->manual_is_sysdig ? "Expression: " : "Text to match: ",
			f ? f : a->manual_filter);
	free(f);
	u->prompt_invalid = 0;
	u->prompt_counter = 0;
}

/* the filter prompt's keys; returns 1 */
static int filter_prompt_key(struct ui *u, int ch)
{
	struct app *a = u->a;
	size_t n = strlen(u->prompt_buf);

	u->prompt_invalid = 0;
	switch (ch) {
	case KEY_F(2):
		if (!a->manual_is_sysdig)
			apply_text_filter(u, "");
		a->manual_is_sysdig = !a->manual_is_sysdig;
		filter_prompt_start(u);
		return 1;
	case 27:
		u->mode = UI_TABLE;
		if (!a->manual_is_sysdig)
			apply_text_filter(u, "");
		return 1;
	case '\n': case '\r': case KEY_ENTER: case KEY_F(4): case 6:
		if (!a->manual_is_sysdig) {
			u->mode = UI_TABLE;
			return 1;
		}
		if (apply_sysdig_filter(u, u->prompt_buf) < 0)
			u->prompt_invalid = 1;
		else
			u->mode = UI_TABLE;
		return 1;
	case KEY_BACKSPACE: case 127: case 8:
		if (n)
			u->prompt_buf[n - 1] = 0;
		break;
	default:
		if (ch < 32 || ch > 126 || n + 1 >= sizeof(u->prompt_buf))
			return 1;
		u->prompt_buf[n] = (char)ch;
		u->prompt_buf[n + 1] = 0;
		break;
	}
	if (!a->manual_is_sysdig) {
		apply_text_filter(u, u->prompt_buf);
		u->prompt_counter = 1;
	}
	return 1;
}

/* the bottom line while the filter or search prompt is open, as the
 * reference draws it */
static void draw_filter_bar(struct ui *u)
{
	static const struct fkey filter_keys[] = {
		{ "F1", "Help  ", KEY_F(1) }, { "F2", "sysdig", KEY_F(2) }, { "Enter", "Done  ", '\n' },
		{ "Esc", "Clear ", 27 }, { 0, 0, 0 },
	};
	struct fkey keys[5];
	int x = 0, fdesc = COLOR_PAIR(CP_FDESC);
	size_t k = 0;

	for (const struct fkey *f = filter_keys; f->key; f++)
		if (u->prompt_kind == PROMPT_FILTER || f->ch != KEY_F(2))
			keys[k++] = *f;
	if (u->prompt_kind == PROMPT_FILTER && u->a->manual_is_sysdig)
		keys[1].desc = "Text  ";
	keys[k].key = NULL;
	ui_draw_fkeys(u, keys);
	for (size_t i = 0; i < k; i++)
		x += (int)(strlen(keys[i].key) + strlen(keys[i].desc));
	x++;
	ui_put(LINES - 1, x, -1, "", fdesc);
	ui_put(LINES - 1, x, (int)strlen(u->prompt_label), u->prompt_label, fdesc);
	x += (int)strlen(u->prompt_label);
	ui_put(LINES - 1, x, -1, u->prompt_buf, fdesc);
	if (u->prompt_counter)	/* the reference's row counter, once the rows changed */
		draw_counter(u);
	if (u->prompt_invalid) {
		static const char msg[] = "Invalid sysdig filter";

		ui_put(LINES / 2, COLS / 2 - (int)(sizeof(msg) - 1) / 2, (int)sizeof(msg) - 1, msg,
		       COLOR_PAIR(CP_ERROR));
	}
	move(LINES - 1, x + (int)strlen(u->prompt_buf));
}

static void prompt_done(struct ui *u, int ok)
{
	char text[sizeof(u->prompt_buf)];

	snprintf(text, sizeof(text), "%s", u->prompt_buf);
	u->mode = UI_TABLE;
	if (!ok)
		return;
	switch (u->prompt_kind) {
	case PROMPT_SEARCH:
		snprintf(u->search, sizeof(u->search), "%s", text);
		if (*text)
			search_next(u, u->sel);
		break;
	default:
		break;
	}
}

void ui_prompt_start(struct ui *u, enum prompt_kind kind, const char *label, const char *init)
{
	u->mode = UI_PROMPT;
	u->prompt_kind = kind;
	snprintf(u->prompt_label, sizeof(u->prompt_label), "%s", label);
	snprintf(u->prompt_buf, sizeof(u->prompt_buf), "%s", init ? init : "");
}

void ui_prompt_draw(struct ui *u)
{
	char b[1200];

	snprintf(b, sizeof(b), "%s%s_", u->prompt_label, u->prompt_buf);
	ui_put(LINES - 2, 0, -1, b, COLOR_PAIR(CP_MENU) | A_BOLD);
}

/* 1 when the key was a prompt key */
int ui_prompt_key(struct ui *u, int ch)
{
	size_t n = strlen(u->prompt_buf);

	if (u->prompt_kind == PROMPT_FILTER)
		return filter_prompt_key(u, ch);

	switch (ch) {
	case 27:
		prompt_done(u, 0);
		return 1;
	case '\n': case '\r': case KEY_ENTER:
		prompt_done(u, 1);
		return 1;
	case KEY_BACKSPACE: case 127: case 8:
		if (n)
			u->prompt_buf[n - 1] = 0;
		return 1;
	default:
		if (ch >= 32 && ch < 127 && n + 1 < sizeof(u->prompt_buf)) {
			u->prompt_buf[n] = (char)ch;
			u->prompt_buf[n + 1] = 0;
		}
		return 1;
	}
}

static void sort_by(struct ui *u, int j)
{
	table_set_sort(&u->a->table, j);
	table_sort(&u->a->table);
	ui_rebuild_rows(u);
}

static int header_column(struct ui *u, int x)
{
	int n = (int)table_nvals(&u->a->table);

	for (int j = n - 1; j >= 0; j--)
		if (j < UI_MAX_COLS && x >= u->col_x[j])
			return j;
	return -1;
}

static int mouse_key(struct ui *u, int *ch)
{
	MEVENT me;

	if (getmouse(&me) != OK)
		return 0;
	if (me.y == (app_spectro_replay(u->a) ? LINES - 2 : LINES - 1)) {
		for (int i = 0; i < u->nfkey_zones; i++)
			if (me.x >= u->fkey_zones[i].x0 && me.x <= u->fkey_zones[i].x1) {
				*ch = u->fkey_zones[i].ch;
				return 1;
			}
		return 0;
	}
	if (u->mode != UI_TABLE || u->a->text != TEXT_NONE)
		return 0;
	if (me.y == 2 && (me.bstate & (BUTTON1_CLICKED | BUTTON1_PRESSED))) {
		int j = header_column(u, me.x);

		if (j >= 0)
			sort_by(u, j);
		return 0;
	}
	if (me.y >= 3 && me.y < 3 + table_height()) {
		int r = u->top + me.y - 3;

		if (r < u->nrows) {
			u->sel = r;
			if (me.bstate & BUTTON1_DOUBLE_CLICKED)
				drilldown(u);
		}
	}
	return 0;
}

static void move_sel(struct ui *u, int delta)
{
	int s = u->sel + delta;

	if (s >= u->nrows)
		s = u->nrows - 1;
	if (s < 0)
		s = 0;
	u->sel = s;
}

static void start_text(struct ui *u, enum text_mode m)
{
	if (app_text_start(u->a, m, ui_selected_row(u)) < 0) {
		ui_restart_failed(u);
		app_text_stop(u->a);
		app_start(u->a);
		return;
	}
	u->text_top = 0;
	u->text_follow = 1;
}

/* returns 1 to quit */
static int table_key(struct ui *u, int ch)
{
	struct app *a = u->a;

	switch (ch) {
	case 'q': case KEY_F(10):
		return 1;
	case KEY_UP: move_sel(u, -1); break;
	case KEY_DOWN: move_sel(u, 1); break;
	case KEY_PPAGE: move_sel(u, -table_height()); break;
	case KEY_NPAGE: move_sel(u, table_height()); break;
	case KEY_HOME: u->sel = 0; break;
	case KEY_END: move_sel(u, u->nrows); break;
	case '\n': case '\r': case KEY_ENTER: drilldown(u); break;
	case KEY_BACKSPACE: case 127: case 8: drillup(u); break;
	case KEY_F(1): case 'h': case '?': u->mode = UI_HELP; break;
	case KEY_F(2): ui_menu_open_views(u); break;
	case KEY_F(4): case '\\':
		filter_prompt_start(u);
		break;
	case '/': case 6:
		ui_prompt_start(u, PROMPT_SEARCH, "Text to match: ", u->search);
		break;
	case 'n': case KEY_F(3):
		if (u->search[0])
			search_next(u, u->sel + 1);
		break;
	case KEY_F(5): case 'e': start_text(u, TEXT_ECHO); break;
	case KEY_F(6): case 'd': start_text(u, TEXT_DIG); break;
	case KEY_F(7): case 'l': u->mode = UI_VIEWINFO; break;
	case KEY_F(8): ui_menu_open_actions(u); break;
	case KEY_F(9): case '>': ui_menu_open_sort(u); break;
	case KEY_F(12): ui_spectro_selection(u); break;
	case 'p':
		a->paused = !a->paused;
		a->table.paused = a->paused;
		break;
	case KEY_DC: case 'c':
		if (a->manual_filter[0] && a->manual_is_sysdig) {
			a->manual_filter[0] = 0;
			if (app_start(a) < 0)
				ui_restart_failed(u);
			u->sel = u->top = 0;
			u->nrows = 0;
		} else if (a->manual_filter[0]) {
			apply_text_filter(u, "");
		}
		break;
	default: {
		static const char shifted[] = "!@#$%^&*(";
		const char *p = ch > 0 && ch < 256 ? strchr(shifted, ch) : NULL;

		if (p)
			sort_by(u, (int)(p - shifted));
		break;
	}
	}
	return 0;
}

/* returns 1 to quit */
static int handle_key(struct ui *u, int ch)
{
	if (ch == KEY_RESIZE) {
		field_set_quantize_width(COLS);
		return 0;
	}
	if (app_spectro_replay(u->a) && u->mode == UI_TABLE && u->a->text == TEXT_NONE &&
	    ui_spectro_key(u, ch))
		return 0;
	if (ch == KEY_MOUSE && !mouse_key(u, &ch))
		return 0;
	u->msg[0] = 0;
	if (u->mode == UI_PROMPT)
		return ui_prompt_key(u, ch), 0;
	if (u->a->text != TEXT_NONE)
		return ui_text_key(u, ch);
	switch (u->mode) {
	case UI_VIEWS: return ui_menu_key_views(u, ch);
	case UI_SORT: return ui_menu_key_sort(u, ch);
	case UI_ACTIONS: return ui_menu_key_actions(u, ch);
	case UI_HELP: case UI_VIEWINFO:
		if (ch == 'q' || ch == KEY_F(10))
			return 1;
		u->mode = UI_TABLE;
		return 0;
	default:
		return table_key(u, ch);
	}
}

int ui_run(struct app *a)
{
	static struct ui u;
	int quit = 0;

	u.a = a;
	atexit(ui_restore_terminal);
	signal(SIGINT, on_quit_signal);
	signal(SIGTERM, on_quit_signal);
	signal(SIGHUP, on_quit_signal);
	signal(SIGPIPE, SIG_IGN);
	signal(SIGSEGV, on_fatal_signal);
	signal(SIGABRT, on_fatal_signal);
	signal(SIGBUS, on_fatal_signal);
	if (ui_start_curses(&u) < 0)
		return 1;
	ui_draw(&u);
	while (!quit && !g_quit_signal) {
		int changed = 0, ch, rc = 0;

		if (!a->paused && !a->eof) {
			rc = app_step(a, a->o.ninputs ? 20000 : 2000);
			if (rc < 0) {
				ui_message(&u, "%s", a->err);
				a->eof = 1;
			}
			if (rc == 1 || rc == 2) {
				if (a->text == TEXT_NONE)
					ui_rebuild_rows(&u);
				if (a->text == TEXT_NONE && app_spectro_replay(a))
					ui_spectro_sample(&u);
				changed = 1;
			}
			if (a->text != TEXT_NONE)
				changed = 1;
			if (a->o.ninputs && !a->eof)
				changed = 1;	/* progress */
		}
		while ((ch = getch()) != ERR) {
			quit = handle_key(&u, ch);
			changed = 1;
			if (quit)
				break;
		}
		if (changed)
			ui_draw(&u);
		if (!changed || a->eof || a->paused || rc == 0)
			napms(a->eof || a->paused ? 20 : 2);
	}
	ui_restore_terminal();
	free(u.rows);
	free(u.spectro);
	return 0;
}
