/*
 * stl_hash.h - a chained hash table that keeps its nodes in the order a
 * libstdc++ (GCC 12) std::unordered_map with unique keys keeps them.
 *
 * The reference keeps csysdig's rows and its thread table in such maps, so
 * the order in which it walks them (rows tied on the sort column, the
 * thread pass at the end of a sample) is this order.  The facts it follows
 * (observed with g++ 12 and checked by test/csysdig/stl_order.sh):
 * - one singly linked list of all nodes; each bucket points at the node
 *   BEFORE its first one (the list head for the bucket that starts it);
 * - a new node goes first in its bucket, or at the front of the list when
 *   its bucket is empty;
 * - the bucket of a hash is hash % bucket count; the count starts at 1,
 *   becomes 13 on the first insertion, and grows through a fixed series of
 *   primes (29, 59, 127, ...) when an insertion would make the number of
 *   nodes exceed the count (maximum load factor 1); a growth relinks the
 *   nodes walking the old list, each one going first in its new bucket or
 *   at the front of the list when that bucket is still empty;
 * - clearing keeps the bucket count; erasing unlinks without moving others.
 * The caller owns the nodes (embedded in its own structs) and compares keys.
 */
#ifndef STL_HASH_H
#define STL_HASH_H

#include <stddef.h>
#include <stdint.h>

struct stl_hash_node {
	struct stl_hash_node *next;
	size_t hash;
};

struct stl_hash {
	struct stl_hash_node head;	/* head.next: the first node */
	struct stl_hash_node **buckets;	/* node before the bucket's first, NULL: empty */
	size_t nbuckets;
	size_t count;
	size_t next_resize;	/* grows when count would exceed this */
};

void stl_hash_init(struct stl_hash *h);
/* frees the buckets (the nodes are the caller's) */
void stl_hash_free(struct stl_hash *h);
/* unlinks every node, keeping the bucket count */
void stl_hash_clear(struct stl_hash *h);
/* adds n (its key must not be in h yet); -1 when out of memory */
int stl_hash_insert(struct stl_hash *h, struct stl_hash_node *n, size_t hash);
void stl_hash_erase(struct stl_hash *h, struct stl_hash_node *n);
/* puts n where old is (a value replaced under the same key) */
void stl_hash_replace(struct stl_hash *h, struct stl_hash_node *old, struct stl_hash_node *n);
/* the nodes of hash's bucket (compare keys there): first, then next until NULL */
struct stl_hash_node *stl_hash_bucket_first(const struct stl_hash *h, size_t hash);
struct stl_hash_node *stl_hash_bucket_next(const struct stl_hash *h, const struct stl_hash_node *n);
/* the iteration order: first node, then ->next */
static inline struct stl_hash_node *stl_hash_first(const struct stl_hash *h)
{
	return h->head.next;
}

/* the hash the reference's csysdig tables give a key of len bytes: h * 101
 * plus each byte, over all bytes but the last one */
size_t stl_hash_table_key(const void *p, size_t len);

#endif
