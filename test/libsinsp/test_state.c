/*
 * test_state.c - unit tests of the state engine on events built in memory.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "sinsp.h"
#include "memengine.h"

static void placeholder(void **st)
{
	struct scap *h = mem_open();
	struct sinsp_evt evt;
	struct sinsp *s;

	(void)st;
	ev_begin(h, PPME_SYSCALL_CLOSE_E, 42, 1);
	ev_i64(h, 3);
	ev_end(h, 0);
	s = sinsp_open(h, NULL);
	assert_int_equal(sinsp_next(s, &evt), SCAP_SUCCESS);
	assert_non_null(evt.thread);
	assert_string_equal(evt.thread->comm, "<NA>");
	assert_int_equal(evt.thread->ptid, -1);
	assert_int_equal(evt.thread->uid, 0xFFFFFFFF);
	assert_int_equal(sinsp_next(s, &evt), SCAP_EOF);
	sinsp_close(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(placeholder),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
