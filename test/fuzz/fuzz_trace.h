/*
 * fuzz_trace.h - shared by the text-input fuzz targets (fuzz_filter.c,
 * fuzz_format.c): the fuzz input as a C string, and a walk over the events
 * of traces/cat_write.scap with the state kept by sinsp.
 */
#ifndef FUZZ_TRACE_H
#define FUZZ_TRACE_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sinsp.h"

/* the input bytes, NUL-terminated; NULL when out of memory */
static char *fuzz_text(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);

	if (text) {
		memcpy(text, data, size);
		text[size] = 0;
	}
	return text;
}

/* call on_event for every event of the trace */
static void fuzz_each_event(void (*on_event)(struct sinsp *s, struct sinsp_evt *e, void *arg),
			    void *arg)
{
	static char path[4096];
	char err[SCAP_ERRBUF_SIZE];
	const char *slash = strrchr(__FILE__, '/');
	struct scap *h;
	struct sinsp *s;
	struct sinsp_evt e;

	if (!path[0])
		snprintf(path, sizeof(path), "%.*s/../traces/cat_write.scap",
			 slash ? (int)(slash - __FILE__) : 1, slash ? __FILE__ : ".");
	h = scap_open_file(path, err);
	if (!h)
		return;
	s = sinsp_open(h, err);
	if (!s)
		return;
	while (sinsp_next(s, &e) == SCAP_SUCCESS)
		on_event(s, &e, arg);
	sinsp_close(s);
}

#endif
