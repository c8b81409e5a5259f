/*
 * trace_cmd.c - `sysdig [options] [filter] -- CMD ARGS...`: runs CMD and
 * captures it and its descendants.
 *
 * CMD is forked first and waits on a pipe; the live capture opens with the
 * process tree of its pid selected in the driver (scap_select roots, see
 * driver/bpf/select.bpf.h), then traced_cmd_release() lets it execve.  The
 * few events of the child before its execve are left out
 * (traced_cmd_keep), the capture ends at CMD's procexit, or once it is gone
 * and the rings are empty, and sysdig exits with CMD's exit code.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "trace_cmd.h"

/* CMD's file as execvp would find it, resolved before the capture (one
 * execve in the trace, not one per PATH entry); 0 or -1 */
static int find_cmd(const char *name, char *path, size_t len)
{
	const char *dirs = getenv("PATH");
	struct stat st;

	if (strchr(name, '/')) {
		snprintf(path, len, "%s", name);
		return 0;
	}
	if (!dirs)
		dirs = "/usr/local/bin:/usr/bin:/bin";
	while (*dirs) {
		size_t n = strcspn(dirs, ":");

		snprintf(path, len, "%.*s%s%s", (int)n, n ? dirs : ".", "/", name);
		if (!stat(path, &st) && S_ISREG(st.st_mode) && !access(path, X_OK))
			return 0;
		dirs += n + (dirs[n] == ':');
	}
	return -1;
}

/* the child: waits for the go byte, becomes the user, runs CMD; an
 * execve error goes back through the status pipe (closed by execve) */
static void run_child(const char *path, char *const *argv, const struct passwd *pw, int go, int status)
{
	char b;
	int e;

	signal(SIGPIPE, SIG_DFL);
	if (read(go, &b, 1) != 1)
		_exit(127);	/* sysdig went away before the capture started */
	close(go);
	if (pw && (initgroups(pw->pw_name, pw->pw_gid) || setgid(pw->pw_gid) || setuid(pw->pw_uid))) {
		e = errno;
		if (write(status, &e, sizeof(e)) < 0)
			_exit(126);
		_exit(126);
	}
	execv(path, argv);
	e = errno;
	if (write(status, &e, sizeof(e)) < 0)
		_exit(127);
	_exit(127);
}

int traced_cmd_start(struct traced_cmd *c, char *const *argv, const char *user, char *err, size_t len)
{
	struct passwd *pw = NULL;
	int go[2], status[2];

	memset(c, 0, sizeof(*c));
	c->go_fd = c->status_fd = -1;
	c->argv0 = argv[0];
	if (find_cmd(argv[0], c->path, sizeof(c->path))) {
		snprintf(err, len, "-- %s: command not found", argv[0]);
		return 127;
	}
	if (user) {
		if (geteuid() != 0) {
			snprintf(err, len, "--user %s: needs root", user);
			return 1;
		}
		pw = getpwnam(user);
		if (!pw) {
			snprintf(err, len, "--user %s: no such user", user);
			return 1;
		}
	}
	if (pipe2(go, O_CLOEXEC) || pipe2(status, O_CLOEXEC)) {
		snprintf(err, len, "-- %s: %s", argv[0], strerror(errno));
		return 1;
	}
	c->pid = fork();
	if (c->pid < 0) {
		snprintf(err, len, "-- %s: cannot fork: %s", argv[0], strerror(errno));
		return 1;
	}
	if (c->pid == 0) {
		close(go[1]);
		close(status[0]);
		run_child(c->path, argv, pw, go[0], status[1]);
	}
	close(go[0]);
	close(status[1]);
	c->go_fd = go[1];
	c->status_fd = status[0];
	return 0;
}

int traced_cmd_release(struct traced_cmd *c, char *err, size_t len)
{
	int e = 0;
	ssize_t n;

	if (write(c->go_fd, "g", 1) != 1) {
		snprintf(err, len, "-- %s: cannot start it: %s", c->argv0, strerror(errno));
		return -1;
	}
	close(c->go_fd);
	c->go_fd = -1;
	do
		n = read(c->status_fd, &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	close(c->status_fd);
	c->status_fd = -1;
	if (n == (ssize_t)sizeof(e)) {
		snprintf(err, len, "-- %s: %s", c->argv0, strerror(e));
		return -1;
	}
	return 0;
}

int traced_cmd_keep(struct traced_cmd *c, const struct scap_evt *e)
{
	if (!c->started) {
		if (e->tid != (uint64_t)c->pid ||
		    (e->type != PPME_SYSCALL_EXECVE_19_E && e->type != PPME_SYSCALL_EXECVEAT_E))
			return 0;
		c->started = 1;
	}
	if (e->type == PPME_PROCEXIT_1_E && e->tid == (uint64_t)c->pid)
		c->exited = 1;
	return 1;
}

/* reaps CMD if it is gone; 1 then */
int traced_cmd_gone(struct traced_cmd *c)
{
	if (!c->reaped && waitpid(c->pid, &c->status, WNOHANG) == c->pid)
		c->reaped = 1;
	return c->reaped;
}

void traced_cmd_signal(struct traced_cmd *c, int sig)
{
	if (c->pid > 0 && !c->reaped)
		kill(c->pid, sig);
}

int traced_cmd_finish(struct traced_cmd *c)
{
	if (c->go_fd >= 0) {	/* never released: it must not run */
		kill(c->pid, SIGKILL);
		close(c->go_fd);
		c->go_fd = -1;
	}
	if (c->status_fd >= 0) {
		close(c->status_fd);
		c->status_fd = -1;
	}
	while (!c->reaped) {
		if (waitpid(c->pid, &c->status, 0) == c->pid)
			c->reaped = 1;
		else if (errno != EINTR)
			return 1;
	}
	if (WIFSIGNALED(c->status))
		return 128 + WTERMSIG(c->status);
	return WEXITSTATUS(c->status);
}
