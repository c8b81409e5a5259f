/*
 * robust_read.c - robustness driver for .scap readers.
 *
 * For every trace given: truncations at 200 seeded random offsets of the
 * raw file, truncations at every block boundary of the decoded stream for
 * the small traces (< 512 KiB decoded), 200 copies with random bytes
 * flipped (mangle.c; written plain and gzip in turn), 200 truncations of
 * the gzip'd stream (which must end with an error, never a quiet end of
 * file) and 200 copies with one block missing (plain and gzip in turn:
 * state built on missing events, e.g. a clone after a close enter whose
 * exit is gone, must neither crash nor leak).  Each
 * case is read in a forked child under alarm(): by default with the
 * libscap reader (all events, parameters decoded and touched), which must
 * end with SCAP_EOF or a non-empty error message; with --exec CMD the
 * command `CMD FILE` runs instead (see exec_all: no signal, no timeout, no
 * sanitizer report, and a failure says so in exactly one line).  A crash, a hang or a silent failure is reported with
 * the scapmangle command line that reproduces it; the exit status is the
 * number of bad cases (capped at 100).
 *
 * Cases run in batches of 64 per child, --jobs (default 2) children at a
 * time; a batch that fails is re-run one case per child to report it.
 *
 *   robust_read [--seed N] [--cases N] [--jobs N] [--boundary-step N]
 *               [--timeout S] [--exec CMD] TRACE...
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mangle.h"
#include "scap.h"

#define SMALL_TRACE (512 * 1024)

static uint64_t g_seed = 1;
static unsigned g_cases = 200;
static unsigned g_timeout = 10;
static const char *g_exec;
static char *g_exec_argv[32];	/* g_exec split at spaces, the case file last */
static unsigned g_jobs = 2;
static unsigned g_bstep = 1;	/* every g_bstep-th block boundary */
static unsigned g_bad, g_total;

/* child: read the whole file; exit 0 if it ended cleanly or with a
 * message (must_fail: only with a message) */
static int read_all(const char *path, int must_fail)
{
	char err[SCAP_ERRBUF_SIZE] = "";
	struct scap *h = scap_open_file(path, err);
	struct scap_evt e;
	volatile unsigned sum = 0;
	int rc;

	if (!h)
		return err[0] ? 0 : 3;
	while ((rc = scap_next(h, &e)) == SCAP_SUCCESS || rc == SCAP_NEW_SECTION) {
		uint32_t i, j;

		if (rc == SCAP_NEW_SECTION)
			continue;
		if (scap_decode_params(&e))
			return 4;
		for (i = 0; i < e.nparams; i++)
			for (j = 0; j < e.plen[i]; j += 61)
				sum += e.pval[i][j];
		h->ops->progress(h);
	}
	if (rc != SCAP_EOF && !h->err[0])
		rc = 5;
	else if (rc == SCAP_EOF && must_fail)
		rc = 6;
	else
		rc = 0;
	scap_close(h);
	return rc + (int)(sum & 0);	/* sum keeps the reads alive */
}

/* One trace and the list of its cases (deterministic from the seed). */
struct trace_ctx {
	const char *path;
	struct blob raw, dec;
	struct blob gzdec;	/* dec gzip'd */
	int gz;
	size_t *bnd, nb;	/* block boundaries of small traces */
	size_t nblocks;		/* blocks of the decoded stream */
	size_t ncases;
};

/* Build case idx: 0 intact, then truncations, boundaries, flips, gzip
 * truncations, missing blocks.  Fills *out (malloc'd when *owned), *gz,
 * *must_fail (a damage every reader must report) and repro. */
static void make_case(const struct trace_ctx *t, size_t idx, struct blob *out,
		      int *gz, int *owned, int *must_fail, char *repro, size_t rsize)
{
	uint64_t st = g_seed * 0x9E3779B97F4A7C15ull + idx, seed;

	*gz = 0;
	*owned = 0;
	*must_fail = 0;
	if (idx == 0) {
		*out = t->raw;
		snprintf(repro, rsize, "(intact file %s)", t->path);
		return;
	}
	idx--;
	if (idx < g_cases) {
		out->p = t->raw.p;
		out->len = mangle_rand(&st) % t->raw.len;
		snprintf(repro, rsize, "truncate %s OUT %zu", t->path, out->len);
		return;
	}
	idx -= g_cases;
	if (idx < t->nb) {
		size_t off = t->bnd[idx * g_bstep];

		out->p = t->dec.p;
		out->len = off;
		snprintf(repro, rsize, "decompress %s D; scapmangle truncate D OUT %zu",
			 t->path, off);
		return;
	}
	idx -= t->nb;
	if (idx >= g_cases) {
		idx -= g_cases;
		if (idx < g_cases) {	/* a cut gzip stream */
			out->p = t->gzdec.p;
			out->len = mangle_rand(&st) % t->gzdec.len;
			*must_fail = 1;
			snprintf(repro, rsize, "decompress %s D; gzip D; scapmangle truncate D.gz OUT %zu",
				 t->path, out->len);
			return;
		}
		idx -= g_cases;	/* one block missing (not the SHB) */
		{
			size_t k = 1 + mangle_rand(&st) % (t->nblocks > 2 ? t->nblocks - 2 : 1);

			*gz = idx & 1;
			out->p = malloc(t->dec.len);
			if (!out->p)
				exit(100);
			*owned = 1;
			memcpy(out->p, t->dec.p, t->dec.len);
			out->len = t->dec.len;
			mangle_drop_block(out, k);
			snprintf(repro, rsize, "dropblock %s OUT %zu%s", t->path, k, *gz ? " gz" : "");
			return;
		}
	}
	seed = g_seed * 1000003u + idx;
	*gz = idx & 1;
	out->p = malloc(t->dec.len);
	out->len = t->dec.len;
	if (!out->p)
		exit(100);
	*owned = 1;
	memcpy(out->p, t->dec.p, t->dec.len);
	mangle_flip(out, seed);
	snprintf(repro, rsize, "flip %s OUT %llu%s", t->path,
		 (unsigned long long)seed, *gz ? " gz" : "");
}

/* a memfd holding case idx */
static int case_fd(const struct trace_ctx *t, size_t idx, char *repro, size_t rsize,
		   int *must_fail)
{
	struct blob b;
	int gz, owned, fd = memfd_create("scapcase", 0);

	make_case(t, idx, &b, &gz, &owned, must_fail, repro, rsize);
	if (fd < 0 || mangle_write_fd(fd, b.p, b.len, gz)) {
		fprintf(stderr, "robust_read: can't create case: %s\n", strerror(errno));
		exit(100);
	}
	if (owned)
		free(b.p);
	return fd;
}

/* in a child: read the case held by memfd fd with the libscap reader */
static int read_all_fd(int fd, int must_fail)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	return read_all(path, must_fail);
}

static int wait_child(pid_t pid)
{
	int status;

	if (pid < 0 || waitpid(pid, &status, 0) < 0) {
		fprintf(stderr, "robust_read: fork/wait: %s\n", strerror(errno));
		exit(100);
	}
	return status;
}

/* one case in its own child; reports it if bad */
static void check_case(const struct trace_ctx *t, size_t idx)
{
	char repro[1024];
	int must_fail, fd = case_fd(t, idx, repro, sizeof(repro), &must_fail), status;
	pid_t pid = fork();

	if (pid == 0) {
		alarm(g_timeout);
		_exit(read_all_fd(fd, must_fail));
	}
	close(fd);
	status = wait_child(pid);
	g_total++;
	if (WIFSIGNALED(status)) {
		g_bad++;
		fprintf(stderr, "BAD %s: %s (scapmangle %s)\n", t->path,
			WTERMSIG(status) == SIGALRM ? "timeout" : strsignal(WTERMSIG(status)),
			repro);
	} else if (WEXITSTATUS(status) != 0) {
		g_bad++;
		fprintf(stderr, "BAD %s: reader ended without a message (code %d) (scapmangle %s)\n",
			t->path, WEXITSTATUS(status), repro);
	}
}

/* cases [a, b) in one child (forks are the main cost) */
static pid_t start_batch(const struct trace_ctx *t, size_t a, size_t b)
{
	pid_t pid = fork();
	size_t i;

	if (pid != 0)
		return pid;
	for (i = a; i < b; i++) {
		char repro[1024];
		int must_fail, fd = case_fd(t, i, repro, sizeof(repro), &must_fail);

		alarm(g_timeout);
		if (read_all_fd(fd, must_fail))
			_exit(1);
		close(fd);
	}
	_exit(0);
}

/* wait for any child: the index of the record that has its pid among n
 * records (each starting with a pid_t, stride bytes apart), n if none */
static size_t wait_any(const void *runs, size_t stride, size_t n, int *status)
{
	pid_t pid = wait(status);
	size_t i;

	if (pid < 0)
		exit(100);
	for (i = 0; i < n && *(const pid_t *)((const char *)runs + i * stride) != pid; i++)
		;
	return i;
}

/* all cases in batches of 64, g_jobs batches at a time; a batch that did
 * not end cleanly is re-run case by case to find and report the bad ones */
static void check_all(const struct trace_ctx *t)
{
	struct { pid_t pid; size_t a, b; } run[64];
	size_t next = 1, i, nrun = 0;

	while (next < t->ncases || nrun) {
		int status;

		while (next < t->ncases && nrun < g_jobs) {
			size_t b = next + 64 < t->ncases ? next + 64 : t->ncases;

			run[nrun].pid = start_batch(t, next, b);
			if (run[nrun].pid < 0)
				exit(100);
			run[nrun].a = next;
			run[nrun].b = b;
			nrun++;
			next = b;
		}
		i = wait_any(run, sizeof(run[0]), nrun, &status);
		if (i == nrun)
			continue;
		if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
			g_total += (unsigned)(run[i].b - run[i].a);
		} else {
			size_t k;

			for (k = run[i].a; k < run[i].b; k++)
				check_case(t, k);
		}
		run[i] = run[--nrun];
	}
}

/*
 * --exec mode: every case runs `CMD FILE` in its own child, g_jobs at a
 * time, stdout to /dev/null and stderr kept in a memfd.  A case is bad when
 * the command is killed by a signal or the timeout, when a sanitizer
 * reports anything, or when it fails (non-zero exit) without exactly one
 * non-empty line on stderr.  The intact file must exit 0.
 */
struct exec_case {
	pid_t pid;
	int errfd;
	int must_fail;
	size_t idx;
	char repro[1024];
};

/* split a copy of cmd at spaces into at most max words, NULL-terminated */
static int split_words(const char *cmd, char **argv, int max)
{
	char *copy = strdup(cmd), *w;
	int n = 0;

	for (w = strtok(copy, " "); w && n < max; w = strtok(NULL, " "))
		argv[n++] = w;
	argv[n] = NULL;
	return n;
}

static void exec_start(const struct trace_ctx *t, size_t idx, struct exec_case *c)
{
	int fd = case_fd(t, idx, c->repro, sizeof(c->repro), &c->must_fail);
	char path[64];
	size_t n = 0;

	c->idx = idx;
	c->errfd = memfd_create("stderr", MFD_CLOEXEC);
	if (c->errfd < 0)
		exit(100);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	c->pid = fork();
	if (c->pid < 0)
		exit(100);
	if (c->pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		if (null < 0 || dup2(null, 1) < 0 || dup2(c->errfd, 2) < 0)
			_exit(126);
		while (g_exec_argv[n])
			n++;
		g_exec_argv[n] = path;
		alarm(g_timeout);	/* survives exec */
		execvp(g_exec_argv[0], g_exec_argv);
		fprintf(stderr, "can't run %s: %s\n", g_exec_argv[0], strerror(errno));
		_exit(127);
	}
	close(fd);
}

/* why the finished case is bad, or NULL */
static const char *exec_verdict(const struct exec_case *c, int status)
{
	static char why[600];
	char err[512];
	ssize_t n = pread(c->errfd, err, sizeof(err) - 1, 0);
	char *nl;

	err[n > 0 ? n : 0] = '\0';
	if (WIFSIGNALED(status))
		return WTERMSIG(status) == SIGALRM ? "timeout" : strsignal(WTERMSIG(status));
	if (strstr(err, "Sanitizer") || strstr(err, "runtime error")) {
		snprintf(why, sizeof(why), "sanitizer report: %.200s", err);
		return why;
	}
	if (c->idx == 0 && WEXITSTATUS(status) != 0) {
		snprintf(why, sizeof(why), "intact file failed (code %d): %.200s",
			 WEXITSTATUS(status), err);
		return why;
	}
	if (WEXITSTATUS(status) == 0 && c->must_fail)
		return "exit 0 on damage that must be reported";
	if (WEXITSTATUS(status) == 0)
		return NULL;
	nl = strchr(err, '\n');
	if (n <= 1 || !nl || nl[1] != '\0' || nl == err) {
		snprintf(why, sizeof(why), "exit %d without exactly one error line: \"%.200s\"",
			 WEXITSTATUS(status), err);
		return why;
	}
	return NULL;
}

static void exec_all(const struct trace_ctx *t)
{
	struct exec_case run[64];
	size_t next = 0, nrun = 0, i;

	while (next < t->ncases || nrun) {
		const char *why;
		int status;

		while (next < t->ncases && nrun < g_jobs)
			exec_start(t, next++, &run[nrun++]);
		i = wait_any(run, sizeof(run[0]), nrun, &status);
		if (i == nrun)
			continue;
		g_total++;
		why = exec_verdict(&run[i], status);
		if (why) {
			g_bad++;
			fprintf(stderr, "BAD %s: %s (scapmangle %s)\n", t->path, why, run[i].repro);
		}
		close(run[i].errfd);
		run[i] = run[--nrun];
	}
}

static void run_trace(const char *path)
{
	struct trace_ctx t = { .path = path };

	if (mangle_load(path, &t.raw, &t.dec, &t.gz) || !t.dec.len) {
		fprintf(stderr, "robust_read: can't read %s\n", path);
		exit(100);
	}
	if (t.dec.len <= SMALL_TRACE)
		t.nb = (mangle_boundaries(&t.dec, &t.bnd) + g_bstep - 1) / g_bstep;
	{
		size_t *all;
		int fd = memfd_create("gz", 0);

		t.nblocks = mangle_boundaries(&t.dec, &all);
		free(all);
		if (fd < 0 || mangle_write_fd(fd, t.dec.p, t.dec.len, 1) ||
		    (t.gzdec.len = (size_t)lseek(fd, 0, SEEK_END)) == 0 ||
		    !(t.gzdec.p = malloc(t.gzdec.len)) ||
		    pread(fd, t.gzdec.p, t.gzdec.len, 0) != (ssize_t)t.gzdec.len) {
			fprintf(stderr, "robust_read: can't gzip %s\n", path);
			exit(100);
		}
		close(fd);
	}
	t.ncases = 1 + g_cases + t.nb + 3 * g_cases;
	/* the intact file must read cleanly, or the harness proves nothing */
	if (g_exec) {
		exec_all(&t);
	} else {
		check_case(&t, 0);
		check_all(&t);
	}
	free(t.bnd);
	free(t.gzdec.p);
	free(t.raw.p);
	free(t.dec.p);
}

int main(int argc, char **argv)
{
	int i = 1;

	for (; i < argc && !strncmp(argv[i], "--", 2); i += 2) {
		if (i + 1 >= argc)
			break;
		if (!strcmp(argv[i], "--seed"))
			g_seed = strtoull(argv[i + 1], NULL, 0);
		else if (!strcmp(argv[i], "--cases"))
			g_cases = (unsigned)strtoul(argv[i + 1], NULL, 0);
		else if (!strcmp(argv[i], "--timeout"))
			g_timeout = (unsigned)strtoul(argv[i + 1], NULL, 0);
		else if (!strcmp(argv[i], "--boundary-step"))
			g_bstep = (unsigned)strtoul(argv[i + 1], NULL, 0);
		else if (!strcmp(argv[i], "--jobs"))
			g_jobs = (unsigned)strtoul(argv[i + 1], NULL, 0);
		else if (!strcmp(argv[i], "--exec"))
			g_exec = argv[i + 1];
		else
			break;
	}
	if (g_exec && split_words(g_exec, g_exec_argv, 31) < 1) {
		fprintf(stderr, "robust_read: empty --exec command\n");
		return 100;
	}
	if (g_jobs < 1 || g_jobs > 64)
		g_jobs = 2;
	if (g_bstep < 1)
		g_bstep = 1;
	if (i >= argc) {
		fprintf(stderr, "usage: robust_read [--seed N] [--cases N] [--jobs N] [--boundary-step N]\n"
				"                   [--timeout S] [--exec CMD] TRACE...\n");
		return 100;
	}
	for (; i < argc; i++)
		run_trace(argv[i]);
	printf("robust_read: %u cases, %u bad\n", g_total, g_bad);
	return g_bad > 100 ? 100 : (int)g_bad;
}
