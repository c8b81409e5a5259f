/*
 * test_cgroups.c - unit tests of cgroup_container.c: the container id and
 * type each cgroup layout names.  The expected ids are what sysdig 0.29.3
 * printed (container.id) reading a file of ours whose processes ran in
 * cgroups so named (docs/containers.md); the types are the reference's too,
 * except cri-o/containerd (the reference has no type without the runtime)
 * and podman (the reference prints a stale value).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "sinsp_int.h"

#define H64 "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
#define ID12 "0123456789ab"
#define POD "poda1b2c3d4_e5f6_7890_abcd_ef0123456789"
#define HOST ((uint32_t)-1)

struct layout {
	const char *path;	/* the pids cgroup */
	const char *id;		/* "" on the host */
	uint32_t type;
};

static const struct layout layouts[] = {
	/* docker: cgroupfs driver, systemd scope, a cgroup below the scope */
	{ "/docker/" H64, ID12, SINSP_CT_DOCKER },
	{ "/system.slice/docker-" H64 ".scope", ID12, SINSP_CT_DOCKER },
	{ "/system.slice/docker-" H64 ".scope/inner", ID12, SINSP_CT_DOCKER },
	/* the last ".scope" is the suffix: a scope below a scope is not it */
	{ "/system.slice/docker-" H64 ".scope/init.scope", "", HOST },
	/* kubepods with the cgroupfs driver and rootless podman: the docker rule */
	{ "/kubepods/besteffort/" POD "/" H64, ID12, SINSP_CT_DOCKER },
	{ "/user.slice/user-0.slice/user@0.service/user.slice/podman-1234.scope/" H64, ID12,
	  SINSP_CT_DOCKER },
	/* podman (root, systemd) */
	{ "/machine.slice/libpod-" H64 ".scope", ID12, SINSP_CT_PODMAN },
	{ "/system.slice/libpod-" H64 ".scope/container", ID12, SINSP_CT_PODMAN },
	{ "/libpod_parent/libpod-" H64, "", HOST },
	/* cri-o and containerd */
	{ "/kubepods/besteffort/" POD "/crio-" H64, ID12, SINSP_CT_CRIO },
	{ "/kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-" POD ".slice/crio-" H64
	  ".scope", ID12, SINSP_CT_CRIO },
	{ "/crio-" H64 ".scope", ID12, SINSP_CT_CRIO },
	{ "/kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-" POD
	  ".slice/cri-containerd-" H64 ".scope", ID12, SINSP_CT_CONTAINERD },
	{ "/system.slice/containerd.service/kubepods-besteffort-" POD ".slice:cri-containerd:" H64,
	  ID12, SINSP_CT_CONTAINERD },
	/* lxc: the name up to the next slash */
	{ "/lxc/mylxc10", "mylxc10", SINSP_CT_LXC },
	{ "/lxc/foo6/bar", "foo6", SINSP_CT_LXC },
	{ "/lxc.payload/mylxc11", "mylxc11", SINSP_CT_LXC },
	{ "/lxc.payload.mylxc12", "", HOST },
	/* legacy libvirt: "/lxc/" is the lxc engine's, tried first */
	{ "/libvirt/lxc/vm15", "vm15", SINSP_CT_LXC },
	/* libvirt-lxc */
	{ "/machine.slice/machine-lxc\\x2d1234\\x2dvm13.scope", "1234\\x2dvm13",
	  SINSP_CT_LIBVIRT_LXC },
	{ "/machine.slice/machine-lxc\\x2dfoo7.scope/x", "", HOST },
	{ "/vm14.libvirt-lxc", "vm14", SINSP_CT_LIBVIRT_LXC },
	/* bpm */
	{ "/system.slice/bpm-myjob.scope", "myjob", SINSP_CT_BPM },
	{ "/bpm-x.y_z-1", "x.y_z-1", SINSP_CT_BPM },
	{ "/bpm-a/b", "", HOST },
	/* rkt needs the pod's environment: not from the cgroup alone */
	{ "/machine.slice/machine-rkt\\x2d0b1c2d3e\\x2d16.scope/system.slice/app16.service", "",
	  HOST },
	/* 64 characters, not a 64-hex run anywhere */
	{ "/docker/" H64 "/sub", "", HOST },
	{ "/foo-" H64, "", HOST },
	{ "/docker-" "0123456789abcdef0123456789abcdef0123456789abcdef0123456789ab.scope", "", HOST },
	{ "/docker/D017456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
	  "D017456789ab", SINSP_CT_DOCKER },
	/* the reference's hex check: the first non-hex character's offset in
	 * the whole path against 64 */
	{ "/docker/d01g456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", "", HOST },
	{ "/docker/0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdeg", ID12,
	  SINSP_CT_DOCKER },
	{ "/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/"
	  "qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq",
	  "qqqqqqqqqqqq", SINSP_CT_DOCKER },
	{ "/", "", HOST },
	{ "/user.slice/user-0.slice/session-3.scope", "", HOST },
};

/* "cpu=/\0pids=PATH\0memory=/\0" as the drivers write a hybrid host's */
static size_t cgroup_list(char *buf, size_t size, const char *pids)
{
	int n = snprintf(buf, size, "cpu=/%cpids=%s%cmemory=/", 0, pids, 0);

	assert_true(n > 0 && (size_t)n < size);
	return (size_t)n + 1;
}

static void test_layouts(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(layouts) / sizeof(layouts[0]); i++) {
		const struct layout *l = &layouts[i];
		char buf[1024], id[512];
		struct sinsp_cgroup_match m;
		size_t len = cgroup_list(buf, sizeof(buf), l->path);
		size_t n = sinsp_cgroups_container(buf, len, &m);

		snprintf(id, sizeof(id), "%.*s", (int)n, n ? m.id : "");
		if (strcmp(id, l->id) || (n && m.type != l->type))
			fail_msg("%s: id '%s' type %u, want '%s' type %u", l->path, id,
				 n ? m.type : HOST, l->id, l->type);
	}
}

/* the engines are tried in order over all the cgroups: a docker path in a
 * later subsystem wins over an lxc one in an earlier */
static void test_engine_order(void **state)
{
	static const char list[] = "cpu=/lxc/one\0pids=/docker/" H64 "\0";
	struct sinsp_cgroup_match m;

	(void)state;
	assert_int_equal(sinsp_cgroups_container(list, sizeof(list), &m), 12);
	assert_memory_equal(m.id, ID12, 12);
	assert_int_equal(m.type, SINSP_CT_DOCKER);
	assert_int_equal(sinsp_cgroups_container(list, 13, &m), 3);	/* cpu only */
	assert_memory_equal(m.id, "one", 3);
	assert_int_equal(m.type, SINSP_CT_LXC);
	assert_int_equal(sinsp_cgroups_container(NULL, 0, &m), 0);
	assert_int_equal(sinsp_cgroups_container("pids", 4, &m), 0);	/* no '=' */
}

static void test_type_names(void **state)
{
	(void)state;
	assert_string_equal(sinsp_container_type_name(SINSP_CT_CRIO), "cri-o");
	assert_string_equal(sinsp_container_type_name(SINSP_CT_CONTAINERD), "containerd");
	assert_string_equal(sinsp_container_type_name(SINSP_CT_PODMAN), "podman");
	assert_string_equal(sinsp_container_type_name(SINSP_CT_LIBVIRT_LXC), "libvirt-lxc");
	assert_null(sinsp_container_type_name(12));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layouts),
		cmocka_unit_test(test_engine_order),
		cmocka_unit_test(test_type_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
