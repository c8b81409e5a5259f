/*
 * test_stl_order.c: stl_hash and stl_sort against libstdc++ (stl_order.sh).
 *   test_stl_order gen SEED   random cases (the format of stl_order_oracle.cpp)
 *   test_stl_order run        replays them on stl_hash / stl_sort, prints the orders
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "stl_hash.h"
#include "stl_sort.h"

struct key {
	struct stl_hash_node node;	/* first */
	size_t len;
	unsigned char b[16];
};

struct tid {
	struct stl_hash_node node;	/* first */
	long long tid;
	struct tid *all;		/* every allocation, to free them */
};

static unsigned long long g_rand;

static unsigned rnd(unsigned n)
{
	g_rand = g_rand * 6364136223846793005ULL + 1442695040888963407ULL;
	return (unsigned)((g_rand >> 33) % n);
}

/* McIlroy's adversary ("A killer adversary for quicksort"): values fixed
 * lazily as the sort compares them, so that stl_sort goes as deep as it can
 * (to its heap sort); the same input then checks libstdc++ there too */
static int *g_val, g_gas, g_solid, g_cand;

static int adversary_less(const void *a, const void *b, void *arg)
{
	int x = *(const int *)a, y = *(const int *)b;

	(void)arg;
	if (g_val[x] == g_gas && g_val[y] == g_gas)
		g_val[x == g_cand ? x : y] = g_solid++;
	if (g_val[x] == g_gas)
		g_cand = x;
	else if (g_val[y] == g_gas)
		g_cand = y;
	return g_val[x] < g_val[y];
}

static void gen_killer(unsigned n)
{
	int *idx = malloc(n * sizeof(*idx));
	void **p = malloc(n * sizeof(*p));

	g_val = malloc(n * sizeof(*g_val));
	if (!idx || !p || !g_val)
		exit(1);
	g_gas = (int)n;
	g_solid = 0;
	g_cand = 0;
	for (unsigned i = 0; i < n; i++) {
		g_val[i] = g_gas;
		idx[i] = (int)i;
		p[i] = &idx[i];
	}
	stl_sort(p, n, adversary_less, NULL);
	printf("S 1 %u", n);
	for (unsigned i = 0; i < n; i++)	/* ties: pairs of values */
		printf(" %d", (g_val[i] == g_gas ? g_solid + (int)(i % 5) : g_val[i]) / 2);
	printf("\n");
	free(idx);
	free(p);
	free(g_val);
}

static void gen(unsigned long long seed)
{
	g_rand = seed;
	for (int c = 0; c < 400; c++) {
		unsigned nops = 1 + rnd(c % 8 == 0 ? 3000 : 200), span = 1 + rnd(c % 3 ? 64 : 5000);

		for (unsigned i = 0; i < nops; i++) {
			unsigned what = rnd(100);

			if (what < 45) {	/* a key: a number's bytes or a short string */
				unsigned len = rnd(2) ? 8 : 1 + rnd(12), v = rnd(span);

				printf("K %u ", len);
				for (unsigned j = 0; j < len; j++)
					printf("%02x", len == 8 ? (j < 4 ? (v >> (8 * j)) & 0xff : 0) :
					       (unsigned)"abcd/._-"[(v >> (3 * (j % 4))) & 7]);
				printf("\n");
			} else if (what < 80) {
				printf("T %u\n", rnd(span));
			} else if (what < 98) {
				printf("E %u\n", rnd(span));
			} else if (what < 99 && c % 5 == 0) {
				printf("C\n");
			}
		}
		printf("P\n");
		unsigned n = rnd(c % 4 == 0 ? 2000 : 60), ties = 1 + rnd(c % 2 ? 4 : 40);

		printf("S %u %u", rnd(2), n);
		for (unsigned i = 0; i < n; i++)
			printf(" %u", rnd(ties));
		printf("\n");
		if (c % 20 == 0)
			gen_killer(100 + rnd(3000));
		if (c % 7 == 0) {	/* sorted input, reversed input */
			printf("S 1 %u", n);
			for (unsigned i = 0; i < n; i++)
				printf(" %u", i * ties / (n ? n : 1));
			printf("\nS 0 %u", n);
			for (unsigned i = 0; i < n; i++)
				printf(" %u", i * ties / (n ? n : 1));
			printf("\n");
		}
	}
}

static int by_value(const void *a, const void *b, void *arg)
{
	const int *v = arg;
	int x = v[*(const int *)a], y = v[*(const int *)b];

	return v[-1] ? x < y : x > y;
}

static int run(void)
{
	struct stl_hash keys, tids;
	struct key **kall = NULL;
	size_t nk = 0, kcap = 0;
	struct tid *tall = NULL;
	char op[4];

	stl_hash_init(&keys);
	stl_hash_init(&tids);
	while (scanf("%3s", op) == 1) {
		if (!strcmp(op, "K")) {
			struct key *k = calloc(1, sizeof(*k));
			char hex[40];
			struct stl_hash_node *n;
			size_t h;

			if (!k || scanf("%zu %39s", &k->len, hex) != 2 || k->len > 16)
				return 1;
			for (size_t i = 0; i < k->len; i++) {
				unsigned x;

				sscanf(hex + 2 * i, "%2x", &x);
				k->b[i] = (unsigned char)x;
			}
			h = stl_hash_table_key(k->b, k->len);
			for (n = stl_hash_bucket_first(&keys, h); n; n = stl_hash_bucket_next(&keys, n)) {
				struct key *o = (struct key *)n;

				if (o->len == k->len && !memcmp(o->b, k->b, k->len))
					break;
			}
			if (nk == kcap) {
				kcap = kcap ? 2 * kcap : 1024;
				kall = realloc(kall, kcap * sizeof(*kall));
				if (!kall)
					return 1;
			}
			if (n)
				free(k);
			else if (stl_hash_insert(&keys, &k->node, h))
				return 1;
			else
				kall[nk++] = k;
		} else if (!strcmp(op, "T") || !strcmp(op, "E")) {
			long long v;
			struct stl_hash_node *n;

			if (scanf("%lld", &v) != 1)
				return 1;
			for (n = stl_hash_bucket_first(&tids, (size_t)v); n; n = stl_hash_bucket_next(&tids, n))
				if (((struct tid *)n)->tid == v)
					break;
			if (op[0] == 'E') {
				if (n)
					stl_hash_erase(&tids, n);
			} else if (!n) {
				struct tid *t = calloc(1, sizeof(*t));

				if (!t)
					return 1;
				t->tid = v;
				t->all = tall;
				tall = t;
				if (stl_hash_insert(&tids, &t->node, (size_t)v))
					return 1;
			}
		} else if (!strcmp(op, "C")) {
			stl_hash_clear(&keys);
			stl_hash_clear(&tids);
		} else if (!strcmp(op, "P")) {
			printf("keys");
			for (struct stl_hash_node *n = stl_hash_first(&keys); n; n = n->next) {
				struct key *k = (struct key *)n;

				printf(" ");
				for (size_t i = 0; i < k->len; i++)
					printf("%02x", k->b[i]);
			}
			printf("\ntids");
			for (struct stl_hash_node *n = stl_hash_first(&tids); n; n = n->next)
				printf(" %lld", ((struct tid *)n)->tid);
			printf("\n");
		} else if (!strcmp(op, "S")) {
			int asc;
			size_t n;

			if (scanf("%d %zu", &asc, &n) != 2)
				return 1;
			int *v = malloc((n + 1) * sizeof(*v)), *idx = malloc((n + 1) * sizeof(*idx));
			void **p = malloc((n + 1) * sizeof(*p));

			if (!v || !idx || !p)
				return 1;
			v[0] = asc;
			for (size_t i = 0; i < n; i++) {
				if (scanf("%d", &v[i + 1]) != 1)
					return 1;
				idx[i] = (int)i;
				p[i] = &idx[i];
			}
			stl_sort(p, n, by_value, v + 1);
			printf("sort");
			for (size_t i = 0; i < n; i++)
				printf(" %d", *(int *)p[i]);
			printf("\n");
			free(v);
			free(idx);
			free(p);
		}
	}
	for (size_t i = 0; i < nk; i++)
		free(kall[i]);
	free(kall);
	while (tall) {
		struct tid *t = tall;

		tall = t->all;
		free(t);
	}
	stl_hash_free(&keys);
	stl_hash_free(&tids);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "gen")) {
		gen(strtoull(argv[2], NULL, 0));
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "run"))
		return run();
	fprintf(stderr, "usage: test_stl_order gen SEED | run\n");
	return 2;
}
