/*
 * mangle.h - corrupt-file generator shared by scapmangle (CLI) and
 * robust_read (the robustness driver).  Deterministic: the same seed
 * always gives the same file, so every failure is reproducible with
 * `scapmangle flip IN OUT SEED`.
 */
#ifndef MANGLE_H
#define MANGLE_H

#include <stddef.h>
#include <stdint.h>

struct blob {
	uint8_t *p;
	size_t len;
};

/* splitmix64 step */
uint64_t mangle_rand(uint64_t *state);
/* whole file; *decoded gets the gunzipped content (same as raw when plain) */
int mangle_load(const char *path, struct blob *raw, struct blob *decoded,
		int *is_gz);
/* write len bytes of p to fd (gzip when gz); 0 or -1 */
int mangle_write_fd(int fd, const uint8_t *p, size_t len, int gz);
int mangle_write(const char *path, const uint8_t *p, size_t len, int gz);
/* flip 1..8 random bytes of b (XOR with a random non-zero byte) */
void mangle_flip(struct blob *b, uint64_t seed);
/* offsets of every block start of a decoded .scap stream (plus the end);
 * returns the count, *out malloc'd */
size_t mangle_boundaries(const struct blob *b, size_t **out);

/* remove block k (0 = the section header) of a decoded stream, in place;
 * returns the bytes removed, 0 when there is no block k */
size_t mangle_drop_block(struct blob *b, size_t k);

#endif
