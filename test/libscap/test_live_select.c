/*
 * test_live_select.c - unit tests of the kernel-side selection plan both
 * live engines push into their driver (userspace/libscap/live_select.c):
 * the flags of each option, the comm bytes and mask, -U names and lists
 * of names (those no task can have left out, more than the driver holds
 * refused), container ids (pushed only when all are 12 characters), the ids
 * (beyond the pid limit left out), the descendants of a tree's roots in a
 * /proc snapshot and the lifecycle events.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "live_select.h"

static void plan_comm(void **state)
{
	struct scap_live_opts o = { .comm = "stackprog" };
	struct live_select ls;
	char err[SCAP_ERRBUF_SIZE];
	uint8_t name[16], mask[16];

	(void)state;
	assert_int_equal(live_select_plan(&o, &ls, err), 0);
	assert_int_equal(ls.flags, SCAP_BPF_F_COMM);
	memcpy(name, ls.comm, 16);
	memcpy(mask, ls.comm_mask, 16);
	assert_memory_equal(name, "stackprog\0\0\0\0\0\0", 16);
	/* its 9 bytes and its NUL */
	for (int i = 0; i < 16; i++)
		assert_int_equal(mask[i], i < 10 ? 0xff : 0);
	/* 16 characters: no task is named so, nothing pushed down */
	o.comm = "a_name_too_long_";
	assert_int_equal(live_select_plan(&o, &ls, err), 0);
	assert_int_equal(ls.flags, 0);
}

/* n names "<c>0", "<c>1", ... in many[], pointed to by names[] */
static void many_names(const char **names, char (*many)[16], int n, char c)
{
	for (int i = 0; i < n; i++) {
		snprintf(many[i], sizeof(many[i]), "%c%d", c, i % 100);
		names[i] = many[i];
	}
}

static void plan_suppress(void **state)
{
	const char *names[SCAP_BPF_MAX_SUPPRESSED + 2];
	char many[SCAP_BPF_MAX_SUPPRESSED + 2][16];
	struct scap_live_opts o = { .suppress = names, .nsuppress = 3 };
	struct live_select ls;
	char err[SCAP_ERRBUF_SIZE] = "";

	(void)state;
	names[0] = "dd";
	names[1] = "";
	names[2] = "sixteen_letters_";
	assert_int_equal(live_select_plan(&o, &ls, err), 0);
	assert_int_equal(ls.flags, SCAP_BPF_F_SUPPRESS);
	assert_int_equal(ls.nsuppress, 1);
	assert_memory_equal(ls.suppress[0].name, "dd\0\0\0\0\0\0\0\0\0\0\0\0\0\0", 16);
	many_names(names, many, SCAP_BPF_MAX_SUPPRESSED + 1, 'n');
	o.nsuppress = SCAP_BPF_MAX_SUPPRESSED;
	assert_int_equal(live_select_plan(&o, &ls, err), 0);
	assert_int_equal(ls.nsuppress, SCAP_BPF_MAX_SUPPRESSED);
	o.nsuppress = SCAP_BPF_MAX_SUPPRESSED + 1;
	assert_int_equal(live_select_plan(&o, &ls, err), -1);
	assert_string_equal(err, "live capture: cannot suppress n32: at most 32 names");
}

static void plan_pids(void **state)
{
	uint32_t pids[] = { 10, SCAP_BPF_PID_LIMIT }, tids[] = { 11 }, roots[] = { 12 };
	struct scap_select sel = { .pids = pids, .npids = 2 };
	struct scap_live_opts o = { .select = &sel };
	struct live_select ls;
	char err[SCAP_ERRBUF_SIZE];

	(void)state;
	assert_int_equal(live_select_plan(&o, &ls, err), 0);
	assert_int_equal(ls.flags, SCAP_BPF_F_PIDS);
	sel.tids = tids;
	sel.ntids = 1;
	sel.roots = roots;
	sel.nroots = 1;
	assert_int_equal(live_select_plan(&o, &ls, err), 0);
	assert_int_equal(ls.flags, SCAP_BPF_F_PIDS | SCAP_BPF_F_TIDS | SCAP_BPF_F_TREE);
	/* an empty selection selects nothing in the driver: not pushed */
	memset(&sel, 0, sizeof(sel));
	assert_int_equal(live_select_plan(&o, &ls, err), 0);
	assert_int_equal(ls.flags, 0);
}

static void plan_comms(void **state)
{
	const char *names[SCAP_BPF_MAX_COMMS + 1];
	char many[SCAP_BPF_MAX_COMMS + 1][16];
	struct scap_live_opts o = { .comms = names, .ncomms = 3 };
	struct live_select ls;
	char err[SCAP_ERRBUF_SIZE] = "";

	(void)state;
	names[0] = "sdla";
	names[1] = "sixteen_letters_";
	names[2] = "sdlb";
	assert_int_equal(live_select_plan(&o, &ls, err), 0);
	assert_int_equal(ls.flags, SCAP_BPF_F_COMMS);
	assert_int_equal(ls.ncomms, 2);
	assert_memory_equal(ls.comms[0].name, "sdla\0\0\0\0\0\0\0\0\0\0\0\0", 16);
	assert_memory_equal(ls.comms[1].name, "sdlb\0\0\0\0\0\0\0\0\0\0\0\0", 16);
	many_names(names, many, SCAP_BPF_MAX_COMMS + 1, 'c');
	o.ncomms = SCAP_BPF_MAX_COMMS + 1;
	assert_int_equal(live_select_plan(&o, &ls, err), -1);
	assert_string_equal(err, "live capture: cannot select c64: at most 64 names");
}

static void plan_cids(void **state)
{
	const char *ids[] = { "0123456789ab", "ba9876543210" };
	struct scap_select sel = { .container_ids = ids, .ncontainer_ids = 2 };
	struct scap_live_opts o = { .select = &sel };
	struct live_select ls;
	char err[SCAP_ERRBUF_SIZE];

	(void)state;
	assert_int_equal(live_select_plan(&o, &ls, err), 0);
	assert_int_equal(ls.flags, SCAP_BPF_F_CGROUPS);
	assert_int_equal(ls.ncids, 2);
	assert_memory_equal(ls.cids[1].id, "ba9876543210\0\0\0\0", 16);
	/* one id of another length: none is pushed down */
	ids[1] = "host";
	assert_int_equal(live_select_plan(&o, &ls, err), 0);
	assert_int_equal(ls.flags, 0);
	assert_int_equal(ls.ncids, 0);
}

/* a fake driver: the ids it was given, a set of processes */
struct fake_drv {
	uint32_t pid[16], tid[16];
	int n;
};

static void fake_add(void *drv, uint32_t pid, uint32_t tid)
{
	struct fake_drv *d = drv;

	d->pid[d->n] = pid;
	d->tid[d->n++] = tid;
}

static int fake_has(void *drv, uint32_t pid)
{
	struct fake_drv *d = drv;

	for (int i = 0; i < d->n; i++)
		if (!d->tid[i] && d->pid[i] == pid)
			return 1;
	return 0;
}

static void ids(void **state)
{
	uint32_t pids[] = { 10, SCAP_BPF_PID_LIMIT }, tids[] = { 11 }, roots[] = { 12 };
	struct scap_select sel = { .pids = pids, .npids = 2, .tids = tids, .ntids = 1,
				   .roots = roots, .nroots = 1 };
	struct scap_live_opts o = { .select = &sel };
	struct fake_drv d = { .n = 0 };

	(void)state;
	live_select_ids(&o, fake_add, &d);
	assert_int_equal(d.n, 3);
	assert_int_equal(d.pid[0], 10);
	assert_int_equal(d.tid[0], 0);
	assert_int_equal(d.pid[1], 0);
	assert_int_equal(d.tid[1], 11);
	assert_int_equal(d.pid[2], 12);
	assert_int_equal(d.tid[2], 0);
}

/* root 1 -> 5 -> 7 (listed before its parent), 5's thread 6, 9 elsewhere */
static void descendants(void **state)
{
	struct scap_threadinfo t[] = {
		{ .tid = 7, .pid = 7, .ptid = 5 },
		{ .tid = 1, .pid = 1, .ptid = 0 },
		{ .tid = 9, .pid = 9, .ptid = 2 },
		{ .tid = 5, .pid = 5, .ptid = 1 },
		{ .tid = 6, .pid = 5, .ptid = 1 },
	};
	struct scap_metadata m = { .threads = t, .nthreads = 5 };
	uint32_t roots[] = { 1 };
	struct scap_select sel = { .roots = roots, .nroots = 1 };
	struct scap_live_opts o = { .select = &sel };
	struct fake_drv d = { .n = 0 };

	(void)state;
	live_select_ids(&o, fake_add, &d);
	live_select_descendants(&o, &m, fake_has, fake_add, &d);
	assert_int_equal(d.n, 3);
	assert_true(fake_has(&d, 1) && fake_has(&d, 5) && fake_has(&d, 7));
	assert_false(fake_has(&d, 9) || fake_has(&d, 6));
	/* no roots: nothing to follow */
	sel.nroots = 0;
	d.n = 0;
	live_select_descendants(&o, &m, fake_has, fake_add, &d);
	assert_int_equal(d.n, 0);
}

static void lifecycle(void **state)
{
	(void)state;
	assert_true(live_select_lifecycle(PPME_SYSCALL_CLONE_20_E));
	assert_true(live_select_lifecycle(PPME_SYSCALL_EXECVE_19_X));
	assert_true(live_select_lifecycle(PPME_PROCEXIT_1_E));
	assert_false(live_select_lifecycle(PPME_SYSCALL_WRITE_E));
	assert_false(live_select_lifecycle(PPME_SCHEDSWITCH_6_E));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(plan_comm),
		cmocka_unit_test(plan_suppress),
		cmocka_unit_test(plan_pids),
		cmocka_unit_test(plan_comms),
		cmocka_unit_test(plan_cids),
		cmocka_unit_test(ids),
		cmocka_unit_test(descendants),
		cmocka_unit_test(lifecycle),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
