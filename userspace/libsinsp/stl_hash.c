/*
 * stl_hash.c - the node order of a libstdc++ std::unordered_map (see
 * stl_hash.h for the rules this follows).
 */
#include <stdlib.h>
#include <string.h>
#include "stl_hash.h"

/* the bucket counts libstdc++ 12 goes through as elements are inserted one
 * at a time (each the smallest prime of its list >= twice the one before) */
static const size_t g_growth[] = {
	13, 29, 59, 127, 257, 541, 1109, 2357, 5087, 10273, 20753, 42043, 85229,
	172933, 351061, 712697, 1447153, 2938679, 5967347, 12117689, 24607243,
	49969847, 101473717, 206062531, 418451333, 849749479, 1725587117,
	3504151727u,
};

static size_t next_bucket_count(size_t cur)
{
	for (size_t i = 0; i < sizeof(g_growth) / sizeof(g_growth[0]); i++)
		if (g_growth[i] > cur)
			return g_growth[i];
	return cur * 2 + 1;	/* past 3.5 G nodes: not reached */
}

void stl_hash_init(struct stl_hash *h)
{
	memset(h, 0, sizeof(*h));
	h->nbuckets = 1;
}

void stl_hash_free(struct stl_hash *h)
{
	free(h->buckets);
	stl_hash_init(h);
}

void stl_hash_clear(struct stl_hash *h)
{
	if (h->buckets)
		memset(h->buckets, 0, h->nbuckets * sizeof(*h->buckets));
	h->head.next = NULL;
	h->count = 0;
}

static inline size_t bucket_of(const struct stl_hash *h, size_t hash)
{
	return hash % h->nbuckets;
}

/* n first in bucket b of buckets (of count nb) */
static void link_first(struct stl_hash *h, struct stl_hash_node **buckets, size_t nb,
		       struct stl_hash_node *n, size_t b)
{
	if (buckets[b]) {
		n->next = buckets[b]->next;
		buckets[b]->next = n;
		return;
	}
	n->next = h->head.next;
	h->head.next = n;
	if (n->next)
		buckets[n->next->hash % nb] = n;
	buckets[b] = &h->head;
}

static int grow(struct stl_hash *h, size_t nb)
{
	struct stl_hash_node **nbk = calloc(nb, sizeof(*nbk));
	struct stl_hash_node *p = h->head.next;

	if (!nbk)
		return -1;
	h->head.next = NULL;
	while (p) {
		struct stl_hash_node *next = p->next;

		link_first(h, nbk, nb, p, p->hash % nb);
		p = next;
	}
	free(h->buckets);
	h->buckets = nbk;
	h->nbuckets = nb;
	h->next_resize = nb;
	return 0;
}

int stl_hash_insert(struct stl_hash *h, struct stl_hash_node *n, size_t hash)
{
	if (h->count + 1 > h->next_resize && grow(h, next_bucket_count(h->nbuckets)))
		return -1;
	n->hash = hash;
	link_first(h, h->buckets, h->nbuckets, n, bucket_of(h, hash));
	h->count++;
	return 0;
}

/* the node before n */
static struct stl_hash_node *before(const struct stl_hash *h, const struct stl_hash_node *n)
{
	struct stl_hash_node *p = h->buckets[bucket_of(h, n->hash)];

	while (p->next != n)
		p = p->next;
	return p;
}

void stl_hash_erase(struct stl_hash *h, struct stl_hash_node *n)
{
	size_t b = bucket_of(h, n->hash);
	struct stl_hash_node *prev = before(h, n), *next = n->next;
	size_t nextb = next ? bucket_of(h, next->hash) : 0;

	if (prev == h->buckets[b]) {
		/* n starts its bucket: the bucket empties when next is elsewhere */
		if (!next || nextb != b) {
			if (next)
				h->buckets[nextb] = prev;
			h->buckets[b] = NULL;
		}
	} else if (next && nextb != b) {
		h->buckets[nextb] = prev;
	}
	prev->next = next;
	h->count--;
}

void stl_hash_replace(struct stl_hash *h, struct stl_hash_node *old, struct stl_hash_node *n)
{
	struct stl_hash_node *prev = before(h, old);

	n->hash = old->hash;
	n->next = old->next;
	prev->next = n;
	if (n->next && h->buckets[bucket_of(h, n->next->hash)] == old)
		h->buckets[bucket_of(h, n->next->hash)] = n;
}

struct stl_hash_node *stl_hash_bucket_first(const struct stl_hash *h, size_t hash)
{
	struct stl_hash_node *p;

	if (!h->count)
		return NULL;
	p = h->buckets[bucket_of(h, hash)];
	return p ? p->next : NULL;
}

struct stl_hash_node *stl_hash_bucket_next(const struct stl_hash *h, const struct stl_hash_node *n)
{
	struct stl_hash_node *p = n->next;

	return p && bucket_of(h, p->hash) == bucket_of(h, n->hash) ? p : NULL;
}

size_t stl_hash_table_key(const void *p, size_t len)
{
	const uint8_t *b = p;
	size_t h = 0;

	for (size_t i = 0; i + 1 < len; i++)
		h = h * 101 + b[i];
	return h;
}
