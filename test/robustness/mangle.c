/*
 * mangle.c - corrupt-file generator (see mangle.h).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "mangle.h"

uint64_t mangle_rand(uint64_t *state)
{
	uint64_t z = (*state += 0x9E3779B97F4A7C15ull);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

static int append(struct blob *b, const void *p, size_t n)
{
	uint8_t *np = realloc(b->p, b->len + n + 1);

	if (!np)
		return -1;
	b->p = np;
	memcpy(b->p + b->len, p, n);
	b->len += n;
	return 0;
}

int mangle_load(const char *path, struct blob *raw, struct blob *decoded,
		int *is_gz)
{
	uint8_t buf[65536];
	FILE *f = fopen(path, "rb");
	gzFile g;
	size_t r;
	int n;

	memset(raw, 0, sizeof(*raw));
	memset(decoded, 0, sizeof(*decoded));
	if (!f)
		return -1;
	while ((r = fread(buf, 1, sizeof(buf), f)) > 0)
		if (append(raw, buf, r))
			return fclose(f), -1;
	fclose(f);
	*is_gz = raw->len >= 2 && raw->p[0] == 0x1f && raw->p[1] == 0x8b;
	g = gzopen(path, "rb");
	if (!g)
		return -1;
	while ((n = gzread(g, buf, sizeof(buf))) > 0)
		if (append(decoded, buf, (size_t)n))
			return gzclose(g), -1;
	gzclose(g);
	return n < 0 ? -1 : 0;
}

int mangle_write_fd(int fd, const uint8_t *p, size_t len, int gz)
{
	if (gz) {
		gzFile g = gzdopen(dup(fd), "wb1");

		if (!g)
			return -1;
		if (len && gzwrite(g, p, (unsigned)len) != (int)len) {
			gzclose(g);
			return -1;
		}
		return gzclose(g) == Z_OK ? 0 : -1;
	}
	while (len) {
		ssize_t w = write(fd, p, len);

		if (w <= 0)
			return -1;
		p += w;
		len -= (size_t)w;
	}
	return 0;
}

int mangle_write(const char *path, const uint8_t *p, size_t len, int gz)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644), rc;

	if (fd < 0)
		return -1;
	rc = mangle_write_fd(fd, p, len, gz);
	return close(fd) || rc ? -1 : 0;
}

void mangle_flip(struct blob *b, uint64_t seed)
{
	uint64_t st = seed * 0x2545F4914F6CDD1Dull + 1;
	int n, i;

	if (!b->len)
		return;
	n = 1 + (int)(mangle_rand(&st) % 8);
	for (i = 0; i < n; i++) {
		size_t off = mangle_rand(&st) % b->len;
		uint8_t x = (uint8_t)(1 + mangle_rand(&st) % 255);

		b->p[off] ^= x;
	}
}

size_t mangle_boundaries(const struct blob *b, size_t **out)
{
	size_t off = 0, n = 0, cap = 64;
	size_t *v = malloc(cap * sizeof(*v));

	while (v) {
		uint32_t total;

		if (n == cap) {
			size_t *nv = realloc(v, (cap *= 2) * sizeof(*v));

			if (!nv)
				break;
			v = nv;
		}
		v[n++] = off;
		if (off + 8 > b->len)
			break;
		memcpy(&total, b->p + off + 4, 4);
		if (total < 12 || total > b->len - off)
			break;
		off += total;
	}
	*out = v;
	return v ? n : 0;
}

size_t mangle_drop_block(struct blob *b, size_t k)
{
	size_t *v, n = mangle_boundaries(b, &v), a, e;

	if (k + 1 >= n) {
		free(v);
		return 0;
	}
	a = v[k];
	e = v[k + 1];
	memmove(b->p + a, b->p + e, b->len - e);
	b->len -= e - a;
	free(v);
	return e - a;
}
