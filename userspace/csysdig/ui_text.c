/*
 * ui_text.c - the F5 (echo) and F6 (sysdig events) windows: the lines that
 * app_text.c collects, scrolled, searched (/ and F3), with Ctrl+G to jump
 * to a line and F2 to change how buffers are shown.  Backspace (or Esc)
 * goes back to the table, restarting its capture.
 */
#include <curses.h>
#include <stdlib.h>
#include <string.h>
#include "app_text.h"
#include "ui.h"

static const struct fkey g_text_keys[] = {
	{ "F1", "Help", KEY_F(1) }, { "F2", "Format", KEY_F(2) }, { "F3", "Next", KEY_F(3) },
	{ "/", "Search", '/' }, { "c", "Clear", 'c' }, { "p", "Pause", 'p' },
	{ "Bksp", "Back", KEY_BACKSPACE }, { "F10", "Quit", KEY_F(10) }, { 0, 0, 0 },
};

static int text_height(void)
{
	return LINES - 3 > 0 ? LINES - 3 : 0;
}

static const char *bufmode_name(const struct app *a)
{
	switch (a->o.render.bufmode) {
	case RB_HEXASCII: return "hex+ascii";
	case RB_HEX: return "hex";
	case RB_ASCII: return "ascii";
	default: return "printable";
	}
}

void ui_text_draw(struct ui *u)
{
	struct app *a = u->a;
	int h = text_height();
	long n = (long)a->nlines;
	char title[1024];
	char *sel = app_selection_text(a);

	if (u->text_follow)
		u->text_top = n > h ? n - h : 0;
	if (u->text_top > n - 1)
		u->text_top = n > 0 ? n - 1 : 0;
	if (u->text_top < 0)
		u->text_top = 0;
	snprintf(title, sizeof(title), "%s For: %s  (%s)  lines %ld-%ld of %ld%s",
		 a->text == TEXT_ECHO ? "I/O echo" : "sysdig events", *sel ? sel : "whole machine",
		 bufmode_name(a), n ? u->text_top + 1 : 0, u->text_top + h < n ? u->text_top + h : n, n,
		 a->paused ? " (paused)" : "");
	free(sel);
	ui_put(0, 0, -1, title, A_REVERSE | A_BOLD);
	for (int i = 0; i < h; i++) {
		long k = u->text_top + i;
		const char *l = k < n ? a->lines[k] : "";
		int attr = 0;

		if (a->text == TEXT_ECHO && strncmp(l, "------ ", 7) == 0)
			attr = A_BOLD;
		if (u->text_search[0] && k < n && strstr(l, u->text_search))
			attr |= A_UNDERLINE;
		ui_put(1 + i, 0, -1, l, attr);
	}
	if (u->mode == UI_PROMPT)
		ui_prompt_draw(u);
	else
		ui_put(LINES - 2, 0, -1, u->msg, 0);
	ui_draw_fkeys(u, g_text_keys);
}

static void find_next(struct ui *u, long from)
{
	struct app *a = u->a;

	for (long k = from; k < (long)a->nlines; k++)
		if (strstr(a->lines[k], u->text_search)) {
			u->text_top = k;
			u->text_follow = 0;
			return;
		}
	ui_message(u, "not found: %s", u->text_search);
}

static void back_to_table(struct ui *u)
{
	app_text_stop(u->a);
	if (app_start(u->a) < 0)
		ui_restart_failed(u);
	u->nrows = 0;
}

/* prompts of the text window (search, go to line) end here */
static int text_prompt_key(struct ui *u, int ch)
{
	if (ch != '\n' && ch != '\r' && ch != KEY_ENTER)
		return ui_prompt_key(u, ch);
	u->mode = UI_TABLE;
	if (u->prompt_kind == PROMPT_GOTO) {
		long l = atol(u->prompt_buf);

		u->text_top = l > 0 ? l - 1 : 0;
		u->text_follow = 0;
	} else {
		snprintf(u->text_search, sizeof(u->text_search), "%s", u->prompt_buf);
		if (u->text_search[0])
			find_next(u, u->text_top);
	}
	return 0;
}

int ui_text_key(struct ui *u, int ch)
{
	struct app *a = u->a;
	int h = text_height();

	if (u->mode == UI_PROMPT)
		return text_prompt_key(u, ch);
	if (u->mode == UI_HELP) {
		u->mode = UI_TABLE;
		return 0;
	}
	switch (ch) {
	case 'q': case KEY_F(10):
		return 1;
	case KEY_BACKSPACE: case 127: case 8: case 27:
		back_to_table(u);
		break;
	case KEY_UP: u->text_top--; u->text_follow = 0; break;
	case KEY_DOWN: u->text_top++; u->text_follow = 0; break;
	case KEY_PPAGE: u->text_top -= h; u->text_follow = 0; break;
	case KEY_NPAGE: u->text_top += h; u->text_follow = 0; break;
	case KEY_HOME: u->text_top = 0; u->text_follow = 0; break;
	case KEY_END: u->text_follow = 1; break;
	case KEY_F(2):
		a->o.render.bufmode = a->o.render.bufmode == RB_HEXASCII ? RB_DOTS :
				      a->o.render.bufmode == RB_DOTS ? RB_ASCII : RB_HEXASCII;
		if (a->s)
			a->s->render.bufmode = a->o.render.bufmode;
		break;
	case '/': case 6:
		ui_prompt_start(u, PROMPT_SEARCH, "Find: ", u->text_search);
		break;
	case KEY_F(3):
		if (u->text_search[0])
			find_next(u, u->text_top + 1);
		break;
	case 7:	/* Ctrl+G */
		ui_prompt_start(u, PROMPT_GOTO, "Go to line: ", "");
		break;
	case 'c': case KEY_DC:
		app_text_clear(a);
		u->text_top = 0;
		break;
	case 'p':
		a->paused = !a->paused;
		break;
	case KEY_F(1): case 'h':
		ui_message(u, "Backspace: back, arrows/PgUp/PgDn: scroll, End: follow, F2: format, /: find, F3: next, Ctrl+G: line");
		break;
	default:
		break;
	}
	return 0;
}
