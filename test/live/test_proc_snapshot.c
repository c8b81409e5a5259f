/*
 * test_proc_snapshot.c - unit tests of the /proc snapshot that gives live
 * captures their metadata (userspace/libscap/proc_snapshot.c): the socket
 * tables parsed from /proc/net-style files, and a snapshot of ourselves
 * with a known file, an O_TMPFILE one and a known listening socket, and
 * the reference's rule for the tasks listed: no kernel threads (no exe link,
 * empty command line), no zombies, every live process.  No root needed.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <arpa/inet.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <dirent.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include "proc_snapshot.h"
#include "ppm_flags.h"

static void write_file(const char *dir, const char *name, const char *text)
{
	char p[512];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void remove_dir(const char *dir)
{
	static const char *names[] = { "tcp", "udp", "tcp6", "udp6", "unix" };
	char p[512];
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(p, sizeof(p), "%s/%s", dir, names[i]);
		unlink(p);
	}
	rmdir(dir);
}

static void test_sock_tables(void **state)
{
	char dir[] = "/tmp/sdsnap.XXXXXX";
	struct scap_sock_table *t;
	struct scap_fdinfo fd;

	(void)state;
	assert_non_null(mkdtemp(dir));
	write_file(dir, "tcp",
		   "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n"
		   "   0: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 111 1 0 100 0 0 10 0\n"
		   "   1: 0100007F:C350 0200007F:1F90 01 00000000:00000000 00:00000000 00000000     0        0 222 1 0 20 4 30 10 -1\n");
	write_file(dir, "udp",
		   "   sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode ref pointer drops\n"
		   "  1: 00000000:0035 00000000:0000 07 00000000:00000000 00:00000000 00000000     0        0 333 2 0 0\n");
	write_file(dir, "tcp6",
		   "  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n"
		   "   0: 00000000000000000000000001000000:1F91 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 444 1 0 100 0 0 10 0\n");
	write_file(dir, "udp6", "header\n");
	write_file(dir, "unix",
		   "Num       RefCount Protocol Flags    Type St Inode Path\n"
		   "ffff9a0c01234000: 00000002 00000000 00010000 0001 01 555 /run/test.sock\n"
		   "ffff9a0c01235000: 00000002 00000000 00000000 0001 03 666\n");
	t = scap_sock_table_load(dir);
	assert_non_null(t);

	assert_int_equal(scap_sock_table_lookup(t, 111, &fd), 0);
	assert_int_equal(fd.type, SCAP_FD_IPV4_SERVSOCK);
	assert_int_equal(fd.info.ipv4serv.ip, htonl(INADDR_LOOPBACK));
	assert_int_equal(fd.info.ipv4serv.port, 8080);
	assert_int_equal(fd.info.ipv4serv.l4proto, SCAP_L4_TCP);
	free(fd.name);

	assert_int_equal(scap_sock_table_lookup(t, 222, &fd), 0);
	assert_int_equal(fd.type, SCAP_FD_IPV4_SOCK);
	assert_int_equal(fd.info.ipv4.sport, 50000);
	assert_int_equal(fd.info.ipv4.dport, 8080);
	assert_int_equal(fd.info.ipv4.dip, inet_addr("127.0.0.2"));
	free(fd.name);

	assert_int_equal(scap_sock_table_lookup(t, 333, &fd), 0);
	assert_int_equal(fd.type, SCAP_FD_IPV4_SERVSOCK);
	assert_int_equal(fd.info.ipv4serv.l4proto, SCAP_L4_UDP);
	assert_int_equal(fd.info.ipv4serv.port, 53);
	free(fd.name);

	assert_int_equal(scap_sock_table_lookup(t, 444, &fd), 0);
	assert_int_equal(fd.type, SCAP_FD_IPV6_SERVSOCK);
	assert_int_equal(fd.info.ipv6serv.ip[15], 1);	/* ::1 */
	assert_int_equal(fd.info.ipv6serv.port, 8081);
	free(fd.name);

	assert_int_equal(scap_sock_table_lookup(t, 555, &fd), 0);
	assert_int_equal(fd.type, SCAP_FD_UNIX_SOCK);
	assert_string_equal(fd.name, "/run/test.sock");
	assert_int_equal(fd.info.unix_sock.source, 0xffff9a0c01234000ull);
	free(fd.name);

	assert_int_equal(scap_sock_table_lookup(t, 666, &fd), 0);
	assert_string_equal(fd.name, "");
	free(fd.name);

	assert_int_equal(scap_sock_table_lookup(t, 777, &fd), -1);
	scap_sock_table_free(t);
	remove_dir(dir);
}

static const struct scap_threadinfo *find_thread(const struct scap_metadata *m, uint64_t tid)
{
	uint32_t i;

	for (i = 0; i < m->nthreads; i++)
		if (m->threads[i].tid == tid)
			return &m->threads[i];
	return NULL;
}

static void test_snapshot_self(void **state)
{
	struct scap_metadata m = { 0 };
	struct sockaddr_in in = { .sin_family = AF_INET };
	socklen_t len = sizeof(in);
	char err[SCAP_ERRBUF_SIZE], path[64], cwd[512];
	const struct scap_threadinfo *t;
	int ffd, sfd, tfd, found_file = 0, found_sock = 0, found_tmp = 0;
	uint32_t i;

	(void)state;
	snprintf(path, sizeof(path), "/tmp/sdsnap-%d.txt", getpid());
	ffd = open(path, O_CREAT | O_WRONLY | O_APPEND, 0600);
	assert_true(ffd >= 0);
	/* an unnamed file (O_TMPFILE), where /tmp supports it */
	tfd = open("/tmp", O_TMPFILE | O_RDWR, 0600);
	sfd = socket(AF_INET, SOCK_STREAM, 0);
	in.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_int_equal(bind(sfd, (void *)&in, sizeof(in)), 0);
	assert_int_equal(listen(sfd, 1), 0);
	assert_int_equal(getsockname(sfd, (void *)&in, &len), 0);

	assert_int_equal(scap_proc_snapshot(&m, err), 0);
	assert_true(m.has_machine && m.machine.num_cpus > 0 && m.machine.memory_size_bytes > 0);
	assert_true(m.has_userlist && m.nusers > 0 && m.users[0].name[0]);
	assert_true(m.has_iflist && m.nipv4 > 0);
	t = find_thread(&m, getpid());
	assert_non_null(t);
	assert_int_equal(t->pid, getpid());
	assert_int_equal(t->ptid, getppid());
	assert_string_equal(t->comm, "test_proc_snaps");
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	assert_string_equal(t->cwd, cwd);
	assert_true(t->fdlimit > 0);
	assert_int_equal(t->uid, geteuid());
	for (i = 0; i < t->nfds; i++) {
		const struct scap_fdinfo *f = &t->fds[i];

		if (f->fd == ffd) {
			assert_int_equal(f->type, SCAP_FD_FILE_V2);
			assert_string_equal(f->name, path);
			/* O_WRONLY|O_APPEND|O_CREAT is not kept by the kernel: WRONLY|APPEND */
			assert_int_equal(f->open_flags & 0xff, PPM_O_WRONLY | PPM_O_APPEND);
			found_file = 1;
		}
		if (tfd >= 0 && f->fd == tfd) {
			assert_int_equal(f->open_flags & (PPM_O_TMPFILE | PPM_O_RDWR),
					 PPM_O_TMPFILE | PPM_O_RDWR);
			found_tmp = 1;
		}
		if (f->fd == sfd) {
			assert_int_equal(f->type, SCAP_FD_IPV4_SERVSOCK);
			assert_int_equal(f->info.ipv4serv.port, ntohs(in.sin_port));
			found_sock = 1;
		}
	}
	assert_true(found_file);
	assert_true(found_sock);
	assert_int_equal(found_tmp, tfd >= 0);
	scap_metadata_free(&m);
	if (tfd >= 0)
		close(tfd);
	close(sfd);
	close(ffd);
	unlink(path);
}

#define PF_KTHREAD 0x00200000

/* the state letter (field 3 of /proc/PID/stat) and task flags (field 9)
 * of pid; 0 when it is gone */
static char task_stat(unsigned long pid, unsigned long *flags)
{
	char p[64], buf[1024], *r, st = 0;
	FILE *f;

	*flags = 0;
	snprintf(p, sizeof(p), "/proc/%lu/stat", pid);
	f = fopen(p, "r");
	if (!f)
		return 0;
	if (fgets(buf, sizeof(buf), f) && (r = strrchr(buf, ')')) &&
	    sscanf(r + 2, "%c %*d %*d %*d %*d %*d %lu", &st, flags) != 2)
		st = 0;
	fclose(f);
	return st;
}

static void test_snapshot_tasks(void **state)
{
	struct scap_metadata m = { 0 };
	char err[SCAP_ERRBUF_SIZE];
	unsigned nkernel = 0;
	unsigned long fl;
	pid_t zombie, alive;
	struct dirent *de;
	DIR *d;

	(void)state;
	zombie = fork();
	assert_true(zombie >= 0);
	if (!zombie)
		_exit(0);
	alive = fork();
	assert_true(alive >= 0);
	if (!alive) {
		alarm(30);	/* gone even when an assertion below fails */
		pause();
		_exit(0);
	}
	/* the first child is a zombie once its state says so */
	for (int i = 0; i < 500 && task_stat(zombie, &fl) != 'Z'; i++)
		usleep(10000);
	assert_int_equal(task_stat(zombie, &fl), 'Z');
	assert_int_equal(scap_proc_snapshot(&m, err), 0);
	assert_null(find_thread(&m, zombie));
	assert_non_null(find_thread(&m, alive));
	assert_non_null(find_thread(&m, getpid()));
	d = opendir("/proc");
	assert_non_null(d);
	while ((de = readdir(d))) {
		unsigned long pid = strtoul(de->d_name, NULL, 10);

		if (pid && task_stat(pid, &fl) && (fl & PF_KTHREAD)) {
			nkernel++;
			assert_null(find_thread(&m, pid));
		}
	}
	closedir(d);
	/* kernel threads are seen here unless /proc is a container's */
	print_message("kernel threads checked: %u\n", nkernel);
	scap_metadata_free(&m);
	kill(alive, SIGKILL);
	waitpid(alive, NULL, 0);
	waitpid(zombie, NULL, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sock_tables),
		cmocka_unit_test(test_snapshot_self),
		cmocka_unit_test(test_snapshot_tasks),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
