/*
 * scapbuild.h - byte-by-byte .scap file builder for the libscap tests.
 *
 * Builds blocks exactly as scap_format.md describes them, without using the
 * library's writer, so reader tests do not depend on the writer.  A struct
 * sbuf is a growable byte buffer; sb_block() frames a body as a block
 * (header, zero padding, trailer).
 */
#ifndef SCAPBUILD_H
#define SCAPBUILD_H

#include <stddef.h>
#include <stdint.h>

struct sbuf {
	uint8_t *p;
	size_t len, cap;
};

void sb_put(struct sbuf *b, const void *p, size_t n);
void sb_u8(struct sbuf *b, uint8_t v);
void sb_u16(struct sbuf *b, uint16_t v);
void sb_u32(struct sbuf *b, uint32_t v);
void sb_u64(struct sbuf *b, uint64_t v);
/* u16 length + bytes (no NUL) */
void sb_lstr(struct sbuf *b, const char *s);
void sb_lbytes(struct sbuf *b, const void *p, uint16_t n);
void sb_free(struct sbuf *b);

/* append a framed block holding body */
void sb_block(struct sbuf *out, uint32_t type, const struct sbuf *body);
/* 28-byte SHB */
void sb_shb(struct sbuf *out);
/* MI block with the given hostname */
void sb_mi(struct sbuf *out, const char *host, uint32_t ncpus);
/* PL_V9 with one thread 1234 "mytool" (scap_format.md 13.2) */
void sb_pl_mytool(struct sbuf *out);
/* FDL_V2 for tid with fd 3 = FILE_V2 /etc/hosts (with dev) */
void sb_fdl_hosts(struct sbuf *out, uint64_t tid);

/* one v2 event: params given as n (pointer, length) pairs */
struct sparam {
	const void *p;
	uint32_t len;
};
void sb_event(struct sbuf *out, uint64_t ts, uint64_t tid, uint16_t type,
	      uint32_t n, const struct sparam *pv, int wide);
/* an event block (EV_V2 when flags == 0 and !large, else EVF/_LARGE) */
void sb_evblock(struct sbuf *out, uint32_t blocktype, uint16_t cpu,
		uint32_t flags, const struct sbuf *ev);

/* write to path (gzip if gz); returns 0 */
int sb_write(const struct sbuf *b, const char *path, int gz);
/* read a whole file (decompressing gzip) */
int sb_read_file(const char *path, struct sbuf *out);

#endif
