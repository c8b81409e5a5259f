/*
 * fuzz_reader.c - libFuzzer target for the .scap reader (savefile engine).
 *
 * The input bytes become a file (a memfd, opened through /proc/self/fd so
 * the real open/mmap/zlib paths run); every event is read and its
 * parameters touched, and the progress callback is exercised.  Any crash,
 * hang or sanitizer report is a bug: the reader must end with SCAP_EOF or
 * a message.  Seeds: prefixes of the traces (see CMakeLists.txt).
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "scap.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[SCAP_ERRBUF_SIZE] = "", path[64];
	int fd = memfd_create("fuzz", 0);
	struct scap *h;
	struct scap_evt e;
	unsigned sum = 0;
	int rc;

	if (fd < 0)
		return 0;
	if (size && write(fd, data, size) != (ssize_t)size) {
		close(fd);
		return 0;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	h = scap_open_file(path, err);
	if (!h) {
		if (!err[0])
			abort();	/* failures must say why */
		close(fd);
		return 0;
	}
	while ((rc = scap_next(h, &e)) == SCAP_SUCCESS || rc == SCAP_NEW_SECTION) {
		uint32_t i;

		if (rc == SCAP_NEW_SECTION)
			continue;
		for (i = 0; i < e.nparams; i++)
			if (e.plen[i])
				sum += e.pval[i][0] + e.pval[i][e.plen[i] - 1];
		h->ops->progress(h);
	}
	if (rc != SCAP_EOF && !h->err[0])
		abort();
	scap_close(h);
	close(fd);
	return (int)(sum & 0);
}
