/*
 * fuzz_format.c - libFuzzer target for the output formatter (format.c, -p).
 *
 * The input is a format string.  It must either be accepted or rejected
 * with a message; an accepted format is rendered, as text and as JSON, for
 * every event of traces/cat_write.scap.  Nothing may crash, hang or leak.
 */
#include "format.h"
#include "fuzz_trace.h"

struct render {
	struct formatter *fm;
	struct sbuf out;	/* reused for every event */
};

static void render_event(struct sinsp *s, struct sinsp_evt *e, void *arg)
{
	struct render *r = arg;
	char err[SCAP_ERRBUF_SIZE];

	sb_reset(&r->out);
	formatter_format(r->fm, s, e, 0, &r->out, err, sizeof(err));
	sb_reset(&r->out);
	formatter_format(r->fm, s, e, 1, &r->out, err, sizeof(err));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[512];
	char *text = fuzz_text(data, size);
	struct render r = { 0 };

	if (!text)
		return 0;
	err[0] = 0;
	r.fm = formatter_new(text, err, sizeof(err));
	if (r.fm) {
		fuzz_each_event(render_event, &r);
		sb_free(&r.out);
		formatter_free(r.fm);
	} else if (!err[0]) {
		abort();	/* every rejection explains itself */
	}
	free(text);
	return 0;
}
