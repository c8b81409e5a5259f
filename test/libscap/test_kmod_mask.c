/*
 * test_kmod_mask.c - the kernel module's event mask as the live engine
 * computes it (scap_kmod_mask, engine/kmod) from a capture filter's event
 * types (as sysdig's live pushdown does: filter_may_match_type per type):
 * the types the filter names, whole enter/exit pairs, and always the
 * state events (clone/fork/vfork/clone3/execve/execveat, procexit, close,
 * the fd-creating calls), so processes started after the capture began
 * are still known; the other types are left out; --stacks bits.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "scap.h"
#include "event_table.h"
#include "kmod_engine.h"
#include "kmod_abi.h"
#include "filter.h"

static uint8_t types[PPM_EVENT_MAX];

/* the mask for filter expr, computed as sysdig's live capture does */
static void mask_for(const char *expr, const uint8_t *stacks, struct kmod_mask *m)
{
	struct scap_live_opts o = { 0 };
	char err[256];
	struct filter *f = filter_compile(expr, err, sizeof(err));

	assert_non_null(f);
	for (int t = 0; t < PPM_EVENT_MAX; t++)
		types[t] = filter_may_match_type(f, (uint16_t)t);
	filter_free(f);
	o.syscall_mask = types;
	o.stack_mask = stacks;
	scap_kmod_mask(&o, m);
}

static void assert_pair(const struct kmod_mask *m, uint16_t enter, int on)
{
	if (on) {
		assert_true(m->events[enter] & KMOD_MASK_CAPTURE);
		assert_true(m->events[enter + 1] & KMOD_MASK_CAPTURE);
	} else {
		assert_int_equal(m->events[enter], 0);
		assert_int_equal(m->events[enter + 1], 0);
	}
}

static const uint16_t state_events[] = {
	PPME_SYSCALL_CLONE_20_E, PPME_SYSCALL_FORK_20_E, PPME_SYSCALL_VFORK_20_E,
	PPME_SYSCALL_CLONE3_E, PPME_SYSCALL_EXECVE_19_E, PPME_SYSCALL_EXECVEAT_E,
	PPME_PROCEXIT_1_E, PPME_SYSCALL_CLOSE_E, PPME_SOCKET_SOCKET_E,
	PPME_SYSCALL_OPENAT_2_E, PPME_SYSCALL_CHDIR_E,
};

static void test_filter_with_types_keeps_state(void **state)
{
	struct kmod_mask m;

	(void)state;
	mask_for("proc.name=wl_writer and evt.type=write", NULL, &m);
	assert_pair(&m, PPME_SYSCALL_WRITE_E, 1);
	for (size_t i = 0; i < sizeof(state_events) / sizeof(state_events[0]); i++)
		assert_pair(&m, state_events[i], 1);
	assert_pair(&m, PPME_SYSCALL_READ_E, 0);
	assert_pair(&m, PPME_SYSCALL_NANOSLEEP_E, 0);
	assert_pair(&m, PPME_SCHEDSWITCH_6_E, 0);
	assert_pair(&m, PPME_SIGNALDELIVER_E, 0);
	/* no stack bits without --stacks */
	assert_int_equal(m.events[PPME_SYSCALL_WRITE_E], KMOD_MASK_CAPTURE);
}

/* a filter naming only an exit ("<" direction) still gets the pair */
static void test_exit_only_type_gets_pair(void **state)
{
	struct kmod_mask m;

	(void)state;
	mask_for("evt.type=read and evt.dir=<", NULL, &m);
	assert_pair(&m, PPME_SYSCALL_READ_E, 1);
	assert_pair(&m, PPME_SYSCALL_WRITE_E, 0);
	assert_pair(&m, PPME_SYSCALL_EXECVE_19_E, 1);
}

static void test_no_mask_captures_all(void **state)
{
	struct scap_live_opts o = { 0 };
	struct kmod_mask m;

	(void)state;
	scap_kmod_mask(&o, &m);
	for (int t = 0; t < PPM_EVENT_MAX; t++)
		assert_int_equal(m.events[t], KMOD_MASK_CAPTURE);
}

static void test_stacks_on_selected_enters(void **state)
{
	static uint8_t stacks[PPM_EVENT_MAX];
	struct kmod_mask m;

	(void)state;
	stacks[PPME_SYSCALL_WRITE_X] = 1;
	stacks[PPME_SYSCALL_READ_E] = 1;	/* not captured: no stack */
	mask_for("evt.type=write", stacks, &m);
	assert_int_equal(m.events[PPME_SYSCALL_WRITE_E], KMOD_MASK_CAPTURE | KMOD_MASK_STACK);
	assert_int_equal(m.events[PPME_SYSCALL_WRITE_X], KMOD_MASK_CAPTURE);
	assert_int_equal(m.events[PPME_SYSCALL_READ_E], 0);
	assert_int_equal(m.events[PPME_SYSCALL_CLONE_20_E], KMOD_MASK_CAPTURE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_filter_with_types_keeps_state),
		cmocka_unit_test(test_exit_only_type_gets_pair),
		cmocka_unit_test(test_no_mask_captures_all),
		cmocka_unit_test(test_stacks_on_selected_enters),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
