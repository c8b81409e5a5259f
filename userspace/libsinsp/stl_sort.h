/*
 * stl_sort.h - sorts an array of pointers into the order libstdc++'s
 * std::sort (GCC 12) leaves it in, ties included.
 *
 * std::sort is an introsort and not stable: which of two equal elements
 * comes first depends on its exact steps, so the reference's csysdig shows
 * rows tied on the sort column in the order this reproduces (checked
 * against g++'s std::sort by test/csysdig/stl_order.sh).  The steps, as
 * the library behaves:
 * - while a range has more than 16 elements: the median of its second,
 *   middle (first + n/2) and last elements is swapped to the front and the
 *   rest is partitioned around it (scanning from both ends, stopping on
 *   elements equal to the pivot, swapping); the right part is sorted
 *   first, recursively, then the loop goes on with the left part; after
 *   2*floor(log2(n)) levels a range is heap-sorted instead;
 * - then one insertion sort over the whole array (the first 16 elements
 *   with a check against the first, the rest unguarded).
 */
#ifndef STL_SORT_H
#define STL_SORT_H

#include <stddef.h>

/* less(a, b, arg): non-zero when a goes before b (a strict weak order) */
typedef int (*stl_less_fn)(const void *a, const void *b, void *arg);

void stl_sort(void **v, size_t n, stl_less_fn less, void *arg);

#endif
