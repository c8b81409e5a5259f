/*
 * scaprewrite.c - read a .scap file with the libscap reader and write it
 * back with the libscap writer (metadata + every event, same cpu/flags).
 *
 *   scaprewrite IN OUT [gz]
 *
 * Used by test_sysdig_compat.sh to check that sysdig 0.29.3 prints the same
 * thing for a trace and for our rewrite of it.
 */
#include <stdio.h>

#include "scap.h"

int main(int argc, char **argv)
{
	char err[SCAP_ERRBUF_SIZE];
	struct scap *h;
	struct scap_dumper *d;
	struct scap_evt e;
	int rc;

	if (argc < 3) {
		fprintf(stderr, "usage: scaprewrite IN OUT [gz]\n");
		return 2;
	}
	h = scap_open_file(argv[1], err);
	if (!h) {
		fprintf(stderr, "scaprewrite: %s\n", err);
		return 1;
	}
	d = scap_dump_open(argv[2], argc > 3, err);
	if (!d) {
		fprintf(stderr, "scaprewrite: %s\n", err);
		scap_close(h);
		return 1;
	}
	rc = scap_dump_metadata(d, &h->meta);
	while (!rc && (rc = scap_next(h, &e)) == SCAP_SUCCESS)
		rc = scap_dump_event(d, &e, e.cpuid, e.dump_flags);
	if (rc == SCAP_NEW_SECTION)
		fprintf(stderr, "scaprewrite: only the first section is copied\n");
	if (rc != SCAP_EOF && rc != SCAP_NEW_SECTION) {
		fprintf(stderr, "scaprewrite: %s\n", rc < 0 || rc == SCAP_FAILURE ?
			(h->err[0] ? h->err : scap_dump_error(d)) : scap_dump_error(d));
		scap_dump_close(d, err);
		scap_close(h);
		return 1;
	}
	scap_close(h);
	if (scap_dump_close(d, err)) {
		fprintf(stderr, "scaprewrite: %s\n", err);
		return 1;
	}
	return 0;
}
