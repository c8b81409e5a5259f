/*
 * count_matches.c - a program outside the tree using the installed
 * libraries (pkg-config sysdigc-sinsp): reads a capture file, evaluates a
 * filter on every event and prints each match with a format, as
 * "sysdig -r FILE -p FORMAT FILTER" does.  Built and run by install_test.sh
 * against the DESTDIR installation.
 * usage: count_matches FILE FORMAT FILTER
 */
#include <stdio.h>
#include <stdlib.h>
#include <filter.h>
#include <format.h>
#include <render.h>
#include <sinsp.h>

int main(int argc, char **argv)
{
	char err[SCAP_ERRBUF_SIZE];
	struct scap *h;
	struct sinsp *s;
	struct filter *flt;
	struct formatter *fmt;
	struct sinsp_evt e;
	struct sbuf out = { 0 };
	int rc;

	if (argc != 4) {
		fprintf(stderr, "usage: %s FILE FORMAT FILTER\n", argv[0]);
		return 2;
	}
	h = scap_open_file(argv[1], err);
	if (!h || !(s = sinsp_open(h, err))) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	fmt = formatter_new(argv[2], err, sizeof(err));
	flt = fmt ? filter_compile(argv[3], err, sizeof(err)) : NULL;
	if (!flt) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	while ((rc = sinsp_next(s, &e)) == SCAP_SUCCESS) {
		if (e.filtered_out || !filter_run(flt, s, &e))
			continue;
		sb_reset(&out);
		if (formatter_format(fmt, s, &e, 0, &out, err, sizeof(err)) == 1)
			printf("%.*s\n", (int)out.len, out.p);
	}
	if (rc != SCAP_EOF)
		fprintf(stderr, "%s\n", s->err);
	sb_free(&out);
	filter_free(flt);
	formatter_free(fmt);
	sinsp_close(s);
	return rc == SCAP_EOF ? 0 : 1;
}
