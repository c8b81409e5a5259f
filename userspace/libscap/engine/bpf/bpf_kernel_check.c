/*
 * bpf_kernel_check.c - tells, before the eBPF driver is loaded, which kernel
 * feature it needs is missing, in one line, instead of a verifier log.
 *
 * The kernel's own BTF says what it has: a raw tracepoint T is the typedef
 * btf_trace_T, and the BPF helpers and map types it knows are the
 * enumerators of enum bpf_func_id and enum bpf_map_type.  The table below
 * lists what driver/bpf uses, with the Linux release that brought it; the
 * newest of them (bpf_loop, 5.17) is the driver's minimum kernel.
 * SYSDIG_BPF_KERNEL_BTF names another BTF file: for a kernel built without
 * /sys/kernel/btf/vmlinux (a BTF file made for it elsewhere; libbpf then
 * relocates against it too) and for the tests.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/btf.h>
#include "scap.h"
#include "bpf_kernel_check.h"

enum need_kind { TRACEPOINT, HELPER, MAP_TYPE };

struct need {
	enum need_kind kind;
	const char *name;	/* btf_trace_<name>, BPF_FUNC_<name>, BPF_MAP_TYPE_<name> */
	const char *since;	/* Linux release that brought it */
};

static const struct need needs[] = {
	{ TRACEPOINT, "sys_enter", "raw_syscalls, BTF-typed: 5.5" },
	{ TRACEPOINT, "sys_exit", "raw_syscalls, BTF-typed: 5.5" },
	{ TRACEPOINT, "sched_switch", "sched, BTF-typed: 5.5" },
	{ TRACEPOINT, "sched_process_exit", "sched, BTF-typed: 5.5" },
	{ TRACEPOINT, "sched_process_exec", "sched, BTF-typed: 5.5" },
	{ HELPER, "probe_read_kernel", "5.5" },
	{ HELPER, "ktime_get_boot_ns", "5.8" },
	{ HELPER, "get_current_task_btf", "5.11" },
	{ HELPER, "task_storage_get", "5.11" },
	{ HELPER, "task_pt_regs", "5.15" },
	{ HELPER, "loop", "5.17" },
	{ MAP_TYPE, "TASK_STORAGE", "5.11" },
};

#define NNEEDS (sizeof(needs) / sizeof(needs[0]))

const char *bpf_kernel_btf_path(void)
{
	const char *p = getenv("SYSDIG_BPF_KERNEL_BTF");

	return p && *p ? p : "/sys/kernel/btf/vmlinux";
}

static const char *prefix_of(enum need_kind k)
{
	return k == HELPER ? "BPF_FUNC_" : "BPF_MAP_TYPE_";
}

/* marks found[i] for every enumerator need of the enum type t */
static void mark_enumerators(const struct btf *btf, const struct btf_type *t, int *found)
{
	const struct btf_enum *e = btf_enum(t);
	size_t i, plen;
	const char *n;
	int j;

	for (j = 0; j < btf_vlen(t); j++) {
		n = btf__name_by_offset(btf, e[j].name_off);
		if (!n || strncmp(n, "BPF_", 4))
			continue;
		for (i = 0; i < NNEEDS; i++) {
			if (needs[i].kind == TRACEPOINT)
				continue;
			plen = strlen(prefix_of(needs[i].kind));
			if (!strncmp(n, prefix_of(needs[i].kind), plen) && !strcmp(n + plen, needs[i].name))
				found[i] = 1;
		}
	}
}

static void describe(const struct need *nd, char *err)
{
	switch (nd->kind) {
	case TRACEPOINT:
		snprintf(err, SCAP_ERRBUF_SIZE, "live capture: the kernel has no BTF-typed tracepoint %s "
			 "(btf_trace_%s, %s): the bpf driver cannot attach", nd->name, nd->name, nd->since);
		break;
	case HELPER:
		snprintf(err, SCAP_ERRBUF_SIZE, "live capture: the kernel has no bpf_%s helper (Linux %s): "
			 "the bpf driver needs Linux 5.17 or later", nd->name, nd->since);
		break;
	case MAP_TYPE:
		snprintf(err, SCAP_ERRBUF_SIZE, "live capture: the kernel has no BPF_MAP_TYPE_%s map "
			 "(Linux %s): the bpf driver needs Linux 5.17 or later", nd->name, nd->since);
		break;
	}
}

int bpf_kernel_check(const char *path, char *err)
{
	int found[NNEEDS] = { 0 };
	const struct btf_type *t;
	struct btf *btf;
	char name[64];
	__u32 id, n;
	size_t i;

	if (access(path, R_OK)) {
		snprintf(err, SCAP_ERRBUF_SIZE, "live capture: the kernel has no BTF (%s: %s), the bpf driver "
			 "needs it (CONFIG_DEBUG_INFO_BTF=y, or SYSDIG_BPF_KERNEL_BTF=FILE)", path, strerror(errno));
		return -1;
	}
	btf = btf__parse(path, NULL);
	if (!btf) {
		snprintf(err, SCAP_ERRBUF_SIZE, "live capture: cannot read the kernel BTF %s: %s", path, strerror(errno));
		return -1;
	}
	n = btf__type_cnt(btf);
	for (id = 1; id < n; id++) {
		t = btf__type_by_id(btf, id);
		if (btf_is_enum(t))
			mark_enumerators(btf, t, found);
	}
	for (i = 0; i < NNEEDS; i++) {
		if (needs[i].kind != TRACEPOINT)
			continue;
		snprintf(name, sizeof(name), "btf_trace_%s", needs[i].name);
		found[i] = btf__find_by_name_kind(btf, name, BTF_KIND_TYPEDEF) > 0;
	}
	btf__free(btf);
	for (i = 0; i < NNEEDS; i++) {
		if (!found[i]) {
			describe(&needs[i], err);
			return -1;
		}
	}
	return 0;
}
