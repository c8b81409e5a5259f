/*
 * chisel_fmt.c - the per-chisel event formatter (chisel.set_event_formatter).
 *
 * A thin adapter over the shared -p formatter (format.h), so a chisel's
 * output lines are rendered exactly like `sysdig -p` (including the '*'
 * rule and the buffer mode chosen by -A/-x/... or sysdig.set_output_format).
 */
#include <stdlib.h>
#include <string.h>
#include "chisel_internal.h"
#include "format.h"

struct chisel_fmt {
	struct formatter *f;
	struct sbuf line;
};

struct chisel_fmt *chisel_fmt_new(const char *fmt, char *err, size_t errlen)
{
	struct chisel_fmt *cf = calloc(1, sizeof(*cf));
	char *text = strdup(fmt);

	if (!cf || !text) {
		free(cf);
		free(text);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	format_unescape(text);
	cf->f = formatter_new(text, err, errlen);
	free(text);
	if (!cf->f) {
		free(cf);
		return NULL;
	}
	return cf;
}

void chisel_fmt_print(struct chisel_fmt *cf, struct sinsp *s, struct sinsp_evt *e, FILE *out)
{
	char err[256];

	sb_reset(&cf->line);
	if (formatter_format(cf->f, s, e, s->render.json, &cf->line, err, sizeof(err)) == 1) {
		fwrite(cf->line.p ? cf->line.p : "", 1, cf->line.len, out);
		fputc('\n', out);
	}
}

void chisel_fmt_free(struct chisel_fmt *cf)
{
	if (!cf)
		return;
	formatter_free(cf->f);
	sb_free(&cf->line);
	free(cf);
}
