/*
 * filter_set.c - hash sets of the values of large 'in (...)' lists.
 *
 * A check "field in (v1, ..., vn)" compares with every value in turn; from
 * VSET_MIN values on, the compiler (filter.c) also builds a set of them so
 * that filter_compare and the in-place proc.name / fd.type checks
 * (filter_eval.c) answer with one lookup.  Strings and buffers are keyed by
 * their bytes, integers by their value (signed kinds by the signed value).
 * Open addressing with linear probing over indexes into the check's values.
 */
#include <stdlib.h>
#include <string.h>
#include "filter_internal.h"

struct vset {
	uint32_t *slot;		/* index + 1 into the check's vals; 0 = empty */
	uint32_t mask;
};

static uint64_t hash_bytes(const char *s, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;	/* FNV-1a */

	for (size_t i = 0; i < n; i++)
		h = (h ^ (uint8_t)s[i]) * 0x100000001b3ull;
	return h;
}

static uint64_t hash_int(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	return x;
}

static int is_string(const struct fnode *c)
{
	return c->ck == CK_STRING || c->ck == CK_BUFFER;
}

static uint64_t int_key(const struct fnode *c, const struct fvalue *w)
{
	return c->ck == CK_SIGNED ? (uint64_t)w->i : w->u;
}

static uint64_t value_hash(const struct fnode *c, const struct fvalue *w)
{
	return is_string(c) ? hash_bytes(w->s, w->len) : hash_int(int_key(c, w));
}

int vset_supported(const struct fnode *c)
{
	return c->op == OP_IN && c->nvals >= VSET_MIN &&
	       (is_string(c) || c->ck == CK_SIGNED || c->ck == CK_UNSIGNED);
}

int vset_build(struct fnode *c)
{
	struct vset *set = calloc(1, sizeof(*set));
	uint32_t cap = 16;

	while (cap < 2 * c->nvals)
		cap *= 2;
	if (!set || !(set->slot = calloc(cap, sizeof(*set->slot)))) {
		free(set);
		return -1;	/* the linear scan still works */
	}
	set->mask = cap - 1;
	for (uint32_t i = 0; i < c->nvals; i++) {
		const struct fvalue *w = &c->vals[i];
		uint32_t k = (uint32_t)value_hash(c, w) & set->mask;

		/* duplicates are kept once */
		for (; set->slot[k]; k = (k + 1) & set->mask) {
			const struct fvalue *o = &c->vals[set->slot[k] - 1];

			if (is_string(c) ? o->len == w->len && !memcmp(o->s, w->s, w->len) :
			    int_key(c, o) == int_key(c, w))
				break;
		}
		if (!set->slot[k])
			set->slot[k] = i + 1;
	}
	c->set = set;
	return 0;
}

int vset_has_str(const struct fnode *c, const char *s, size_t n)
{
	const struct vset *set = c->set;

	for (uint32_t k = (uint32_t)hash_bytes(s, n) & set->mask; set->slot[k];
	     k = (k + 1) & set->mask) {
		const struct fvalue *w = &c->vals[set->slot[k] - 1];

		if (w->len == n && !memcmp(w->s, s, n))
			return 1;
	}
	return 0;
}

int vset_has_int(const struct fnode *c, uint64_t key)
{
	const struct vset *set = c->set;

	for (uint32_t k = (uint32_t)hash_int(key) & set->mask; set->slot[k];
	     k = (k + 1) & set->mask)
		if (int_key(c, &c->vals[set->slot[k] - 1]) == key)
			return 1;
	return 0;
}

void vset_free(struct fnode *c)
{
	if (c->set) {
		free(c->set->slot);
		free(c->set);
		c->set = NULL;
	}
}
