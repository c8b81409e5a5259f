/*
 * test_bpf_kernel_check.c - the eBPF driver's kernel feature check
 * (userspace/libscap/engine/bpf/bpf_kernel_check.c) on BTF files made here:
 * a complete one passes, and each missing tracepoint, helper or map type is
 * named in the one error line; no file, a file that is not BTF; the running
 * kernel's BTF passes.  With "--write FILE [OMIT]" the binary only writes a
 * BTF file with everything but OMIT (for the CLI test, bpf_kernel_check.sh).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <bpf/btf.h>

#include "scap.h"
#include "bpf_kernel_check.h"

static const char *const tracepoints[] = {
	"sys_enter", "sys_exit", "sched_switch", "sched_process_exit", "sched_process_exec",
};
static const char *const helpers[] = {
	"BPF_FUNC_unspec", "BPF_FUNC_probe_read_kernel", "BPF_FUNC_ktime_get_boot_ns",
	"BPF_FUNC_get_current_task_btf", "BPF_FUNC_task_storage_get", "BPF_FUNC_task_pt_regs",
	"BPF_FUNC_loop",
};
static const char *const map_types[] = {
	"BPF_MAP_TYPE_UNSPEC", "BPF_MAP_TYPE_ARRAY", "BPF_MAP_TYPE_TASK_STORAGE",
};

static char path[64];
static char err[SCAP_ERRBUF_SIZE];

static void add_enum(struct btf *btf, const char *name, const char *const *vals, size_t n,
		     const char *omit)
{
	size_t i;

	assert_true(btf__add_enum(btf, name, 4) > 0);
	for (i = 0; i < n; i++)
		if (!omit || strcmp(vals[i], omit))
			assert_int_equal(btf__add_enum_value(btf, vals[i], (__s64)i), 0);
}

/* a BTF file with every need of the driver but omit (a name as in the BTF) */
static void write_btf(const char *file, const char *omit)
{
	struct btf *btf = btf__new_empty();
	const void *raw;
	char name[64];
	__u32 len;
	size_t i;
	FILE *f;
	int ptr;

	assert_non_null(btf);
	ptr = btf__add_ptr(btf, 0);
	assert_true(ptr > 0);
	for (i = 0; i < sizeof(tracepoints) / sizeof(tracepoints[0]); i++) {
		snprintf(name, sizeof(name), "btf_trace_%s", tracepoints[i]);
		if (!omit || strcmp(name, omit))
			assert_true(btf__add_typedef(btf, name, ptr) > 0);
	}
	add_enum(btf, "bpf_func_id", helpers, sizeof(helpers) / sizeof(helpers[0]), omit);
	add_enum(btf, "bpf_map_type", map_types, sizeof(map_types) / sizeof(map_types[0]), omit);
	raw = btf__raw_data(btf, &len);
	assert_non_null(raw);
	f = fopen(file, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(raw, 1, len, f), len);
	fclose(f);
	btf__free(btf);
}

static int setup(void **state)
{
	int fd;

	(void)state;
	snprintf(path, sizeof(path), "/tmp/btfcheck.XXXXXX");
	fd = mkstemp(path);
	if (fd < 0)
		return -1;
	close(fd);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	unlink(path);
	return 0;
}

static void expect_error(const char *omit, const char *words)
{
	write_btf(path, omit);
	err[0] = 0;
	assert_int_equal(bpf_kernel_check(path, err), -1);
	if (!strstr(err, words))
		fail_msg("missing %s: error \"%s\" does not say \"%s\"", omit, err, words);
	assert_null(strchr(err, '\n'));
}

static void complete_btf_passes(void **state)
{
	(void)state;
	write_btf(path, NULL);
	assert_int_equal(bpf_kernel_check(path, err), 0);
}

static void missing_tracepoint_named(void **state)
{
	(void)state;
	expect_error("btf_trace_sched_switch", "no BTF-typed tracepoint sched_switch");
	expect_error("btf_trace_sys_enter", "no BTF-typed tracepoint sys_enter");
}

static void missing_helper_named(void **state)
{
	(void)state;
	expect_error("BPF_FUNC_loop", "no bpf_loop helper (Linux 5.17)");
	expect_error("BPF_FUNC_task_pt_regs", "no bpf_task_pt_regs helper (Linux 5.15)");
	expect_error("BPF_FUNC_get_current_task_btf", "no bpf_get_current_task_btf helper (Linux 5.11)");
}

static void missing_map_type_named(void **state)
{
	(void)state;
	expect_error("BPF_MAP_TYPE_TASK_STORAGE", "no BPF_MAP_TYPE_TASK_STORAGE map (Linux 5.11)");
}

static void no_file_or_not_btf(void **state)
{
	FILE *f;

	(void)state;
	assert_int_equal(bpf_kernel_check("/nonexistent/vmlinux", err), -1);
	assert_non_null(strstr(err, "the kernel has no BTF (/nonexistent/vmlinux"));
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("not BTF at all\n", f);
	fclose(f);
	assert_int_equal(bpf_kernel_check(path, err), -1);
	assert_non_null(strstr(err, "cannot read the kernel BTF"));
}

static void running_kernel_passes(void **state)
{
	(void)state;
	if (access("/sys/kernel/btf/vmlinux", R_OK))
		skip();
	if (bpf_kernel_check("/sys/kernel/btf/vmlinux", err))
		fail_msg("%s", err);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(complete_btf_passes, setup, teardown),
		cmocka_unit_test_setup_teardown(missing_tracepoint_named, setup, teardown),
		cmocka_unit_test_setup_teardown(missing_helper_named, setup, teardown),
		cmocka_unit_test_setup_teardown(missing_map_type_named, setup, teardown),
		cmocka_unit_test_setup_teardown(no_file_or_not_btf, setup, teardown),
		cmocka_unit_test(running_kernel_passes),
	};

	if (argc >= 3 && !strcmp(argv[1], "--write")) {
		write_btf(argv[2], argc > 3 ? argv[3] : NULL);
		return 0;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
