/*
 * cgroup_container.c - which container a thread's cgroup paths name, by
 * the rules of sysdig 0.29.3's container engines (libs of 2022-03, read
 * in their source and checked on files we wrote, see
 * docs/containers.md).  The engines are tried in the reference's order;
 * each looks at every "subsys=path" entry of the thread's cgroups, in
 * order, and the first engine that matches one path wins:
 *
 *  1. docker   a path ending in "/<64 hex>" (plain docker, kubepods with
 *              the cgroupfs driver, rootless podman) or containing
 *              "/docker-<64 hex>.scope" (systemd);
 *  2. podman   "/libpod-<64 hex>.scope";
 *  3. cri      "/crio-<64 hex>" at the end, "/crio-<64 hex>.scope",
 *              "/cri-containerd-<64 hex>.scope", ":cri-containerd:<64 hex>";
 *  4. lxc      "/lxc/NAME" or "/lxc.payload/NAME" (NAME up to the next /);
 *  5. libvirt-lxc  ".../NAME.libvirt-lxc", "...-lxc\x2dNAME.scope";
 *  6. bpm      "bpm-ID" (up to ".scope"), ID of [A-Za-z0-9._-].
 *
 * The runc-style rules (1-3) take the LAST occurrence of the prefix and of
 * the suffix, need exactly 64 characters between them and report the
 * first 12.  The reference's hex check compares the first non-hex
 * character's position in the whole path (not in the id) with 64, so a
 * non-hex id deep in a long path passes; we keep that rule.
 * Not recognised (as in the reference without its runtime's metadata):
 * rkt (needs the pod's environment), mesos, rootless podman's own lookup.
 */
#include <string.h>
#include "sinsp_int.h"

#define RUNC_ID_LEN 64
#define REPORTED_ID_LEN 12

struct runc_layout {
	const char *prefix, *suffix;
};

/* last occurrence of needle (n bytes) in s (len bytes), NULL when none;
 * an empty needle is found at the end */
static const char *last_of(const char *s, size_t len, const char *needle)
{
	size_t n = strlen(needle);

	if (n > len)
		return NULL;
	for (size_t i = len - n + 1; i-- > 0;)
		if (!memcmp(s + i, needle, n))
			return s + i;
	return NULL;
}

static const char *first_of(const char *s, size_t len, const char *needle)
{
	size_t n = strlen(needle);

	for (size_t i = 0; n <= len && i <= len - n; i++)
		if (!memcmp(s + i, needle, n))
			return s + i;
	return NULL;
}

static int is_hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* path ends with (or has, see last_of) prefix + 64 characters + suffix */
static int runc_match(const char *p, size_t len, const struct runc_layout *l,
		      struct sinsp_cgroup_match *m)
{
	const char *start = last_of(p, len, l->prefix), *end;
	size_t i;

	if (!start)
		return 0;
	start += strlen(l->prefix);
	end = last_of(p, len, l->suffix);
	if (!end || end < start || (size_t)(end - start) != RUNC_ID_LEN)
		return 0;
	/* the reference's check: the first non-hex character at or after the
	 * id's start must not lie before offset 64 of the path */
	for (i = (size_t)(start - p); i < len && is_hex(p[i]); i++)
		;
	if (i < len && i < RUNC_ID_LEN)
		return 0;
	m->id = start;
	m->len = REPORTED_ID_LEN;
	return 1;
}

static int runc_any(const char *p, size_t len, const struct runc_layout *l, size_t n,
		    uint32_t type, struct sinsp_cgroup_match *m)
{
	for (size_t i = 0; i < n; i++)
		if (runc_match(p, len, &l[i], m)) {
			m->type = type;
			return 1;
		}
	return 0;
}

static int match_docker(const char *p, size_t len, struct sinsp_cgroup_match *m)
{
	static const struct runc_layout docker[] = { { "/", "" }, { "/docker-", ".scope" } };

	return runc_any(p, len, docker, 2, SINSP_CT_DOCKER, m);
}

static int match_podman(const char *p, size_t len, struct sinsp_cgroup_match *m)
{
	static const struct runc_layout podman[] = { { "/libpod-", ".scope" } };

	return runc_any(p, len, podman, 1, SINSP_CT_PODMAN, m);
}

/* the reference asks the CRI runtime for the type (no type without it);
 * we name the runtime the layout belongs to */
static int match_cri(const char *p, size_t len, struct sinsp_cgroup_match *m)
{
	static const struct runc_layout crio[] = { { "/crio-", "" }, { "/crio-", ".scope" } };
	static const struct runc_layout containerd[] = { { "/cri-containerd-", ".scope" },
							 { ":cri-containerd:", "" } };

	/* the reference's order: crio-, cri-containerd-.scope, crio-.scope, :cri-containerd: */
	return runc_any(p, len, crio, 1, SINSP_CT_CRIO, m) ||
	       runc_any(p, len, containerd, 1, SINSP_CT_CONTAINERD, m) ||
	       runc_any(p, len, crio + 1, 1, SINSP_CT_CRIO, m) ||
	       runc_any(p, len, containerd + 1, 1, SINSP_CT_CONTAINERD, m);
}

/* "/lxc/NAME[/...]" or "/lxc.payload/NAME[/...]" */
static int match_lxc(const char *p, size_t len, struct sinsp_cgroup_match *m)
{
	static const char *const marks[] = { "/lxc/", "/lxc.payload/" };

	for (size_t i = 0; i < 2; i++) {
		const char *s = first_of(p, len, marks[i]), *e;

		if (!s)
			continue;
		s += strlen(marks[i]);
		e = memchr(s, '/', len - (size_t)(s - p));
		m->id = s;
		m->len = e ? (size_t)(e - s) : len - (size_t)(s - p);
		m->type = SINSP_CT_LXC;
		return 1;
	}
	return 0;
}

static int match_libvirt_lxc(const char *p, size_t len, struct sinsp_cgroup_match *m)
{
	static const char plain[] = ".libvirt-lxc", scoped[] = "-lxc\\x2", scope[] = ".scope";
	const char *s = first_of(p, len, plain), *e;

	/* non-systemd: ".../NAME.libvirt-lxc" (the mark at the end) */
	if (s && (size_t)(s - p) == len - (sizeof(plain) - 1)) {
		for (e = s; e > p && e[-1] != '/'; e--)
			;
		if (e > p) {
			m->id = e;
			m->len = (size_t)(s - e);
			m->type = SINSP_CT_LIBVIRT_LXC;
			return 1;
		}
	}
	/* systemd: "machine-lxc\x2dNAME.scope" (".scope" first seen at the end) */
	s = first_of(p, len, scoped);
	e = first_of(p, len, scope);
	if (s && e && (size_t)(e - p) == len - (sizeof(scope) - 1) && e > s &&
	    (size_t)(e - s) >= sizeof(scoped)) {
		m->id = s + sizeof(scoped);
		m->len = (size_t)(e - m->id);
		m->type = SINSP_CT_LIBVIRT_LXC;
		return 1;
	}
	return 0;
}

/* "bpm-ID" up to ".scope" (or the end); ID of the characters bpm allows */
static int match_bpm(const char *p, size_t len, struct sinsp_cgroup_match *m)
{
	static const char allowed[] =
		"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-";
	const char *s = first_of(p, len, "bpm-"), *e;
	size_t n;

	if (!s)
		return 0;
	s += 4;
	e = first_of(s, len - (size_t)(s - p), ".scope");
	n = e ? (size_t)(e - s) : len - (size_t)(s - p);
	if (!n)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!memchr(allowed, s[i], sizeof(allowed) - 1))
			return 0;
	m->id = s;
	m->len = n;
	m->type = SINSP_CT_BPM;
	return 1;
}

/* the engines in the reference's order */
static int (*const engines[])(const char *, size_t, struct sinsp_cgroup_match *) = {
	match_docker, match_podman, match_cri, match_lxc, match_libvirt_lxc, match_bpm,
};

size_t sinsp_cgroups_container(const char *cgroups, size_t len, struct sinsp_cgroup_match *m)
{
	for (size_t k = 0; k < sizeof(engines) / sizeof(engines[0]); k++) {
		size_t i = 0;

		while (cgroups && i < len) {
			const char *c = cgroups + i;
			size_t n = strnlen(c, len - i);
			const char *path = memchr(c, '=', n);

			if (path && engines[k](path + 1, n - (size_t)(path + 1 - c), m))
				return m->len;
			i += n + 1;
		}
	}
	m->id = NULL;
	m->len = 0;
	return 0;
}
