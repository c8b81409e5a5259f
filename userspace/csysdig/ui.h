/*
 * ui.h - internals of the ncurses front end shared by ui.c (table, keys,
 * prompts), ui_menu.c (F2/F8/F9 menus, F1/F7 pages, actions), ui_text.c
 * (F5/F6 text windows) and ui_spectro.c (spectrogram views, F12).
 */
#ifndef CSYSDIG_UI_H
#define CSYSDIG_UI_H

#include "csysdig.h"

#define UI_MAX_COLS 64

enum ui_mode { UI_TABLE, UI_VIEWS, UI_SORT, UI_ACTIONS, UI_HELP, UI_VIEWINFO, UI_PROMPT };
enum prompt_kind { PROMPT_FILTER, PROMPT_SEARCH, PROMPT_GOTO };

struct fkey {
	const char *key, *desc;
	int ch;
};

/* color pairs of the interface (ui.c initialises them) */
enum { CP_HEADER = 1, CP_SELECTED, CP_FKEY, CP_FDESC, CP_INFO, CP_ERROR, CP_MENU, CP_MENUSEL };

struct ui {
	struct app *a;
	enum ui_mode mode;
	const struct row **rows;	/* shown rows (after the free-text filter) */
	int nrows, sel, top;
	int col_x[UI_MAX_COLS];
	char msg[512];
	char search[512];
	/* prompt line */
	enum prompt_kind prompt_kind;
	char prompt_label[64], prompt_buf[512];
	int prompt_invalid;		/* Enter found the sysdig filter invalid */
	int prompt_counter;		/* the text filter changed the rows */
	/* side menus */
	struct view **menu_views;
	int nmenu_views, menu_sel;
	/* text windows */
	long text_top;
	int text_follow;
	char text_search[512];
	/* bottom bar zones, for mouse clicks */
	struct { int x0, x1, ch; } fkey_zones[16];
	int nfkey_zones;
	/* spectrogram (ui_spectro.c): spectro_rows lines of spectro_w counts */
	uint32_t *spectro;
	int spectro_rows, spectro_w;
	int spectro_samples;	/* samples taken of the view */
	int spectro_more;	/* a file's screenful is shown: SPACE goes on */
	const struct view *spectro_view;	/* the view the lines are of */
};

void ui_put(int y, int x, int w, const char *s, int attr);
void ui_draw_fkeys(struct ui *u, const struct fkey *keys);
void ui_draw(struct ui *u);
void ui_message(struct ui *u, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void ui_rebuild_rows(struct ui *u);
const struct row *ui_selected_row(struct ui *u);
int ui_set_view(struct ui *u, struct view *v);
void ui_restart_failed(struct ui *u);
void ui_prompt_start(struct ui *u, enum prompt_kind kind, const char *label, const char *init);
void ui_prompt_draw(struct ui *u);
int ui_prompt_key(struct ui *u, int ch);
int ui_start_curses(struct ui *u);
void ui_stop_curses(void);

/* ui_menu.c */
void ui_menu_open_views(struct ui *u);
void ui_menu_open_sort(struct ui *u);
void ui_menu_open_actions(struct ui *u);
void ui_menu_draw_views(struct ui *u);
void ui_menu_draw_sort(struct ui *u);
void ui_menu_draw_actions(struct ui *u);
int ui_menu_key_views(struct ui *u, int ch);
int ui_menu_key_sort(struct ui *u, int ch);
int ui_menu_key_actions(struct ui *u, int ch);
void ui_page_draw_help(struct ui *u);
void ui_page_draw_viewinfo(struct ui *u, const struct view *v);
void ui_spectro_selection(struct ui *u);

/* ui_spectro.c */
void ui_spectro_reset(struct ui *u);
void ui_spectro_sample(struct ui *u);
void ui_spectro_draw(struct ui *u);
int ui_spectro_key(struct ui *u, int ch);

/* ui_text.c */
void ui_text_draw(struct ui *u);
int ui_text_key(struct ui *u, int ch);

#endif
