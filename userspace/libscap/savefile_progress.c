/*
 * savefile_progress.c - sysdig 0.29.3's read progress of a capture file,
 * by replaying its reader's gzread calls on a mirror gzFile (see
 * savefile_progress.h).  Its reader positions itself on the first event
 * block with a seek (zlib: an lseek for plain files, a rewind and skip for
 * gzip ones), then reads each block as its 8-byte header and its body;
 * gzoffset() is then the figure it prints.
 */
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "savefile_progress.h"

struct read_mirror {
	gzFile g;
	uint64_t pos;		/* decoded offset of the mirror's next block */
	int broken;
	char *body;
	size_t cap;
};

struct read_mirror *read_mirror_open(const char *path, uint64_t first_event_off)
{
	struct read_mirror *m = calloc(1, sizeof(*m));
	char c;

	if (!m)
		return NULL;
	m->g = gzopen(path, "rb");
	/* one byte read first: zlib then knows a plain file and seeks it
	 * with lseek, as after the reference's reads of the metadata */
	if (!m->g || gzread(m->g, &c, 1) != 1 ||
	    gzseek(m->g, (z_off_t)first_event_off, SEEK_SET) < 0) {
		read_mirror_close(m);
		return NULL;
	}
	m->pos = first_event_off;
	return m;
}

/* replays one block: header, then body */
static int replay_block(struct read_mirror *m)
{
	unsigned char hdr[8];
	uint32_t total;

	if (gzread(m->g, hdr, 8) != 8)
		return -1;
	total = (uint32_t)hdr[4] | (uint32_t)hdr[5] << 8 | (uint32_t)hdr[6] << 16 | (uint32_t)hdr[7] << 24;
	if (total < 8)
		return -1;
	if (total - 8 > m->cap) {
		char *b = realloc(m->body, total - 8);

		if (!b)
			return -1;
		m->body = b;
		m->cap = total - 8;
	}
	if (total > 8 && gzread(m->g, m->body, total - 8) != (int)(total - 8))
		return -1;
	m->pos += total;
	return 0;
}

double read_mirror_progress(struct read_mirror *m, uint64_t consumed_off, uint64_t file_size)
{
	z_off_t raw;

	if (!m || m->broken || !file_size)
		return -1;
	while (m->pos < consumed_off)
		if (replay_block(m) < 0) {
			m->broken = 1;
			return -1;
		}
	raw = gzoffset(m->g);
	if (raw < 0)
		return -1;
	return (double)raw / (double)file_size;
}

void read_mirror_close(struct read_mirror *m)
{
	if (!m)
		return;
	if (m->g)
		gzclose(m->g);
	free(m->body);
	free(m);
}
