/*
 * savefile_input.h - the byte source of the .scap reader (savefile_read.c):
 * read(2) for plain input, zlib inflate for gzip input, regular files and
 * pipes alike (the gzip magic decides).  Unlike gzread, every decoded byte
 * is handed out before a damage is reported, and a gzip stream that ends
 * early (cut file) or fails its CRC is an error, never a quiet end of file.
 */
#ifndef SAVEFILE_INPUT_H
#define SAVEFILE_INPUT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <zlib.h>

struct scap_input {
	int fd;
	int gzip;		/* inflating */
	int zinit;		/* zs initialised */
	z_stream zs;
	uint8_t *raw;		/* raw bytes read from fd */
	size_t rawcap;
	size_t pending;		/* plain: raw bytes read while sniffing, not handed out */
	size_t pending_off;
	int in_eof;		/* fd at end */
	int member_end;		/* a gzip member ended: more members may follow */
	uint64_t in_off;	/* raw bytes read from fd */
	int err;		/* errno of the failure (EIO for gzip damage), 0 */
	char msg[160];		/* what failed, e.g. "gzip: invalid block type" */
};

/* Sniff fd (owned from now on) for the gzip magic; 0, or -1 with err and
 * msg set (the fd is a directory, or cannot be read). */
int input_open(struct scap_input *in, int fd);
/* up to n decoded bytes: > 0, 0 at the end, -1 on error (err, msg) */
ssize_t input_read(struct scap_input *in, void *dst, size_t n);
/* raw (compressed) bytes consumed, for progress */
uint64_t input_raw_offset(const struct scap_input *in);
void input_close(struct scap_input *in);

#endif
