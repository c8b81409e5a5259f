/*
 * scapmangle.c - make corrupt copies of a .scap file, reproducibly.
 *
 *   scapmangle truncate IN OUT OFFSET   first OFFSET raw bytes of IN
 *   scapmangle flip IN OUT SEED [gz]    decoded IN with 1..8 bytes flipped
 *                                       (seeded), written plain or gzip
 *   scapmangle boundaries IN            block start offsets of decoded IN
 *   scapmangle decompress IN OUT        decoded IN, plain
 *   scapmangle dropblock IN OUT K [gz]  decoded IN without its block K
 *                                       (0 = the section header)
 *
 * Used by robust_read (which reports failing cases as scapmangle command
 * lines) and usable against any reader, e.g. the sysdig binary.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mangle.h"

static int usage(void)
{
	fprintf(stderr, "usage: scapmangle truncate IN OUT OFFSET | flip IN OUT SEED [gz] |\n"
			"       boundaries IN | decompress IN OUT | dropblock IN OUT K [gz]\n");
	return 2;
}

int main(int argc, char **argv)
{
	struct blob raw, dec;
	int gz, rc = 0;

	if (argc < 3)
		return usage();
	if (mangle_load(argv[2], &raw, &dec, &gz)) {
		fprintf(stderr, "scapmangle: can't read %s\n", argv[2]);
		return 1;
	}
	if (!strcmp(argv[1], "truncate") && argc == 5) {
		size_t off = strtoull(argv[4], NULL, 0);

		if (off > raw.len)
			off = raw.len;
		rc = mangle_write(argv[3], raw.p, off, 0);
	} else if (!strcmp(argv[1], "flip") && (argc == 5 || argc == 6)) {
		mangle_flip(&dec, strtoull(argv[4], NULL, 0));
		rc = mangle_write(argv[3], dec.p, dec.len, argc == 6);
	} else if (!strcmp(argv[1], "boundaries") && argc == 3) {
		size_t *v, n = mangle_boundaries(&dec, &v), i;

		for (i = 0; i < n; i++)
			printf("%zu\n", v[i]);
		free(v);
	} else if (!strcmp(argv[1], "dropblock") && (argc == 5 || argc == 6)) {
		if (!mangle_drop_block(&dec, strtoull(argv[4], NULL, 0))) {
			fprintf(stderr, "scapmangle: no block %s in %s\n", argv[4], argv[2]);
			rc = 1;
		} else {
			rc = mangle_write(argv[3], dec.p, dec.len, argc == 6);
		}
	} else if (!strcmp(argv[1], "decompress") && argc == 4) {
		rc = mangle_write(argv[3], dec.p, dec.len, 0);
	} else {
		return usage();
	}
	if (rc)
		fprintf(stderr, "scapmangle: can't write %s\n", argv[3]);
	free(raw.p);
	free(dec.p);
	return rc ? 1 : 0;
}
