/*
 * fuzz_format.c - libFuzzer target for the output formatter (format.c, -p).
 *
 * The input is a format string.  It must either be accepted or rejected
 * with a message; an accepted format is rendered, as text and as JSON, for
 * every event of traces/cat_write.scap.  Nothing may crash, hang or leak.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "format.h"

static char trace_path[4096];

static void find_trace(void)
{
	const char *slash;

	if (trace_path[0])
		return;
	slash = strrchr(__FILE__, '/');
	snprintf(trace_path, sizeof(trace_path), "%.*s/../traces/cat_write.scap",
		 slash ? (int)(slash - __FILE__) : 1, slash ? __FILE__ : ".");
}

static void run_on_trace(struct formatter *fm)
{
	char err[SCAP_ERRBUF_SIZE];
	struct sbuf out = { 0 };
	struct scap *h;
	struct sinsp *s;
	struct sinsp_evt e;

	find_trace();
	h = scap_open_file(trace_path, err);
	if (!h)
		return;
	s = sinsp_open(h, err);
	if (!s)
		return;
	while (sinsp_next(s, &e) == SCAP_SUCCESS) {
		sb_reset(&out);
		formatter_format(fm, s, &e, 0, &out, err, sizeof(err));
		sb_reset(&out);
		formatter_format(fm, s, &e, 1, &out, err, sizeof(err));
	}
	sb_free(&out);
	sinsp_close(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[512];
	char *text = malloc(size + 1);
	struct formatter *fm;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = 0;
	err[0] = 0;
	fm = formatter_new(text, err, sizeof(err));
	if (fm) {
		run_on_trace(fm);
		formatter_free(fm);
	} else if (!err[0]) {
		abort();	/* every rejection explains itself */
	}
	free(text);
	return 0;
}
