#define _GNU_SOURCE
/*
 * ui_menu.c - csysdig's side menus and pages: F2 views (with the highlighted
 * view's description, tips and columns), F9 sort columns, F8 actions of the
 * view (commands run on the selected row, with confirmation where the view
 * asks for it), F1 help, F7 view information, F12 spectrogram.
 */
#include <ctype.h>
#include <curses.h>
#include <stdlib.h>
#include <string.h>
#include "ui.h"

#define MENU_W 20	/* the reference's side menu width */

/* the field the current view was reached with ("" at the top) */
static const char *current_field(struct ui *u)
{
	struct app *a = u->a;

	return a->depth > 0 && a->stack[a->depth - 1].field ? a->stack[a->depth - 1].field : "";
}

void ui_menu_open_views(struct ui *u)
{
	struct app *a = u->a;
	const char *f = current_field(u);

	free(u->menu_views);
	u->menu_views = calloc(a->views.n + 1, sizeof(*u->menu_views));
	u->nmenu_views = 0;
	u->menu_sel = 0;
	for (size_t i = 0; i < a->views.n; i++)
		if (view_applies_to(&a->views.v[i], f) || a->views.v[i].napplies_to == 0) {
			if (&a->views.v[i] == app_view(a))
				u->menu_sel = u->nmenu_views;
			u->menu_views[u->nmenu_views++] = &a->views.v[i];
		}
	u->mode = UI_VIEWS;
}

/* a text page written as the reference's pages are (ctext): text and
 * newlines from (y, x) in a box w wide and to row ymax, lines wrapped at
 * the box's width */
struct page {
	int y, x, w, ymax, col;
};

static void page_print(struct page *p, const char *s, int attr)
{
	for (; *s; s++) {
		if (*s == '\n' || p->col >= p->w) {
			p->y++;
			p->col = 0;
			if (*s == '\n')
				continue;
		}
		if (p->y >= p->ymax)
			return;
		attron(attr);
		mvaddch(p->y, p->x + p->col, (unsigned char)(isprint((unsigned char)*s) ? *s : '.'));
		attroff(attr);
		p->col++;
	}
}

static int column_listed(const struct view *v, const struct view_column *c, int print_containers)
{
	if (v->type == VIEW_TABLE && (c->is_key || c->is_groupby_key))
		return 0;
	if (c->for_containers && !print_containers)
		return 0;
	return !(c->for_default && print_containers);
}

/* the view's information page (F7, and beside the F2 menu), laid out as
 * the reference's: name, description, tips, columns, id, the filter when
 * the view has one, the actions */
static void draw_view_details(int y, int x, int w, int ymax, const struct view *v,
			      int print_containers)
{
	struct page p = { y, x, w, ymax, 0 };
	const int head = COLOR_PAIR(CP_INFO) | A_BOLD, name = COLOR_PAIR(CP_INFO);
	char hotkey[2] = "";

	page_print(&p, v->name, head);
	page_print(&p, "\n", 0);
	page_print(&p, v->description ? v->description : "", 0);
	page_print(&p, "\n\n", 0);
	if (v->ntips) {
		page_print(&p, "Tips\n", head);
		for (size_t i = 0; i < v->ntips; i++) {
			page_print(&p, v->tips[i], 0);
			page_print(&p, "\n\n", 0);
		}
	}
	page_print(&p, "Columns\n", head);
	for (size_t i = 0; i < v->ncols; i++) {
		const struct view_column *c = &v->cols[i];

		if (!column_listed(v, c, print_containers))
			continue;
		page_print(&p, c->name, name);
		page_print(&p, ": ", 0);
		page_print(&p, c->description ? c->description : "", 0);
		page_print(&p, "\n", 0);
	}
	page_print(&p, "\nID\n", head);
	page_print(&p, v->id, 0);
	page_print(&p, "\n\n", 0);
	if (v->filter && *v->filter) {
		page_print(&p, "Filter\n", head);
		page_print(&p, v->filter, 0);
		page_print(&p, "\n\n", 0);
	}
	if (v->nactions)
		page_print(&p, "Action Hotkeys\n", head);
	for (size_t i = 0; i < v->nactions; i++) {
		const struct view_action *a = &v->actions[i];

		hotkey[0] = a->hotkey ? a->hotkey[0] : 0;
		page_print(&p, hotkey, name);
		page_print(&p, ": ", 0);
		page_print(&p, a->description ? a->description : "", 0);
		page_print(&p, " (", 0);
		page_print(&p, a->command ? a->command : "", 0);
		page_print(&p, ")\n", 0);
	}
}

void ui_menu_draw_views(struct ui *u)
{
	int h = LINES - 3, y0 = 2;

	ui_put(y0, 0, MENU_W, "Select View", A_REVERSE | A_BOLD);
	for (int i = 0; i < h - 1; i++) {
		int k = i + (u->menu_sel >= h - 1 ? u->menu_sel - h + 2 : 0);
		const char *name = k < u->nmenu_views ? u->menu_views[k]->name : "";

		ui_put(y0 + 1 + i, 0, MENU_W, name, k == u->menu_sel ? A_REVERSE : A_NORMAL);
	}
	for (int y = y0; y < LINES - 1; y++)
		ui_put(y, MENU_W, -1, "", 0);
	if (u->nmenu_views)
		draw_view_details(y0, MENU_W, COLS - MENU_W, LINES - 1, u->menu_views[u->menu_sel],
				  u->a->o.print_containers);
}

static int menu_nav(int *sel, int n, int ch)
{
	switch (ch) {
	case KEY_UP: if (*sel > 0) (*sel)--; return 1;
	case KEY_DOWN: if (*sel + 1 < n) (*sel)++; return 1;
	case KEY_PPAGE: *sel = *sel > 10 ? *sel - 10 : 0; return 1;
	case KEY_NPAGE: *sel = *sel + 10 < n ? *sel + 10 : (n ? n - 1 : 0); return 1;
	case KEY_HOME: *sel = 0; return 1;
	case KEY_END: *sel = n ? n - 1 : 0; return 1;
	default: return 0;
	}
}

static int is_enter(int ch)
{
	return ch == '\n' || ch == '\r' || ch == KEY_ENTER;
}

int ui_menu_key_views(struct ui *u, int ch)
{
	if (menu_nav(&u->menu_sel, u->nmenu_views, ch))
		return 0;
	if (is_enter(ch) && u->nmenu_views) {
		u->mode = UI_TABLE;
		ui_set_view(u, u->menu_views[u->menu_sel]);
		return 0;
	}
	if (ch == 'q' || ch == KEY_F(10))
		return 1;
	u->mode = UI_TABLE;	/* Esc, F2, Backspace... */
	return 0;
}

void ui_menu_open_sort(struct ui *u)
{
	u->menu_sel = u->a->table.sort_col > 0 ? u->a->table.sort_col : 0;
	u->mode = UI_SORT;
}

void ui_menu_draw_sort(struct ui *u)
{
	struct table *t = &u->a->table;
	int n = (int)table_nvals(t);

	ui_put(2, 0, MENU_W, "Sort by", A_REVERSE | A_BOLD);
	for (int i = 0; i < n && 3 + i < LINES - 1; i++) {
		const struct table_col *c = table_val_col(t, (size_t)i);
		char b[128];

		snprintf(b, sizeof(b), "%s%s", c->vc ? c->vc->name : c->ref.name,
			 i == t->sort_col ? (t->sort_ascending ? " (asc)" : " (desc)") : "");
		ui_put(3 + i, 0, MENU_W, b, i == u->menu_sel ? A_REVERSE : A_NORMAL);
	}
}

int ui_menu_key_sort(struct ui *u, int ch)
{
	int n = (int)table_nvals(&u->a->table);

	if (menu_nav(&u->menu_sel, n, ch))
		return 0;
	if (is_enter(ch)) {
		table_set_sort(&u->a->table, u->menu_sel);
		table_sort(&u->a->table);
		ui_rebuild_rows(u);
	}
	if (ch == 'q' || ch == KEY_F(10))
		return 1;
	u->mode = UI_TABLE;
	return 0;
}

void ui_menu_open_actions(struct ui *u)
{
	if (!app_view(u->a)->nactions) {
		ui_message(u, "the view %s has no actions", app_view(u->a)->name);
		return;
	}
	if (!ui_selected_row(u)) {
		ui_message(u, "no row selected");
		return;
	}
	u->menu_sel = 0;
	u->mode = UI_ACTIONS;
}

void ui_menu_draw_actions(struct ui *u)
{
	const struct view *v = app_view(u->a);

	ui_put(2, 0, MENU_W + 8, "Select Action", A_REVERSE | A_BOLD);
	for (size_t i = 0; i < v->nactions && 3 + (int)i < LINES - 1; i++) {
		char b[256];

		snprintf(b, sizeof(b), "(%s) %s", v->actions[i].hotkey,
			 v->actions[i].description ? v->actions[i].description : v->actions[i].command);
		ui_put(3 + (int)i, 0, MENU_W + 8, b, (int)i == u->menu_sel ? A_REVERSE : A_NORMAL);
	}
}

/* the text of field fld in the selected row: a printed column or the key */
static int row_value(struct ui *u, const char *fld, char *out, size_t n)
{
	struct table *t = &u->a->table;
	const struct row *r = ui_selected_row(u);

	if (!r)
		return -1;
	if (strcmp(table_key_col(t)->ref.name, fld) == 0) {
		table_key_string(t, r, out, n);
		return 0;
	}
	for (size_t j = 0; j < table_nvals(t); j++)
		if (strcmp(table_val_col(t, j)->ref.name, fld) == 0) {
			char buf[4096];
			const char *s = table_format(t, r, j, 0, 0, buf, sizeof(buf));

			while (*s == ' ')
				s++;
			snprintf(out, n, "%s", s);
			return 0;
		}
	return -1;
}

/* "kill %proc.pid" -> "kill 338"; NULL when a field is not in the view */
static char *resolve_command(struct ui *u, const char *cmd)
{
	size_t cap = strlen(cmd) + 4096, n = 0;
	char *r = malloc(cap);

	while (*cmd) {
		if (*cmd == '%') {
			char fld[128], val[2048];
			size_t k = 0;

			cmd++;
			while (*cmd && (isalnum((unsigned char)*cmd) || *cmd == '.' || *cmd == '_') && k + 1 < sizeof(fld))
				fld[k++] = *cmd++;
			fld[k] = 0;
			if (row_value(u, fld, val, sizeof(val)) < 0) {
				free(r);
				return NULL;
			}
			n += (size_t)snprintf(r + n, cap - n, "%s", val);
		} else if (n + 2 < cap) {
			r[n++] = *cmd++;
		} else {
			cmd++;
		}
	}
	r[n] = 0;
	return r;
}

/* a line from the terminal: 1 when it starts with y or Y */
static int confirmed(void)
{
	char line[64];

	return fgets(line, sizeof(line), stdin) && (line[0] == 'y' || line[0] == 'Y');
}

/* the action on the selected row, outside the interface as the reference
 * runs it: the confirmation asked on the terminal, the command's output
 * left there until ENTER (unless wait_finish is false) */
static void pick_action(struct ui *u, const struct view_action *act)
{
	char *cmd = resolve_command(u, act->command);

	u->mode = UI_TABLE;
	if (!cmd) {
		ui_message(u, "cannot run '%s': a field is not in this view", act->command);
		return;
	}
	ui_stop_curses();
	printf("\033[H\033[2J");
	if (act->ask_confirmation) {
		printf("Confirm command '%s'? [y/N] ", cmd);
		fflush(stdout);
		if (!confirmed()) {
			app_log(u->a, "action not confirmed: %s", cmd);
			goto back;
		}
	}
	app_log(u->a, "action: %s", cmd);
	fflush(stdout);
	if (system(cmd) == -1)
		printf("cannot run the command\n");
	if (act->wait_finish) {
		printf("Command finished. Press ENTER to return to csysdig.");
		fflush(stdout);
		while (getchar() != '\n' && !feof(stdin))
			;
	}
back:
	free(cmd);
	ui_start_curses(u);
	clearok(stdscr, TRUE);
}

int ui_menu_key_actions(struct ui *u, int ch)
{
	const struct view *v = app_view(u->a);

	if (menu_nav(&u->menu_sel, (int)v->nactions, ch))
		return 0;
	if (is_enter(ch)) {
		pick_action(u, &v->actions[u->menu_sel]);
		return 0;
	}
	for (size_t i = 0; i < v->nactions; i++)
		if (v->actions[i].hotkey[0] == ch && !v->actions[i].hotkey[1]) {
			pick_action(u, &v->actions[i]);
			return 0;
		}
	u->mode = UI_TABLE;
	return 0;
}

static const char *const g_help[] = {
	"csysdig - keys",
	"",
	"Arrows, PgUp, PgDn, Home, End  move the selection",
	"Enter          drill down into the selected row (e.g. the threads of a process)",
	"Backspace      go back up one level",
	"F1, h          this help",
	"F2             choose a view (description, tips and columns on the right)",
	"F4, \\          filter: text shown rows must contain (F2 in it: a sysdig filter)",
	"/, Ctrl+F      search the rows; n or F3 for the next match",
	"F5, e          echo the I/O data of the selection",
	"F6, d          the sysdig events of the selection",
	"F7, l          information about the current view",
	"F8             actions on the selection (kill, renice, gdb, lsof...)",
	"F9, >          sort menu; Shift+1..9 sort by column 1..9 (again: reverse)",
	"F12            latency spectrogram of the selection",
	"p              pause / resume",
	"c, Del         clear the filter (in F5/F6: clear the text)",
	"F10, q         quit",
	"Mouse          click a column header to sort, double-click a row to drill down",
	"",
	"In the F5/F6 windows: arrows/PgUp/PgDn scroll, End follows, F2 buffer format,",
	"/ search, F3 find next, Ctrl+G go to line, Backspace returns to the table.",
	"",
	"Press any key to continue.",
	NULL
};

void ui_page_draw_help(struct ui *u)
{
	(void)u;
	for (int y = 0; y < LINES - 1; y++)
		ui_put(y, 0, -1, "", 0);
	for (int i = 0; g_help[i] && i < LINES - 1; i++)
		ui_put(i, 1, -1, g_help[i], i == 0 ? A_BOLD : 0);
}

void ui_page_draw_viewinfo(struct ui *u, const struct view *v)
{
	for (int y = 0; y < LINES; y++)
		ui_put(y, 0, -1, "", 0);
	draw_view_details(0, 0, COLS, LINES, v, u->a->o.print_containers);
}

void ui_spectro_selection(struct ui *u)
{
	struct view *v = view_find(&u->a->views, "spectro_all");
	const struct row *r = ui_selected_row(u);

	if (!v) {
		ui_message(u, "no spectrogram view (spectro_all) installed");
		return;
	}
	if (r && !u->a->table.is_list) {
		u->a->stack[u->a->depth].selected = u->sel;
		if (app_drilldown_into(u->a, r, v) < 0)
			ui_restart_failed(u);
		u->sel = u->top = 0;
		u->nrows = 0;
		return;
	}
	ui_set_view(u, v);
}
