/*
 * savefile_progress.h - the read progress of a capture file as sysdig
 * 0.29.3 reports it (chisels' sysdig.get_read_progress, e.g. the
 * wsysdig_summary chisel's "progress" figures): the position of zlib's
 * gzread stream in the file, read-ahead included, over the file size.
 * Our own reader (savefile_input.c) reads differently, so a mirror gzFile
 * replays the reference reader's calls (seek to the first event block,
 * then per block an 8-byte header and the body) up to where our reader is.
 * Opened on the first progress request only: the file is decoded twice
 * while a chisel asks for progress.
 */
#ifndef SAVEFILE_PROGRESS_H
#define SAVEFILE_PROGRESS_H

#include <stdint.h>

struct read_mirror;

/* a mirror of path whose events start at first_event_off of the decoded
 * stream, or NULL */
struct read_mirror *read_mirror_open(const char *path, uint64_t first_event_off);
/* the fraction of the file (0..1) sysdig would report once its reader had
 * consumed the decoded stream up to consumed_off; -1 when unknown */
double read_mirror_progress(struct read_mirror *m, uint64_t consumed_off, uint64_t file_size);
void read_mirror_close(struct read_mirror *m);

#endif
