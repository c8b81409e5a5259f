/*
 * proc_snapshot.c - builds struct scap_metadata from /proc for live
 * captures: machine info, every thread (/proc/PID/task/TID) with its
 * command line, environment, cwd, cgroups, limits, ids and counters, the
 * fds of every process (files with their open flags, pipes, sockets
 * resolved through /proc/net/{tcp,tcp6,udp,udp6,unix}, anonymous inodes),
 * the network interfaces, users and groups.  Non-main threads are flagged
 * CLONE_THREAD|CLONE_FILES and carry no fds, kernel threads and zombies
 * are left out (as sysdig 0.29.3 does).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <ifaddrs.h>
#include <inttypes.h>
#include <limits.h>
#include <net/if.h>
#include <netinet/in.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/sysinfo.h>
#include "proc_snapshot.h"
#include "ppm_flags.h"

#define CL_CLONE_FILES 0x1
#define CL_CLONE_THREAD 0x2000
#define MAX_BUF (1 << 16)

/* ---- small file helpers ---- */

/* whole file (at most max bytes) into a malloc'd buffer; length in *len */
static char *read_file(const char *path, size_t max, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	char *buf;
	size_t n = 0;
	ssize_t r;

	if (fd < 0)
		return NULL;
	buf = malloc(max + 1);
	if (!buf) {
		close(fd);
		return NULL;
	}
	while (n < max && (r = read(fd, buf + n, max - n)) > 0)
		n += r;
	close(fd);
	buf[n] = 0;
	if (len)
		*len = n;
	return buf;
}

static char *xstrdup(const char *s)
{
	char *d = strdup(s ? s : "");

	return d;
}

static char *read_link(const char *path)
{
	char buf[PATH_MAX];
	ssize_t n = readlink(path, buf, sizeof(buf) - 1);

	if (n < 0)
		return xstrdup("");
	buf[n] = 0;
	return xstrdup(buf);
}

/* value of "Key:\t..." in a status file, or NULL */
static const char *status_field(const char *status, const char *key)
{
	size_t kl = strlen(key);
	const char *p = status;

	while (p && *p) {
		if (!strncmp(p, key, kl) && p[kl] == ':')
			return p + kl + 1;
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return NULL;
}

static uint64_t status_num(const char *status, const char *key, int nth)
{
	const char *v = status_field(status, key);
	uint64_t x = 0;
	int i;

	if (!v)
		return 0;
	for (i = 0; i <= nth; i++) {
		char *end;

		x = strtoull(v, &end, 10);
		if (end == v)
			return 0;
		v = end;
	}
	return x;
}

/* ---- sockets ---- */

struct sock_ent {
	uint64_t ino;
	struct scap_fdinfo fd;
};

struct scap_sock_table {
	struct sock_ent *e;
	size_t n, cap;
};

static struct sock_ent *sock_add(struct scap_sock_table *t)
{
	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 64;
		struct sock_ent *e = realloc(t->e, cap * sizeof(*e));

		if (!e)
			return NULL;
		t->e = e;
		t->cap = cap;
	}
	memset(&t->e[t->n], 0, sizeof(t->e[0]));
	return &t->e[t->n++];
}

/* "0100007F:1F90" (v4) or 32 hex digits + ":port" (v6) */
static int parse_addr(const char *s, uint8_t *ip, int v6, uint16_t *port)
{
	int i, words = v6 ? 4 : 1;

	for (i = 0; i < words; i++) {
		char w[9];
		uint32_t v;

		memcpy(w, s + 8 * i, 8);
		w[8] = 0;
		v = strtoul(w, NULL, 16);
		memcpy(ip + 4 * i, &v, 4);
	}
	if (s[8 * words] != ':')
		return -1;
	*port = strtoul(s + 8 * words + 1, NULL, 16);
	return 0;
}

static void load_inet(struct scap_sock_table *t, const char *path, int v6, uint8_t l4)
{
	FILE *f = fopen(path, "re");
	char line[512];

	if (!f)
		return;
	if (!fgets(line, sizeof(line), f)) {
		fclose(f);
		return;
	}
	while (fgets(line, sizeof(line), f)) {
		char la[64], ra[64];
		unsigned st;
		unsigned long long ino;
		uint8_t lip[16] = { 0 }, rip[16] = { 0 }, zero[16] = { 0 };
		uint16_t lport, rport;
		struct sock_ent *e;
		int iplen = v6 ? 16 : 4;

		if (sscanf(line, " %*d: %63s %63s %x %*s %*s %*s %*s %*s %llu", la, ra, &st, &ino) != 4)
			continue;
		if (parse_addr(la, lip, v6, &lport) || parse_addr(ra, rip, v6, &rport))
			continue;
		e = sock_add(t);
		if (!e)
			break;
		e->ino = ino;
		e->fd.ino = ino;
		if (!memcmp(rip, zero, iplen) && rport == 0) {
			if (v6) {
				e->fd.type = SCAP_FD_IPV6_SERVSOCK;
				memcpy(e->fd.info.ipv6serv.ip, lip, 16);
				e->fd.info.ipv6serv.port = lport;
				e->fd.info.ipv6serv.l4proto = l4;
			} else {
				e->fd.type = SCAP_FD_IPV4_SERVSOCK;
				memcpy(&e->fd.info.ipv4serv.ip, lip, 4);
				e->fd.info.ipv4serv.port = lport;
				e->fd.info.ipv4serv.l4proto = l4;
			}
		} else if (v6) {
			e->fd.type = SCAP_FD_IPV6_SOCK;
			memcpy(e->fd.info.ipv6.sip, lip, 16);
			memcpy(e->fd.info.ipv6.dip, rip, 16);
			e->fd.info.ipv6.sport = lport;
			e->fd.info.ipv6.dport = rport;
			e->fd.info.ipv6.l4proto = l4;
		} else {
			e->fd.type = SCAP_FD_IPV4_SOCK;
			memcpy(&e->fd.info.ipv4.sip, lip, 4);
			memcpy(&e->fd.info.ipv4.dip, rip, 4);
			e->fd.info.ipv4.sport = lport;
			e->fd.info.ipv4.dport = rport;
			e->fd.info.ipv4.l4proto = l4;
		}
	}
	fclose(f);
}

static void load_unix(struct scap_sock_table *t, const char *path)
{
	FILE *f = fopen(path, "re");
	char line[1024];

	if (!f)
		return;
	if (!fgets(line, sizeof(line), f)) {
		fclose(f);
		return;
	}
	while (fgets(line, sizeof(line), f)) {
		unsigned long long num, ino;
		char name[PATH_MAX] = "";
		struct sock_ent *e;
		int n;

		line[strcspn(line, "\n")] = 0;
		n = sscanf(line, "%llx: %*s %*s %*s %*s %*s %llu %4095s", &num, &ino, name);
		if (n < 2)
			continue;
		e = sock_add(t);
		if (!e)
			break;
		e->ino = ino;
		e->fd.ino = ino;
		e->fd.type = SCAP_FD_UNIX_SOCK;
		e->fd.info.unix_sock.source = num;
		e->fd.info.unix_sock.destination = 0;
		e->fd.name = xstrdup(name[0] == '@' ? name + 1 : name);
	}
	fclose(f);
}

static int cmp_sock(const void *a, const void *b)
{
	const struct sock_ent *x = a, *y = b;

	return x->ino < y->ino ? -1 : x->ino > y->ino;
}

struct scap_sock_table *scap_sock_table_load(const char *dir)
{
	struct scap_sock_table *t = calloc(1, sizeof(*t));
	char p[PATH_MAX];

	if (!t)
		return NULL;
	snprintf(p, sizeof(p), "%s/tcp", dir);
	load_inet(t, p, 0, SCAP_L4_TCP);
	snprintf(p, sizeof(p), "%s/udp", dir);
	load_inet(t, p, 0, SCAP_L4_UDP);
	snprintf(p, sizeof(p), "%s/tcp6", dir);
	load_inet(t, p, 1, SCAP_L4_TCP);
	snprintf(p, sizeof(p), "%s/udp6", dir);
	load_inet(t, p, 1, SCAP_L4_UDP);
	snprintf(p, sizeof(p), "%s/unix", dir);
	load_unix(t, p);
	if (t->n)
		qsort(t->e, t->n, sizeof(t->e[0]), cmp_sock);
	return t;
}

int scap_sock_table_lookup(const struct scap_sock_table *t, uint64_t ino, struct scap_fdinfo *out)
{
	size_t lo = 0, hi = t->n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (t->e[mid].ino == ino) {
			*out = t->e[mid].fd;
			out->name = xstrdup(t->e[mid].fd.type == SCAP_FD_UNIX_SOCK ? t->e[mid].fd.name : "");
			return 0;
		}
		if (t->e[mid].ino < ino)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

void scap_sock_table_free(struct scap_sock_table *t)
{
	size_t i;

	if (!t)
		return;
	for (i = 0; i < t->n; i++)
		if (t->e[i].fd.type == SCAP_FD_UNIX_SOCK)
			free(t->e[i].fd.name);
	free(t->e);
	free(t);
}

/* ---- fds ---- */

static void fd_flags(const char *pdir, const char *fdname, struct scap_fdinfo *fd)
{
	char p[PATH_MAX], *s;
	const char *v;

	snprintf(p, sizeof(p), "%s/fdinfo/%s", pdir, fdname);
	s = read_file(p, 4096, NULL);
	if (!s)
		return;
	v = status_field(s, "flags");
	if (v)
		fd->open_flags = open_flags_to_ppm(strtoul(v, NULL, 8));
	free(s);
}

static int anon_type(const char *l)
{
	static const struct { const char *name; int type; } map[] = {
		{ "anon_inode:[eventfd]", SCAP_FD_EVENT }, { "anon_inode:[eventpoll]", SCAP_FD_EVENTPOLL },
		{ "anon_inode:inotify", SCAP_FD_INOTIFY }, { "anon_inode:[signalfd]", SCAP_FD_SIGNALFD },
		{ "anon_inode:[timerfd]", SCAP_FD_TIMERFD },
	};
	size_t i;

	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (!strcmp(l, map[i].name))
			return map[i].type;
	return SCAP_FD_UNKNOWN;
}

static void add_fd(struct scap_threadinfo *t, const char *pdir, const char *fdname,
		   const struct scap_sock_table *socks)
{
	char p[PATH_MAX], *link;
	struct scap_fdinfo tmp = { 0 }, *fd;
	unsigned long long ino;
	struct stat st;

	snprintf(p, sizeof(p), "%s/fd/%s", pdir, fdname);
	link = read_link(p);
	tmp.fd = strtoll(fdname, NULL, 10);
	if (sscanf(link, "socket:[%llu]", &ino) == 1) {
		if (scap_sock_table_lookup(socks, ino, &tmp)) {
			free(link);
			return;
		}
		tmp.fd = strtoll(fdname, NULL, 10);
		free(link);
	} else if (sscanf(link, "pipe:[%llu]", &ino) == 1) {
		tmp.type = SCAP_FD_FIFO;
		tmp.ino = ino;
		tmp.name = xstrdup("");
		free(link);
	} else if (!strncmp(link, "anon_inode:", 11)) {
		tmp.type = anon_type(link);
		tmp.name = xstrdup("");
		free(link);
		if (tmp.type == SCAP_FD_UNKNOWN) {
			free(tmp.name);
			return;
		}
	} else if (link[0] == '/') {
		tmp.name = link;
		if (stat(p, &st) == 0) {
			tmp.ino = st.st_ino;
			tmp.type = S_ISDIR(st.st_mode) ? SCAP_FD_DIRECTORY : SCAP_FD_FILE_V2;
			tmp.dev = (uint32_t)((major(st.st_dev) << 8) | (minor(st.st_dev) & 0xff) |
					     ((minor(st.st_dev) & ~0xffu) << 12));
			tmp.has_dev = 1;
		} else {
			tmp.type = SCAP_FD_FILE_V2;
		}
		fd_flags(pdir, fdname, &tmp);
	} else {
		free(link);
		return;
	}
	fd = scap_thread_add_fd(t);
	if (!fd) {
		free(tmp.name);
		return;
	}
	*fd = tmp;
}

static void add_fds(struct scap_threadinfo *t, const char *pdir, const struct scap_sock_table *socks)
{
	char p[PATH_MAX];
	struct dirent *de;
	DIR *d;

	snprintf(p, sizeof(p), "%s/fd", pdir);
	d = opendir(p);
	if (!d)
		return;
	while ((de = readdir(d)))
		if (de->d_name[0] != '.')
			add_fd(t, pdir, de->d_name, socks);
	closedir(d);
}

/* ---- threads ---- */

/* "N:subsys,subsys:/path" lines -> "subsys=/path\0" entries */
static void fill_cgroups(struct scap_threadinfo *t, const char *pdir)
{
	char p[PATH_MAX], *s, *line, *save = NULL;
	size_t cap = 4096, n = 0;

	snprintf(p, sizeof(p), "%s/cgroup", pdir);
	s = read_file(p, MAX_BUF, NULL);
	t->cgroups = calloc(1, cap);
	if (!s || !t->cgroups) {
		free(s);
		return;
	}
	for (line = strtok_r(s, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *subs = strchr(line, ':'), *path;

		if (!subs || !(path = strchr(subs + 1, ':')))
			continue;
		*path++ = 0;
		subs++;
		if (!*subs)
			continue;	/* the unified hierarchy has no subsystem name */
		if (n + strlen(subs) + strlen(path) + 2 >= cap)
			break;
		n += sprintf(t->cgroups + n, "%s=%s", subs, path) + 1;
	}
	t->cgroups_len = n;
	free(s);
}

static uint64_t fd_limit(const char *pdir)
{
	char p[PATH_MAX], *s, *l;
	uint64_t v = 0;

	snprintf(p, sizeof(p), "%s/limits", pdir);
	s = read_file(p, 8192, NULL);
	if (!s)
		return 0;
	l = strstr(s, "Max open files");
	if (l)
		v = strtoull(l + 14, NULL, 10);
	free(s);
	return v;
}

static void fill_cmdline(struct scap_threadinfo *t, const char *pdir)
{
	char p[PATH_MAX], *s;
	size_t len = 0, l0;

	snprintf(p, sizeof(p), "%s/cmdline", pdir);
	s = read_file(p, MAX_BUF, &len);
	if (!s || !len) {
		t->exe = xstrdup(t->comm);
		t->args = calloc(1, 1);
		free(s);
		return;
	}
	l0 = strnlen(s, len);
	t->exe = xstrdup(s);
	if (l0 + 1 < len) {
		t->args_len = len - l0 - 1;
		t->args = malloc(t->args_len);
		if (t->args)
			memcpy(t->args, s + l0 + 1, t->args_len);
		else
			t->args_len = 0;
	} else {
		t->args = calloc(1, 1);
	}
	free(s);
}

static void fill_env(struct scap_threadinfo *t, const char *pdir)
{
	char p[PATH_MAX];
	size_t len = 0;

	snprintf(p, sizeof(p), "%s/environ", pdir);
	t->env = read_file(p, MAX_BUF, &len);
	t->env_len = t->env ? len : 0;
	if (!t->env)
		t->env = calloc(1, 1);	/* never NULL: consumers memcpy it */
}

/* stat fields after "(comm) ": state ppid pgrp session tty ... minflt . majflt */
static void fill_stat(struct scap_threadinfo *t, const char *pdir)
{
	char p[PATH_MAX], *s, *r;
	long long pgrp = 0, sess = 0;
	unsigned long long minflt = 0, majflt = 0;

	snprintf(p, sizeof(p), "%s/stat", pdir);
	s = read_file(p, 4096, NULL);
	if (!s)
		return;
	r = strrchr(s, ')');
	if (r && sscanf(r + 2, "%*c %*d %lld %lld %*d %*d %*u %llu %*u %llu", &pgrp, &sess, &minflt, &majflt) == 4) {
		t->vpgid = pgrp;
		t->sid = sess;
		t->pfminor = minflt;
		t->pfmajor = majflt;
	}
	free(s);
}

static void fill_thread(struct scap_threadinfo *t, const char *pdir, uint64_t tid, uint64_t pid)
{
	char p[PATH_MAX], *status, *s;
	const char *ns;

	t->tid = tid;
	t->pid = pid;
	snprintf(p, sizeof(p), "%s/status", pdir);
	status = read_file(p, 8192, NULL);
	if (status) {
		const char *name = status_field(status, "Name");
		size_t l;

		name = name ? name + strspn(name, " \t") : "";
		l = strcspn(name, "\n");
		t->comm = strndup(name, l);
		t->ptid = status_num(status, "PPid", 0);
		t->uid = status_num(status, "Uid", 1);
		t->gid = status_num(status, "Gid", 1);
		t->vmsize_kb = status_num(status, "VmSize", 0);
		t->vmrss_kb = status_num(status, "VmRSS", 0);
		t->vmswap_kb = status_num(status, "VmSwap", 0);
		ns = status_field(status, "NSpid");
		t->vtid = tid;
		t->vpid = pid;
		if (ns) {
			const char *end = ns + strcspn(ns, "\n"), *last = ns;

			for (const char *q = ns; q < end; q++)
				if (*q == '\t' || *q == ' ')
					last = q + 1;
			t->vtid = strtoll(last, NULL, 10);
		}
		free(status);
	}
	if (!t->comm)
		t->comm = xstrdup("");
	fill_cmdline(t, pdir);
	fill_env(t, pdir);
	snprintf(p, sizeof(p), "%s/exe", pdir);
	t->exepath = read_link(p);
	snprintf(p, sizeof(p), "%s/cwd", pdir);
	t->cwd = read_link(p);
	snprintf(p, sizeof(p), "%s/root", pdir);
	t->root = read_link(p);
	fill_cgroups(t, pdir);
	fill_stat(t, pdir);
	t->fdlimit = fd_limit(pdir);
	snprintf(p, sizeof(p), "%s/loginuid", pdir);
	s = read_file(p, 64, NULL);
	t->loginuid = s ? (uint32_t)strtoul(s, NULL, 10) : UINT32_MAX;
	free(s);
	if (tid != pid)
		t->flags |= CL_CLONE_THREAD | CL_CLONE_FILES;
}

/*
 * The reference's rule for which tasks the snapshot lists: a task with no
 * executable link and an empty (or unreadable) command line is a kernel
 * thread, or a zombie, and is left out.
 */
static int is_kernel_task(const char *dir)
{
	char p[PATH_MAX], c;
	ssize_t n;
	int fd;

	snprintf(p, sizeof(p), "%s/exe", dir);
	if (readlink(p, &c, 1) > 0)
		return 0;
	snprintf(p, sizeof(p), "%s/cmdline", dir);
	fd = open(p, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 1;
	n = read(fd, &c, 1);
	close(fd);
	return n <= 0;
}

static int add_process(struct scap_metadata *m, uint64_t pid, const struct scap_sock_table *socks)
{
	char pdir[64], tdir[128];
	struct dirent *de;
	DIR *d;

	snprintf(pdir, sizeof(pdir), "/proc/%" PRIu64, pid);
	snprintf(tdir, sizeof(tdir), "%s/task", pdir);
	d = opendir(tdir);
	if (!d)
		return 0;	/* gone */
	while ((de = readdir(d))) {
		char dir[512];
		uint64_t tid;
		struct scap_threadinfo *t;

		if (de->d_name[0] < '0' || de->d_name[0] > '9')
			continue;
		tid = strtoull(de->d_name, NULL, 10);
		snprintf(dir, sizeof(dir), "%s/%s", tdir, de->d_name);
		if (is_kernel_task(dir))
			continue;
		t = scap_metadata_add_thread(m);
		if (!t) {
			closedir(d);
			return -1;
		}
		fill_thread(t, dir, tid, pid);
		if (tid == pid)
			add_fds(t, pdir, socks);
	}
	closedir(d);
	return 0;
}

static int scan_processes(struct scap_metadata *m, char *err)
{
	struct scap_sock_table *socks = scap_sock_table_load("/proc/net");
	struct dirent *de;
	DIR *d = opendir("/proc");
	int rc = 0;

	if (!d || !socks) {
		snprintf(err, SCAP_ERRBUF_SIZE, "live capture: cannot read /proc: %s", strerror(errno));
		if (d)
			closedir(d);
		scap_sock_table_free(socks);
		return -1;
	}
	while (!rc && (de = readdir(d)))
		if (de->d_name[0] >= '1' && de->d_name[0] <= '9')
			rc = add_process(m, strtoull(de->d_name, NULL, 10), socks);
	closedir(d);
	scap_sock_table_free(socks);
	if (rc)
		snprintf(err, SCAP_ERRBUF_SIZE, "live capture: out of memory in the /proc snapshot");
	return rc;
}

/* ---- machine, interfaces, users ---- */

static void fill_machine(struct scap_machine_info *mi)
{
	struct timespec rt, bt;
	struct sysinfo si;
	char *s;

	memset(mi, 0, sizeof(*mi));
	mi->num_cpus = sysconf(_SC_NPROCESSORS_ONLN);
	if (!sysinfo(&si))
		mi->memory_size_bytes = (uint64_t)si.totalram * si.mem_unit;
	s = read_file("/proc/sys/kernel/pid_max", 64, NULL);
	mi->max_pid = s ? strtoull(s, NULL, 10) : 0;
	free(s);
	gethostname(mi->hostname, sizeof(mi->hostname) - 1);
	clock_gettime(CLOCK_REALTIME, &rt);
	clock_gettime(CLOCK_BOOTTIME, &bt);
	mi->boot_ts_epoch = (uint64_t)rt.tv_sec * 1000000000ull + rt.tv_nsec -
			    ((uint64_t)bt.tv_sec * 1000000000ull + bt.tv_nsec);
}

static int fill_interfaces(struct scap_metadata *m)
{
	struct ifaddrs *ifs, *i;
	uint32_t n4 = 0, n6 = 0;

	if (getifaddrs(&ifs))
		return 0;
	for (i = ifs; i; i = i->ifa_next) {
		if (!i->ifa_addr)
			continue;
		n4 += i->ifa_addr->sa_family == AF_INET;
		n6 += i->ifa_addr->sa_family == AF_INET6;
	}
	m->ipv4 = calloc(n4 ? n4 : 1, sizeof(*m->ipv4));
	m->ipv6 = calloc(n6 ? n6 : 1, sizeof(*m->ipv6));
	if (!m->ipv4 || !m->ipv6) {
		freeifaddrs(ifs);
		return -1;
	}
	for (i = ifs; i; i = i->ifa_next) {
		if (!i->ifa_addr)
			continue;
		if (i->ifa_addr->sa_family == AF_INET) {
			struct scap_ifinfo_ipv4 *v = &m->ipv4[m->nipv4++];

			v->type = 1;
			v->addr = ((struct sockaddr_in *)i->ifa_addr)->sin_addr.s_addr;
			if (i->ifa_netmask)
				v->netmask = ((struct sockaddr_in *)i->ifa_netmask)->sin_addr.s_addr;
			if ((i->ifa_flags & IFF_BROADCAST) && i->ifa_broadaddr)
				v->bcast = ((struct sockaddr_in *)i->ifa_broadaddr)->sin_addr.s_addr;
			snprintf(v->ifname, sizeof(v->ifname), "%s", i->ifa_name);
		} else if (i->ifa_addr->sa_family == AF_INET6) {
			struct scap_ifinfo_ipv6 *v = &m->ipv6[m->nipv6++];

			v->type = 2;
			memcpy(v->addr, &((struct sockaddr_in6 *)i->ifa_addr)->sin6_addr, 16);
			if (i->ifa_netmask)
				memcpy(v->netmask, &((struct sockaddr_in6 *)i->ifa_netmask)->sin6_addr, 16);
			snprintf(v->ifname, sizeof(v->ifname), "%s", i->ifa_name);
		}
	}
	freeifaddrs(ifs);
	m->has_iflist = 1;
	return 0;
}

static int fill_users(struct scap_metadata *m)
{
	struct passwd *pw;
	struct group *gr;

	setpwent();
	while ((pw = getpwent())) {
		struct scap_userinfo *u = scap_metadata_new_user(m);

		if (!u)
			return -1;
		m->nusers++;
		u->uid = pw->pw_uid;
		u->gid = pw->pw_gid;
		snprintf(u->name, sizeof(u->name), "%s", pw->pw_name);
		snprintf(u->homedir, sizeof(u->homedir), "%s", pw->pw_dir ? pw->pw_dir : "");
		snprintf(u->shell, sizeof(u->shell), "%s", pw->pw_shell ? pw->pw_shell : "");
	}
	endpwent();
	setgrent();
	while ((gr = getgrent())) {
		struct scap_groupinfo *g = scap_metadata_new_group(m);

		if (!g)
			return -1;
		m->ngroups++;
		g->gid = gr->gr_gid;
		snprintf(g->name, sizeof(g->name), "%s", gr->gr_name);
	}
	endgrent();
	m->has_userlist = 1;
	return 0;
}

int scap_proc_snapshot(struct scap_metadata *m, char *err)
{
	fill_machine(&m->machine);
	m->has_machine = 1;
	if (fill_interfaces(m) || fill_users(m)) {
		snprintf(err, SCAP_ERRBUF_SIZE, "live capture: out of memory in the system snapshot");
		return -1;
	}
	return scan_processes(m, err);
}
