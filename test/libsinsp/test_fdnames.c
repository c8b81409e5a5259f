/*
 * test_fdnames.c - unit tests of the socket fd names of fds.c: the hand-made
 * formatting of ss_render_socktuple()/fd_tuple_name() against printf and
 * inet_ntop, and the current/previous unix tuple names that an fd table
 * entry switches between (fdinfo_set_unix_tuple_name) against rendering the
 * tuple every time.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <inttypes.h>
#include <arpa/inet.h>
#include <cmocka.h>
#include "sinsp_int.h"

/* a unix tuple: family, source, destination, path of plen bytes (no NUL) */
static uint32_t unix_tuple(uint8_t *v, uint64_t src, uint64_t dst, const char *path, size_t plen)
{
	v[0] = PPM_AF_UNIX;
	memcpy(v + 1, &src, 8);
	memcpy(v + 9, &dst, 8);
	memcpy(v + 17, path, plen);
	return (uint32_t)(17 + plen);
}

/* what the renderer must give, the printf way */
static void expect_unix(char *buf, size_t size, const uint8_t *v, uint32_t len)
{
	char path[SINSP_MAX_PATH];
	uint64_t src, dst;
	size_t i;

	memcpy(&src, v + 1, 8);
	memcpy(&dst, v + 9, 8);
	for (i = 0; i < len - 17 && i + 1 < sizeof(path) && v[17 + i]; i++)
		path[i] = (v[17 + i] < 0x20 || v[17 + i] == 0x7f) ? '.' : (char)v[17 + i];
	path[i] = 0;
	snprintf(buf, size, "%" PRIx64 "->%" PRIx64 " %s", src, dst, path);
}

static uint64_t rnd64(void)
{
	uint64_t x = ((uint64_t)rand() << 42) ^ ((uint64_t)rand() << 21) ^ (uint64_t)rand();

	return x >> (rand() % 64);
}

static void test_unix_render(void **state)
{
	char got[SINSP_MAX_PATH + 64], want[SINSP_MAX_PATH + 64], path[200];
	uint8_t v[300];
	size_t sizes[] = { sizeof(got), 60, 36, 35, 20, 1 };

	(void)state;
	srand(7);
	for (int it = 0; it < 20000; it++) {
		size_t plen = (size_t)(rand() % 120);
		uint32_t len;

		for (size_t i = 0; i < plen; i++) {
			int r = rand() % 12;

			path[i] = r == 0 ? (char)(rand() % 256) : r == 1 ? 0x7f : r == 2 ? 0x1f :
				  (char)('a' + rand() % 26);
		}
		len = unix_tuple(v, rnd64(), it % 7 ? rnd64() : 0, path, plen);
		for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
			memset(got, 1, sizeof(got));
			ss_render_socktuple(v, len, got, sizes[k]);
			expect_unix(want, sizes[k], v, len);
			assert_string_equal(got, want);
		}
	}
}

static void test_ipv4_render(void **state)
{
	char got[128], want[128], a[INET_ADDRSTRLEN], b[INET_ADDRSTRLEN];
	struct sinsp_fdinfo fdi;
	uint8_t v[13];
	uint16_t sp, dp;

	(void)state;
	srand(3);
	for (int it = 0; it < 20000; it++) {
		v[0] = PPM_AF_INET;
		for (int i = 1; i < 13; i++)
			v[i] = (uint8_t)(it % 5 ? rand() : (it % 2 ? 0 : 255));
		memcpy(&sp, v + 5, 2);
		memcpy(&dp, v + 11, 2);
		inet_ntop(AF_INET, v + 1, a, sizeof(a));
		inet_ntop(AF_INET, v + 7, b, sizeof(b));
		snprintf(want, sizeof(want), "%s:%u->%s:%u", a, sp, b, dp);
		ss_render_socktuple(v, sizeof(v), got, sizeof(got));
		assert_string_equal(got, want);
		fdinfo_init(&fdi, SCAP_FD_IPV4_SOCK);
		memcpy(fdi.sip, v + 1, 4);
		memcpy(fdi.dip, v + 7, 4);
		fdi.sport = sp;
		fdi.dport = dp;
		fd_tuple_name(&fdi, got, sizeof(got));
		assert_string_equal(got, want);
	}
}

/* an entry named by alternating, repeated and new tuples (and by other
 * means in between) always carries the name rendering would give */
static void test_unix_name_switch(void **state)
{
	struct fd_pool pool = { 0 };
	struct sinsp_fdtable *ft = fdtable_new(&pool), *copy = fdtable_new(&pool);
	const char *paths[] = { "/run/mysqld/mysqld.sock", "/run/mysqld/mysqld.sock\x01", "",
				"/tmp/a", "/tmp/b" };
	char want[SINSP_MAX_PATH + 64];
	struct sinsp_fdinfo init, *f;
	uint8_t v[200];

	(void)state;
	assert_non_null(ft);
	assert_non_null(copy);
	fdinfo_init(&init, SCAP_FD_UNIX_SOCK);
	f = fdtable_add(ft, 5, &init);
	assert_non_null(f);
	srand(11);
	for (int it = 0; it < 20000; it++) {
		int r = rand() % 40;
		const char *p = paths[rand() % 5];
		uint64_t a = 0xffff88811a9c5200ull + (uint64_t)(rand() % 3), b = 0xffff88811a9c6880ull;
		uint32_t len = rand() % 2 ? unix_tuple(v, a, b, p, strlen(p)) : unix_tuple(v, b, a, p, strlen(p));

		if (r == 0) {
			fdinfo_set_name(f, "something else");
		} else if (r == 1) {
			/* the entry is replaced (recycled through the pool) */
			fdtable_remove(ft, 5);
			f = fdtable_add(ft, 5, &init);
			assert_non_null(f);
			assert_string_equal(f->name, "");
		} else if (r == 2) {
			fdtable_clear(copy);
			fdtable_copy(copy, ft);
			assert_string_equal(sinsp_fd_lookup(copy, 5)->name, f->name);
			fdinfo_set_unix_tuple_name(sinsp_fd_lookup(copy, 5), v, len);
			expect_unix(want, sizeof(want), v, len);
			assert_string_equal(sinsp_fd_lookup(copy, 5)->name, want);
		}
		fdinfo_set_unix_tuple_name(f, v, len);
		expect_unix(want, sizeof(want), v, len);
		assert_string_equal(f->name, want);
	}
	fdtable_free(ft);
	fdtable_free(copy);
	fd_pool_free(&pool);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_unix_render),
		cmocka_unit_test(test_ipv4_render),
		cmocka_unit_test(test_unix_name_switch),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
