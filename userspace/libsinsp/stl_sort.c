/*
 * stl_sort.c - std::sort's order of an array of pointers (see stl_sort.h).
 */
#include "stl_sort.h"

#define INSERTION_THRESHOLD 16

struct sorter {
	stl_less_fn less;
	void *arg;
};

static inline int lt(const struct sorter *s, void *a, void *b)
{
	return s->less(a, b, s->arg) != 0;
}

static inline void swap_at(void **v, size_t i, size_t j)
{
	void *t = v[i];

	v[i] = v[j];
	v[j] = t;
}

/* ---- heap sort (ranges past the depth limit) ---- */

/* the hole at hole moves down to a leaf, then x goes up from there */
static void adjust_heap(const struct sorter *s, void **v, size_t hole, size_t len, void *x)
{
	size_t top = hole, child = hole, parent;

	while (child < (len - 1) / 2) {
		child = 2 * (child + 1);
		if (lt(s, v[child], v[child - 1]))
			child--;
		v[hole] = v[child];
		hole = child;
	}
	if ((len & 1) == 0 && child == (len - 2) / 2) {
		child = 2 * (child + 1);
		v[hole] = v[child - 1];
		hole = child - 1;
	}
	parent = hole ? (hole - 1) / 2 : 0;
	while (hole > top && lt(s, v[parent], x)) {
		v[hole] = v[parent];
		hole = parent;
		parent = hole ? (hole - 1) / 2 : 0;
	}
	v[hole] = x;
}

static void heap_sort(const struct sorter *s, void **v, size_t n)
{
	if (n < 2)
		return;
	for (size_t parent = (n - 2) / 2;; parent--) {
		adjust_heap(s, v, parent, n, v[parent]);
		if (parent == 0)
			break;
	}
	for (size_t last = n - 1; last > 0; last--) {
		void *x = v[last];

		v[last] = v[0];
		adjust_heap(s, v, 0, last, x);
	}
}

/* ---- introsort ---- */

/* the median of v[a], v[b], v[c] swapped into v[0] */
static void median_to_first(const struct sorter *s, void **v, size_t a, size_t b, size_t c)
{
	if (lt(s, v[a], v[b])) {
		if (lt(s, v[b], v[c]))
			swap_at(v, 0, b);
		else if (lt(s, v[a], v[c]))
			swap_at(v, 0, c);
		else
			swap_at(v, 0, a);
	} else if (lt(s, v[a], v[c])) {
		swap_at(v, 0, a);
	} else if (lt(s, v[b], v[c])) {
		swap_at(v, 0, c);
	} else {
		swap_at(v, 0, b);
	}
}

/* partitions v[1..n) around the pivot v[0]; returns where the right part starts */
static size_t partition(const struct sorter *s, void **v, size_t n)
{
	size_t first = 1, last = n;

	for (;;) {
		while (lt(s, v[first], v[0]))
			first++;
		last--;
		while (lt(s, v[0], v[last]))
			last--;
		if (first >= last)
			return first;
		swap_at(v, first, last);
		first++;
	}
}

static void introsort_loop(const struct sorter *s, void **v, size_t n, unsigned depth)
{
	while (n > INSERTION_THRESHOLD) {
		size_t cut;

		if (depth == 0) {
			heap_sort(s, v, n);
			return;
		}
		depth--;
		median_to_first(s, v, 1, n / 2, n - 1);
		cut = partition(s, v, n);
		introsort_loop(s, v + cut, n - cut, depth);
		n = cut;
	}
}

/* v[i] moved left past the elements greater than it (no bound check) */
static void unguarded_insert(const struct sorter *s, void **v, size_t i)
{
	void *x = v[i];

	while (lt(s, x, v[i - 1])) {
		v[i] = v[i - 1];
		i--;
	}
	v[i] = x;
}

static void insertion_sort(const struct sorter *s, void **v, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		if (lt(s, v[i], v[0])) {
			void *x = v[i];

			for (size_t j = i; j > 0; j--)
				v[j] = v[j - 1];
			v[0] = x;
		} else {
			unguarded_insert(s, v, i);
		}
	}
}

static unsigned floor_log2(size_t n)
{
	return (unsigned)(sizeof(unsigned long long) * 8 - 1 - (unsigned)__builtin_clzll(n));
}

void stl_sort(void **v, size_t n, stl_less_fn less, void *arg)
{
	struct sorter s = { less, arg };

	if (n < 2)
		return;
	introsort_loop(&s, v, n, 2 * floor_log2(n));
	if (n > INSERTION_THRESHOLD) {
		insertion_sort(&s, v, INSERTION_THRESHOLD);
		for (size_t i = INSERTION_THRESHOLD; i < n; i++)
			unguarded_insert(&s, v, i);
	} else {
		insertion_sort(&s, v, n);
	}
}
