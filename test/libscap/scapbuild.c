/*
 * scapbuild.c - byte-by-byte .scap file builder for the libscap tests
 * (see scapbuild.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "scapbuild.h"

void sb_put(struct sbuf *b, const void *p, size_t n)
{
	if (b->len + n > b->cap) {
		size_t ncap = b->cap ? b->cap : 256;

		while (ncap < b->len + n)
			ncap *= 2;
		b->p = realloc(b->p, ncap);
		if (!b->p)
			abort();
		b->cap = ncap;
	}
	if (n)
		memcpy(b->p + b->len, p, n);
	b->len += n;
}

void sb_u8(struct sbuf *b, uint8_t v)
{
	sb_put(b, &v, 1);
}

void sb_u16(struct sbuf *b, uint16_t v)
{
	sb_put(b, &v, 2);
}

void sb_u32(struct sbuf *b, uint32_t v)
{
	sb_put(b, &v, 4);
}

void sb_u64(struct sbuf *b, uint64_t v)
{
	sb_put(b, &v, 8);
}

void sb_lbytes(struct sbuf *b, const void *p, uint16_t n)
{
	sb_u16(b, n);
	sb_put(b, p, n);
}

void sb_lstr(struct sbuf *b, const char *s)
{
	sb_lbytes(b, s, (uint16_t)strlen(s));
}

void sb_free(struct sbuf *b)
{
	free(b->p);
	memset(b, 0, sizeof(*b));
}

void sb_block(struct sbuf *out, uint32_t type, const struct sbuf *body)
{
	static const uint8_t zero[4];
	uint32_t total = (uint32_t)((8 + body->len + 4 + 3) & ~(size_t)3);

	sb_u32(out, type);
	sb_u32(out, total);
	sb_put(out, body->p, body->len);
	sb_put(out, zero, total - 12 - body->len);
	sb_u32(out, total);
}

void sb_shb(struct sbuf *out)
{
	struct sbuf b = { 0 };

	sb_u32(&b, 0x1A2B3C4D);
	sb_u16(&b, 1);
	sb_u16(&b, 2);
	sb_u64(&b, UINT64_MAX);
	sb_block(out, 0x0A0D0D0A, &b);
	sb_free(&b);
}

void sb_mi(struct sbuf *out, const char *host, uint32_t ncpus)
{
	struct sbuf b = { 0 };
	char h[128] = { 0 };

	strncpy(h, host, sizeof(h) - 1);
	sb_u32(&b, ncpus);
	sb_u64(&b, 1ull << 30);
	sb_u64(&b, 0);
	sb_put(&b, h, sizeof(h));
	sb_u64(&b, 0);
	sb_u64(&b, 0);
	sb_u64(&b, 0);
	sb_u64(&b, 0);
	sb_block(out, 0x201, &b);
	sb_free(&b);
}

void sb_pl_mytool(struct sbuf *out)
{
	struct sbuf b = { 0 }, e = { 0 };

	sb_u64(&e, 1234);
	sb_u64(&e, 1234);
	sb_u64(&e, 1);
	sb_u64(&e, 1234);	/* sid */
	sb_u64(&e, 1234);	/* vpgid */
	sb_lstr(&e, "mytool");
	sb_lstr(&e, "mytool");
	sb_lstr(&e, "/usr/bin/mytool");
	sb_lbytes(&e, "mytool\0--flag\0", 14);
	sb_lstr(&e, "/home/u/");
	sb_u64(&e, 1024);
	sb_u32(&e, 0);
	sb_u32(&e, 1000);
	sb_u32(&e, 1000);
	sb_u32(&e, 100);
	sb_u32(&e, 50);
	sb_u32(&e, 0);
	sb_u64(&e, 1);
	sb_u64(&e, 2);
	sb_lbytes(&e, "HOME=/home/u\0", 13);
	sb_u64(&e, 1234);
	sb_u64(&e, 1234);
	sb_lbytes(&e, "cpu=/\0", 6);
	sb_lstr(&e, "/");
	sb_u32(&e, 1000);	/* loginuid */
	sb_u8(&e, 0);		/* exe_writable */
	sb_u32(&b, (uint32_t)e.len + 4);
	sb_put(&b, e.p, e.len);
	sb_block(out, 0x215, &b);
	sb_free(&b);
	sb_free(&e);
}

void sb_fdl_hosts(struct sbuf *out, uint64_t tid)
{
	struct sbuf b = { 0 }, e = { 0 };

	sb_u64(&b, tid);
	sb_u64(&e, 3);
	sb_u64(&e, 77);
	sb_u8(&e, 16);
	sb_u32(&e, 1);
	sb_lstr(&e, "/etc/hosts");
	sb_u32(&e, 0x803);
	sb_u32(&b, (uint32_t)e.len + 4);
	sb_put(&b, e.p, e.len);
	sb_block(out, 0x218, &b);
	sb_free(&b);
	sb_free(&e);
}

void sb_event(struct sbuf *out, uint64_t ts, uint64_t tid, uint16_t type,
	      uint32_t n, const struct sparam *pv, int wide)
{
	uint32_t len = 26 + n * (wide ? 4 : 2), i;

	for (i = 0; i < n; i++)
		len += pv[i].len;
	sb_u64(out, ts);
	sb_u64(out, tid);
	sb_u32(out, len);
	sb_u16(out, type);
	sb_u32(out, n);
	for (i = 0; i < n; i++) {
		if (wide)
			sb_u32(out, pv[i].len);
		else
			sb_u16(out, (uint16_t)pv[i].len);
	}
	for (i = 0; i < n; i++)
		sb_put(out, pv[i].p, pv[i].len);
}

void sb_evblock(struct sbuf *out, uint32_t blocktype, uint16_t cpu,
		uint32_t flags, const struct sbuf *ev)
{
	struct sbuf b = { 0 };

	sb_u16(&b, cpu);
	if (blocktype == 0x208 || blocktype == 0x217 || blocktype == 0x222)
		sb_u32(&b, flags);
	sb_put(&b, ev->p, ev->len);
	sb_block(out, blocktype, &b);
	sb_free(&b);
}

int sb_write(const struct sbuf *b, const char *path, int gz)
{
	if (gz) {
		gzFile g = gzopen(path, "wb");

		if (!g || gzwrite(g, b->p, (unsigned)b->len) != (int)b->len)
			abort();
		return gzclose(g) == Z_OK ? 0 : -1;
	} else {
		FILE *f = fopen(path, "wb");

		if (!f || fwrite(b->p, 1, b->len, f) != b->len)
			abort();
		return fclose(f);
	}
}

int sb_read_file(const char *path, struct sbuf *out)
{
	gzFile g = gzopen(path, "rb");
	uint8_t tmp[65536];
	int r;

	if (!g)
		return -1;
	while ((r = gzread(g, tmp, sizeof(tmp))) > 0)
		sb_put(out, tmp, (size_t)r);
	gzclose(g);
	return r < 0 ? -1 : 0;
}
