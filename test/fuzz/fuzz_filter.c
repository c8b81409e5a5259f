/*
 * fuzz_filter.c - libFuzzer target for the filter compiler (filter.c).
 *
 * The input is a filter string.  It must either compile or fail with a
 * "filter error..."/"... not supported ..." message; a compiled filter is
 * then run over the events of traces/cat_write.scap (state kept by sinsp),
 * which must never crash, hang or leak.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "filter.h"

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

static void run_on_trace(struct filter *f)
{
	char err[SCAP_ERRBUF_SIZE];
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
		int r = filter_run(f, s, &e);
		if (r && !filter_may_match_type(f, e.scap.type))
			abort();	/* pre-selection must never drop a match */
	}
	sinsp_close(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[512];
	char *text = malloc(size + 1);
	struct filter *f;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = 0;
	err[0] = 0;
	f = filter_compile(text, err, sizeof(err));
	if (f) {
		run_on_trace(f);
		filter_free(f);
	} else if (!err[0]) {
		abort();	/* every failure explains itself */
	}
	free(text);
	return 0;
}
