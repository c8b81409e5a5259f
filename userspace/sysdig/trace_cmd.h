/*
 * trace_cmd.h - `sysdig ... -- CMD ARGS...` (trace_cmd.c): CMD started
 * held until the capture runs, its events from its execve, its exit code.
 */
#ifndef TRACE_CMD_H
#define TRACE_CMD_H

#include <limits.h>
#include <stddef.h>
#include <sys/types.h>
#include "scap.h"

struct traced_cmd {
	pid_t pid;
	const char *argv0;
	char path[4096];	/* its file, found in PATH */
	int go_fd, status_fd;	/* -1 once released */
	int started;		/* its execve seen */
	int exited;		/* its procexit seen */
	int reaped, status;	/* waitpid */
};

/* forks CMD, held before its execve (as user when not NULL: needs root);
 * 0, or the exit code (127: not found, else 1) with one line in err */
int traced_cmd_start(struct traced_cmd *c, char *const *argv, const char *user, char *err, size_t len);
/* the capture runs: CMD may execve; -1 (err) when it could not */
int traced_cmd_release(struct traced_cmd *c, char *err, size_t len);
/* 0 for the events of the child before its execve; notes its procexit */
int traced_cmd_keep(struct traced_cmd *c, const struct scap_evt *e);
int traced_cmd_gone(struct traced_cmd *c);
void traced_cmd_signal(struct traced_cmd *c, int sig);
/* waits for CMD (killed if never released); its exit code, 128+N for
 * signal N */
int traced_cmd_finish(struct traced_cmd *c);

#endif
