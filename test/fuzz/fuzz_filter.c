/*
 * fuzz_filter.c - libFuzzer target for the filter compiler (filter.c).
 *
 * The input is a filter string.  It must either compile or fail with a
 * "filter error..."/"... not supported ..." message; a compiled filter is
 * then run over the events of traces/cat_write.scap (state kept by sinsp),
 * which must never crash, hang or leak.
 */
#include "filter.h"
#include "fuzz_trace.h"

static void check_event(struct sinsp *s, struct sinsp_evt *e, void *arg)
{
	struct filter *f = arg;

	if (filter_run(f, s, e) && !filter_may_match_type(f, e->scap.type))
		abort();	/* pre-selection must never drop a match */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[512];
	char *text = fuzz_text(data, size);
	struct filter *f;

	if (!text)
		return 0;
	err[0] = 0;
	f = filter_compile(text, err, sizeof(err));
	if (f) {
		fuzz_each_event(check_event, f);
		filter_free(f);
	} else if (!err[0]) {
		abort();	/* every failure explains itself */
	}
	free(text);
	return 0;
}
