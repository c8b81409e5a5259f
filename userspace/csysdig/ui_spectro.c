/*
 * ui_spectro.c - the spectrogram views on the screen (view_type
 * "spectrogram": spectro_all, spectro_file, F12 on a selection).
 *
 * Every sample (500 ms, replayed in event time on files: app.c) becomes one
 * line, the newest at the bottom just above the latency axis, the older
 * ones scrolling up.  A view's first value column is the latency bucket
 * (evt.latency.quantized: 11 decades from 1 ns spread over the screen
 * width), the second the count, shown as a cell colored by a logarithmic
 * palette (black: nothing).  The palette, the count-to-color rule, the axis
 * labels and the bottom line are those of sysdig 0.29.3's csysdig.  On
 * files the scrolling stops after every screenful until SPACE.
 */
#include <curses.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "csysdig.h"
#include "ui.h"

#define SPECTRO_MAX_ROWS 1024	/* history kept (more than any screen) */

/* xterm-256 colors from dark green through yellow to red */
static const short g_palette[] = { 22, 28, 64, 34, 2, 76, 46, 118, 154, 191,
				   227, 226, 11, 220, 209, 208, 202, 197, 9, 1 };
#define NPALETTE ((int)(sizeof(g_palette) / sizeof(g_palette[0])))
/* the 8-color ramp of terminals without 256 colors */
static const short g_palette8[] = { COLOR_GREEN, COLOR_YELLOW, COLOR_RED };

enum { CP_SPECTRO_EMPTY = 32, CP_SPECTRO_LABEL, CP_SPECTRO_FIRST };

static int g_colors_ready;

static void init_spectro_colors(void)
{
	if (g_colors_ready || !has_colors())
		return;
	g_colors_ready = 1;
	if (COLORS >= 256 && COLOR_PAIRS > CP_SPECTRO_FIRST + NPALETTE) {
		init_pair(CP_SPECTRO_EMPTY, 255, 0);
		init_pair(CP_SPECTRO_LABEL, 0, 24);
		for (int i = 0; i < NPALETTE; i++)
			init_pair((short)(CP_SPECTRO_FIRST + i), 0, g_palette[i]);
	} else {
		init_pair(CP_SPECTRO_EMPTY, COLOR_WHITE, COLOR_BLACK);
		init_pair(CP_SPECTRO_LABEL, COLOR_BLACK, COLOR_BLUE);
		for (int i = 0; i < NPALETTE; i++)
			init_pair((short)(CP_SPECTRO_FIRST + i), COLOR_BLACK,
				  g_palette8[i * 3 / NPALETTE]);
	}
}

/* the palette entry of a count: log base 1.6 of (count * 2 samples a
 * second + 1), at least the first entry, at most the next to last */
static int count_color(uint64_t count)
{
	int c = (int)(log10((double)count * 2 + 1) / log10(1.6));

	if (c < 1)
		c = 1;
	if (c > NPALETTE - 1)
		c = NPALETTE - 1;
	return c - 1;
}

void ui_spectro_reset(struct ui *u)
{
	free(u->spectro);
	u->spectro = NULL;
	u->spectro_rows = u->spectro_w = 0;
	u->spectro_samples = 0;
	u->spectro_more = 0;
	field_set_quantize_width(COLS);
}

/* the sample just taken as a new line */
void ui_spectro_sample(struct ui *u)
{
	struct table *t = &u->a->table;
	int w = COLS > 1 ? COLS - 1 : 1;
	uint32_t *line;
	int first;

	if (u->spectro_view != app_view(u->a) || u->spectro_w != w) {
		/* another view or width: a new picture */
		ui_spectro_reset(u);
		u->spectro_view = app_view(u->a);
		u->spectro_w = w;
	}
	/* an empty sample is a (black) line only when it is the first one */
	first = u->spectro_samples++ == 0;
	if (table_nvals(t) < 2 || (t->nsample == 0 && !first))
		return;
	if (!u->spectro) {
		u->spectro = calloc((size_t)SPECTRO_MAX_ROWS * (size_t)w, sizeof(*u->spectro));
		if (!u->spectro)
			return;
	}
	if (u->spectro_rows == SPECTRO_MAX_ROWS) {
		memmove(u->spectro, u->spectro + w,
			(size_t)(SPECTRO_MAX_ROWS - 1) * (size_t)w * sizeof(*u->spectro));
		u->spectro_rows--;
	}
	line = u->spectro + (size_t)u->spectro_rows * (size_t)w;
	memset(line, 0, (size_t)w * sizeof(*line));
	for (size_t i = 0; i < t->nsample; i++) {
		const struct row *r = t->sample[i];
		uint64_t bucket = r->vals[0].u;

		if (bucket < (uint64_t)w)
			line[bucket] = (uint32_t)r->vals[1].u;
	}
	u->spectro_rows++;
	/* files: a screenful at a time */
	if (u->a->o.ninputs && LINES > 3 && u->spectro_rows % (LINES - 3) == 0) {
		u->spectro_more = 1;
		u->a->paused = 1;
	}
}

/* "|1ns", "|10ns" ... "|10.00s" where the decades start */
static void draw_axis(int y)
{
	int x = 0;

	while (x < COLS) {
		unsigned dec = (unsigned)((double)x * 11 / COLS);
		unsigned prev = (unsigned)(((double)x - 1) * 11 / COLS);

		if (x == 0 || dec != prev) {
			char label[32];

			table_format_time((uint64_t)pow(10, dec), label, sizeof(label));
			mvaddch(y, x, '|');
			mvaddnstr(y, x + 1, label, COLS - x - 1);
			x += (int)strlen(label) + 1;
		} else {
			x++;
		}
	}
}

static const struct fkey g_spectro_keys[] = {
	{ "F1", "Help  ", KEY_F(1) }, { "F2", "Views ", KEY_F(2) }, { "p ", "Pause ", 'p' },
	{ "BKSPACE", "Back", KEY_BACKSPACE }, { "MOUSE", "DrillDown", 0 }, { 0, 0, 0 },
};

static int draw_key(int y, int x, const char *key, const char *label)
{
	mvaddnstr(y, x, key, COLS - x);
	x += (int)strlen(key);
	if (x < COLS) {
		attron(COLOR_PAIR(CP_SPECTRO_LABEL));
		mvaddnstr(y, x, label, COLS - x);
		attroff(COLOR_PAIR(CP_SPECTRO_LABEL));
	}
	return x + (int)strlen(label);
}

static void draw_menu(struct ui *u, int y)
{
	int x = 0;

	u->nfkey_zones = 0;
	for (const struct fkey *k = g_spectro_keys; k->key; k++) {
		int x0 = x;

		x = draw_key(y, x, k->key, k->desc);
		if (k->ch && u->nfkey_zones < (int)(sizeof(u->fkey_zones) / sizeof(u->fkey_zones[0]))) {
			u->fkey_zones[u->nfkey_zones].x0 = x0;
			u->fkey_zones[u->nfkey_zones].x1 = x - 1;
			u->fkey_zones[u->nfkey_zones].ch = k->ch;
			u->nfkey_zones++;
		}
	}
	if (u->spectro_more)
		draw_key(y, x, "SPACE", "More");
}

/* the history from the bottom up (the last screen line stays empty, as
 * the reference's scrolling leaves it), the axis, the keys */
void ui_spectro_draw(struct ui *u)
{
	int bottom = LINES - 4;
	int w = u->spectro_w;

	init_spectro_colors();
	for (int k = 0; k < u->spectro_rows && bottom - k >= 0; k++) {
		const uint32_t *line = u->spectro + (size_t)(u->spectro_rows - 1 - k) * (size_t)w;

		move(bottom - k, 0);
		for (int x = 0; x < w && x < COLS; x++) {
			int pair = line[x] ? CP_SPECTRO_FIRST + count_color(line[x]) : CP_SPECTRO_EMPTY;

			addch(' ' | COLOR_PAIR(pair));
		}
	}
	draw_axis(LINES - 3);
	draw_menu(u, LINES - 2);
	if (u->msg[0])
		ui_put(0, 0, -1, u->msg, A_BOLD);
}

/* SPACE after a screenful: the next one */
int ui_spectro_key(struct ui *u, int ch)
{
	if (ch != ' ' || !u->spectro_more)
		return 0;
	u->spectro_more = 0;
	u->a->paused = 0;
	return 1;
}
