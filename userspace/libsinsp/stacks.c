/*
 * stacks.c - call stacks of syscalls: the PPME_STACK_E / PPME_STACK_MAPS_E
 * state and their symbolisation (stacks.h).
 *
 * A stack event is kept per thread until the next one; it belongs to the
 * syscall of that thread whose enter event has its timestamp (the drivers
 * give both the same), so a lost enter event never borrows a stack.  The
 * user frames are the kernel's frame-pointer walk: the syscall wrapper of
 * the C library (frame 0) sets up no frame of its own, so the chain skips
 * its caller; the DWARF call frame information of frame 0 says where its
 * return address is on the stack, and the stack top the driver copied holds
 * it.  Names come from libdwfl over the process's mappings (maps format);
 * kernel names from /proc/kallsyms.
 */
#include <elfutils/libdwfl.h>
#include <dwarf.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "render.h"
#include "sinsp_int.h"
#include "stacks.h"

#define STACK_MAX_USER 64
#define STACK_MAX_TOP 32
#define STACK_MAX_KERNEL 32
#define STACK_MAX_TRACKED 8192	/* threads or processes kept; beyond: forget all */
#define MAPS_MAX 60000		/* bytes of mappings in one event (u16 lengths) */
/* live: a process's maps are read at most MAPS_WINDOW_READS times in
 * MAPS_WINDOW_NS; addresses a read did not explain (frame pointer junk, a
 * JIT, a process that is exiting) are remembered, MAPS_JUNK of them */
#define MAPS_WINDOW_NS 100000000ULL
#define MAPS_WINDOW_READS 10
#define MAPS_JUNK 16
/* live: the drivers' event times and this process's clock may differ so much */
#define MAPS_CLOCK_SLACK_NS 10000000ULL
#define X86_64_DWARF_SP 7
#define FRAME_RETURN (1ULL << 63)	/* frame cache key: a return address */
#define FRAME_CACHE_MAX 65536		/* frames kept per process; beyond: forget all */

struct thread_stack {
	uint64_t ts;		/* enter time of its syscall */
	int hidden;
	uint32_t nuser, ntop, nkernel;
	uint64_t user[STACK_MAX_USER], top[STACK_MAX_TOP], kernel[STACK_MAX_KERNEL];
};

struct proc_maps {
	char *text;		/* file mappings of the executable files, maps format */
	size_t len;
	uint64_t (*ranges)[2];	/* [start, end) of each line of text */
	size_t nranges;
	Dwfl *dwfl;		/* built on first use */
	/* rendered frames by address (| FRAME_RETURN for return addresses),
	 * and the leaf rule of frame 0 addresses (leaf_return) */
	struct i64map frames;
	struct i64map leaf;
	uint64_t read_epoch_ns;	/* live: when /proc/PID/maps was read (event time) */
	uint64_t window_ns;	/* live: start of the reads' window (monotonic) */
	uint32_t window_reads;
	uint64_t junk[MAPS_JUNK];	/* live: addresses a read left uncovered */
	uint32_t njunk;
};

struct ksym {
	uint64_t addr;
	char *name;
};

struct sinsp_stacks {
	struct i64map threads;	/* tid -> struct thread_stack */
	struct i64map procs;	/* pid -> struct proc_maps */
	struct ksym *ksyms;
	size_t nksyms;
	int ksyms_loaded;
	/* live: the PPME_STACK_MAPS_E event for the writer */
	uint8_t *maps_buf;
	size_t maps_cap;
	struct scap_evt maps_evt;
	int maps_pending;
};

static struct sinsp_stacks *stacks_of(struct sinsp *s)
{
	if (!s->stacks)
		s->stacks = calloc(1, sizeof(*s->stacks));
	return s->stacks;
}

static int free_thread(void *v, void *arg)
{
	(void)arg;
	free(v);
	return 0;
}

static int free_str(void *v, void *arg)
{
	(void)arg;
	free(v);
	return 0;
}

static void proc_maps_free(struct proc_maps *m)
{
	i64map_foreach(&m->frames, free_str, NULL);
	i64map_free(&m->frames);
	i64map_free(&m->leaf);
	free(m->ranges);
	if (m->dwfl)
		dwfl_end(m->dwfl);
	free(m->text);
	free(m);
}

static int free_proc(void *v, void *arg)
{
	(void)arg;
	proc_maps_free(v);
	return 0;
}

static void forget_all(struct i64map *m, int (*fr)(void *, void *))
{
	i64map_foreach(m, fr, NULL);
	i64map_free(m);
	memset(m, 0, sizeof(*m));
}

void stacks_free(struct sinsp_stacks *st)
{
	if (!st)
		return;
	forget_all(&st->threads, free_thread);
	forget_all(&st->procs, free_proc);
	for (size_t i = 0; i < st->nksyms; i++)
		free(st->ksyms[i].name);
	free(st->ksyms);
	free(st->maps_buf);
	free(st);
}

static uint64_t mono_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000ULL + (uint64_t)t.tv_nsec;
}

/* the process whose mappings a thread's addresses are in */
static int64_t pid_of(struct sinsp *s, int64_t tid)
{
	struct sinsp_threadinfo *t = thread_find(s, tid);

	return t && t->pid > 0 ? t->pid : tid;
}

/* ------------------------------------------------------------ mappings */

/* the path of a maps line ("start-end perms offset dev inode path"), or NULL */
static const char *maps_path(const char *line, const char *end)
{
	const char *p = line;

	for (int field = 0; field < 5; field++) {
		while (p < end && *p != ' ')
			p++;
		while (p < end && *p == ' ')
			p++;
	}
	return p < end && *p == '/' ? p : NULL;
}

static int maps_line_exec(const char *line)
{
	const char *perms = strchr(line, ' ');

	return perms && perms[1] && perms[2] && perms[3] == 'x';
}

/*
 * The lines of maps text whose file has an executable mapping: libdwfl
 * takes a module's load address from its first mapping, so every mapping
 * of those files is kept.  Returns the length written to out (at most max).
 */
static size_t maps_keep_exec(const char *text, size_t len, char *out, size_t max)
{
	size_t n = 0;
	const char *l, *e, *end = text + len;

	for (l = text; l < end; l = e + 1) {
		const char *path, *x;
		int keep = 0;

		e = memchr(l, '\n', end - l);
		if (!e)
			e = end;
		path = maps_path(l, e);
		if (!path)
			continue;
		for (x = text; x < end && !keep;) {
			const char *xe = memchr(x, '\n', end - x), *xp;

			if (!xe)
				xe = end;
			xp = maps_path(x, xe);
			keep = xp && xe - xp == e - path && !memcmp(xp, path, e - path) &&
			       maps_line_exec(x);
			x = xe + 1;
		}
		if (keep && n + (e - l) + 1 <= max) {
			memcpy(out + n, l, e - l);
			n += e - l;
			out[n++] = '\n';
		}
	}
	return n;
}

static int maps_covers(const struct proc_maps *m, uint64_t addr)
{
	for (size_t i = 0; i < m->nranges; i++)
		if (addr >= m->ranges[i][0] && addr < m->ranges[i][1])
			return 1;
	return 0;
}

/* the address ranges of m->text; 0 or -1 (no memory) */
static int maps_parse_ranges(struct proc_maps *m)
{
	const char *l = m->text, *end = m->text + m->len;

	for (const char *c = l; c < end; c++)
		m->nranges += *c == '\n';
	m->ranges = calloc(m->nranges + 1, sizeof(*m->ranges));
	if (!m->ranges)
		return -1;
	m->nranges = 0;
	while (l < end) {
		unsigned long long lo, hi;
		const char *e = memchr(l, '\n', end - l);

		if (sscanf(l, "%llx-%llx", &lo, &hi) == 2) {
			m->ranges[m->nranges][0] = lo;
			m->ranges[m->nranges++][1] = hi;
		}
		if (!e)
			break;
		l = e + 1;
	}
	return 0;
}

static struct proc_maps *maps_set(struct sinsp_stacks *st, int64_t pid, const char *text, size_t len)
{
	struct proc_maps *m = calloc(1, sizeof(*m)), *old;

	if (!m || !(m->text = malloc(len + 1))) {
		free(m);
		return NULL;
	}
	memcpy(m->text, text, len);
	m->text[len] = 0;
	m->len = len;
	if (maps_parse_ranges(m)) {
		proc_maps_free(m);
		return NULL;
	}
	if (st->procs.count >= STACK_MAX_TRACKED)
		forget_all(&st->procs, free_proc);
	old = i64map_get(&st->procs, pid);
	if (i64map_put(&st->procs, pid, m)) {
		proc_maps_free(m);
		return old;
	}
	if (old)
		proc_maps_free(old);
	return m;
}

/* live: the maps event for the writer (pid, text) */
static void maps_event_make(struct sinsp_stacks *st, const struct sinsp_evt *e, int64_t pid,
			    const struct proc_maps *m)
{
	size_t need = PPM_EVT_HDR_LEN + 4 + 8 + m->len + 1;
	uint8_t *p;
	uint16_t l0 = 8, l1 = (uint16_t)(m->len + 1), type = PPME_STACK_MAPS_E;
	uint32_t len = (uint32_t)need, np = 2;

	if (need > st->maps_cap) {
		free(st->maps_buf);
		st->maps_buf = malloc(need);
		st->maps_cap = st->maps_buf ? need : 0;
		if (!st->maps_buf)
			return;
	}
	p = st->maps_buf;
	memcpy(p, &e->scap.ts, 8);
	memcpy(p + 8, &e->scap.tid, 8);
	memcpy(p + 16, &len, 4);
	memcpy(p + 20, &type, 2);
	memcpy(p + 22, &np, 4);
	memcpy(p + 26, &l0, 2);
	memcpy(p + 28, &l1, 2);
	memcpy(p + 30, &pid, 8);
	memcpy(p + 38, m->text, m->len + 1);
	memset(&st->maps_evt, 0, sizeof(st->maps_evt));
	st->maps_evt.data = p;
	st->maps_evt.len = len;
	st->maps_evt.ts = e->scap.ts;
	st->maps_evt.tid = e->scap.tid;
	st->maps_evt.type = type;
	st->maps_evt.cpuid = e->scap.cpuid;
	if (scap_decode_params(&st->maps_evt) == 0)
		st->maps_pending = 1;
}

/* how many of the n addresses the mappings of m cover */
static uint32_t covered(const struct proc_maps *m, const uint64_t *addr, uint32_t n)
{
	uint32_t c = 0;

	for (uint32_t i = 0; i < n; i++)
		c += maps_covers(m, addr[i]);
	return c;
}

/* the same for maps text */
static uint32_t text_covered(const char *text, size_t len, const uint64_t *addr, uint32_t n)
{
	struct proc_maps m = { .text = (char *)text, .len = len };
	uint32_t c;

	if (maps_parse_ranges(&m))
		return 0;
	c = covered(&m, addr, n);
	free(m.ranges);
	return c;
}

/*
 * live: /proc/PID/maps, kept and handed to the writer when it changed and
 * covers at least as many of the stack's n addresses as before (a process
 * that is exiting loses its mappings)
 */
static struct proc_maps *maps_read(struct sinsp_stacks *st, const struct sinsp_evt *e, int64_t pid,
				   const uint64_t *addr, uint32_t n_addr)
{
	static char raw[1 << 20], kept[MAPS_MAX];
	struct proc_maps *m = i64map_get(&st->procs, pid), *old = m;
	struct timespec now;
	char path[64];
	size_t n, k;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%" PRId64 "/maps", pid);
	clock_gettime(CLOCK_REALTIME, &now);
	f = fopen(path, "r");
	if (f) {	/* else gone: what was read before stays */
		n = fread(raw, 1, sizeof(raw), f);
		fclose(f);
		k = maps_keep_exec(raw, n, kept, sizeof(kept));
		if (!m || ((m->len != k || memcmp(m->text, kept, k)) &&
			   text_covered(kept, k, addr, n_addr) >= covered(m, addr, n_addr))) {
			m = maps_set(st, pid, kept, k);
			if (m)
				maps_event_make(st, e, pid, m);
		}
	}
	if (!m)
		return NULL;
	m->read_epoch_ns = (uint64_t)now.tv_sec * 1000000000ULL + (uint64_t)now.tv_nsec;
	for (uint32_t i = 0; m == old && i < n_addr; i++)
		if (!maps_covers(m, addr[i]))
			m->junk[m->njunk++ % MAPS_JUNK] = addr[i];
	return m;
}

static Dwfl *maps_dwfl(struct proc_maps *m)
{
	static const Dwfl_Callbacks cb = {
		.find_elf = dwfl_linux_proc_find_elf,
		.find_debuginfo = dwfl_standard_find_debuginfo,
	};
	FILE *f;

	if (m->dwfl || !m->len)
		return m->dwfl;
	m->dwfl = dwfl_begin(&cb);
	if (!m->dwfl)
		return NULL;
	f = fmemopen(m->text, m->len, "r");
	dwfl_report_begin(m->dwfl);
	if (f) {
		dwfl_linux_proc_maps_report(m->dwfl, f);
		fclose(f);
	}
	dwfl_report_end(m->dwfl, NULL, NULL);
	return m->dwfl;
}

/* -------------------------------------------------------------- events */

static uint32_t take_words(uint64_t *out, uint32_t max, const struct scap_evt *e, uint32_t i)
{
	uint32_t n = i < e->nparams ? e->plen[i] / 8 : 0;

	if (n > max)
		n = max;
	if (n)
		memcpy(out, e->pval[i], (size_t)n * 8);
	return n;
}

static uint64_t leaf_return(struct proc_maps *m, const struct thread_stack *t);

/* an address of a stack the maps do not name, and no read left unnamed */
static int maps_unknown(const struct proc_maps *m, uint64_t addr)
{
	if (maps_covers(m, addr))
		return 0;
	for (uint32_t i = 0; i < MAPS_JUNK && i < m->njunk; i++)
		if (m->junk[i] == addr)
			return 0;
	return 1;
}

/* 1 when the window of m's reads has room for one more */
static int maps_may_read(struct proc_maps *m)
{
	uint64_t now = mono_ns();

	if (now - m->window_ns > MAPS_WINDOW_NS) {
		m->window_ns = now;
		m->window_reads = 0;
	}
	return m->window_reads++ < MAPS_WINDOW_READS;
}

/*
 * live: the mappings of the stack's process, read again when an address is
 * in none of them - a user frame or the caller of a leaf without a frame
 * (render_user) -, no read left it unnamed before, and the stack was taken
 * after the last read (the process may have mapped more since: the C
 * library after the dynamic loader's first calls, a library it loaded; an
 * older stack's mappings were all in that read).  The consumer reads events
 * in bursts: the time of the stack, not of its reading, says whether a read
 * can help.
 */
static void stack_maps(struct sinsp_stacks *st, const struct sinsp_evt *e, int64_t pid,
		       const struct thread_stack *t)
{
	struct proc_maps *m = i64map_get(&st->procs, pid);
	uint64_t addr[STACK_MAX_USER + 1];
	uint32_t n = t->nuser;

	memcpy(addr, t->user, (size_t)n * 8);
	if (m && maps_dwfl(m) && (addr[n] = leaf_return(m, t)))
		n++;
	if (m) {
		uint32_t unknown = 0;

		for (uint32_t i = 0; i < n; i++)
			unknown += maps_unknown(m, addr[i]);
		if (!unknown || e->scap.ts + MAPS_CLOCK_SLACK_NS < m->read_epoch_ns ||
		    !maps_may_read(m))
			return;
	}
	maps_read(st, e, pid, addr, n);
}

static void stack_event(struct sinsp *s, struct sinsp_stacks *st, struct sinsp_evt *e)
{
	struct thread_stack *t = i64map_get(&st->threads, (int64_t)e->scap.tid);

	if (!t) {
		if (st->threads.count >= STACK_MAX_TRACKED)
			forget_all(&st->threads, free_thread);
		t = malloc(sizeof(*t));
		if (!t || i64map_put(&st->threads, (int64_t)e->scap.tid, t)) {
			free(t);
			return;
		}
	}
	t->ts = e->scap.ts;
	t->hidden = 0;
	t->nuser = take_words(t->user, STACK_MAX_USER, &e->scap, 0);
	t->ntop = take_words(t->top, STACK_MAX_TOP, &e->scap, 1);
	t->nkernel = take_words(t->kernel, STACK_MAX_KERNEL, &e->scap, 2);
	if (!s->is_live || !t->nuser)
		return;
	stack_maps(st, e, pid_of(s, (int64_t)e->scap.tid), t);
}

void stacks_event(struct sinsp *s, struct sinsp_evt *e)
{
	struct sinsp_stacks *st = stacks_of(s);

	if (!st)
		return;
	st->maps_pending = 0;
	if (e->scap.type == PPME_STACK_E) {
		stack_event(s, st, e);
	} else if (e->scap.type == PPME_STACK_MAPS_E && e->scap.nparams >= 2 &&
		   e->scap.plen[0] == 8 && e->scap.plen[1] > 0) {
		int64_t pid;
		size_t len = e->scap.plen[1];

		memcpy(&pid, e->scap.pval[0], 8);
		if (e->scap.pval[1][len - 1] == 0)
			len--;
		maps_set(st, pid, (const char *)e->scap.pval[1], len);
	}
}

const struct scap_evt *stacks_take_maps(struct sinsp *s)
{
	struct sinsp_stacks *st = s->stacks;

	if (!st || !st->maps_pending)
		return NULL;
	st->maps_pending = 0;
	return &st->maps_evt;
}

/* the stack of e's syscall: its enter event's time */
static struct thread_stack *stack_of(struct sinsp *s, const struct sinsp_evt *e)
{
	struct thread_stack *t;
	uint64_t ts;

	if (!s->stacks || !e->info || ppm_event_is_ext(e->scap.type) ||
	    !(t = i64map_get(&s->stacks->threads, (int64_t)e->scap.tid)))
		return NULL;
	if (ppm_event_is_enter(e->scap.type))
		ts = e->scap.ts;
	else if (e->has_enter)
		ts = e->enter.ts;
	else
		return NULL;
	return t->ts == ts && !t->hidden ? t : NULL;
}

void stacks_hide(struct sinsp *s, const struct sinsp_evt *e)
{
	struct thread_stack *t = stack_of(s, e);

	if (t)
		t->hidden = 1;
}

/* ---------------------------------------------------------- rendering */

static const char *base_name(const char *path)
{
	const char *b = path ? strrchr(path, '/') : NULL;

	return b ? b + 1 : path;
}

/*
 * Where frame 0 keeps its return address when it has no frame of its own
 * (the call frame address is the stack pointer plus an offset): the word of
 * the stack top; 0 when it has a frame (the chain is right) or it is unknown.
 */
static uint64_t leaf_slot(Dwfl *d, uint64_t pc)
{
	Dwfl_Module *mod = dwfl_addrmodule(d, pc);
	Dwarf_CFI *cfi;
	Dwarf_Frame *fr = NULL;
	Dwarf_Addr bias;
	Dwarf_Op *ops;
	size_t nops;
	uint64_t slot = 0;

	if (!mod)
		return 0;
	cfi = dwfl_module_eh_cfi(mod, &bias);
	if (!cfi)
		cfi = dwfl_module_dwarf_cfi(mod, &bias);
	if (!cfi || dwarf_cfi_addrframe(cfi, pc - bias, &fr) != 0)
		return 0;
	if (dwarf_frame_cfa(fr, &ops, &nops) == 0 && nops == 1 &&
	    (ops[0].atom == DW_OP_bregx || ops[0].atom == DW_OP_breg0 + X86_64_DWARF_SP) &&
	    (ops[0].atom != DW_OP_bregx || ops[0].number == X86_64_DWARF_SP)) {
		uint64_t off = ops[0].atom == DW_OP_bregx ? ops[0].number2 : ops[0].number;

		if (off >= 8 && off % 8 == 0 && (off - 8) / 8 < STACK_MAX_TOP)
			slot = (off - 8) / 8 + 1;
	}
	free(fr);
	return slot;
}

static uint64_t leaf_return(struct proc_maps *m, const struct thread_stack *t)
{
	uintptr_t slot;

	if (!t->nuser)
		return 0;
	slot = (uintptr_t)i64map_get(&m->leaf, (int64_t)t->user[0]);
	if (!slot) {	/* stored + 1: 1 is "none" */
		slot = (uintptr_t)leaf_slot(m->dwfl, t->user[0]) + 1;
		if (m->leaf.count >= FRAME_CACHE_MAX) {
			i64map_free(&m->leaf);
			memset(&m->leaf, 0, sizeof(m->leaf));
		}
		i64map_put(&m->leaf, (int64_t)t->user[0], (void *)slot);
	}
	return slot > 1 && slot - 2 < t->ntop ? t->top[slot - 2] : 0;
}

static void symbolise(Dwfl *d, struct sbuf *b, uint64_t pc, int is_return)
{
	/* a return address may be past the end of a call's function */
	uint64_t look = is_return ? pc - 1 : pc;
	Dwfl_Module *mod = d ? dwfl_addrmodule(d, look) : NULL;
	const char *name = NULL, *mname = NULL;
	GElf_Off off = 0;
	GElf_Sym sym;

	if (mod) {
		name = dwfl_module_addrinfo(mod, look, &off, &sym, NULL, NULL, NULL);
		mname = dwfl_module_info(mod, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
	}
	if (name)
		sb_printf(b, "%s+0x%" PRIx64, name, (uint64_t)off + (is_return ? 1 : 0));
	else
		sb_printf(b, "0x%" PRIx64, pc);
	if (mname)
		sb_printf(b, " (%s)", base_name(mname));
}

/* one frame, from the process's cache of rendered frames */
static void put_user_frame(struct proc_maps *m, struct sbuf *b, uint64_t pc, int is_return)
{
	int64_t key = (int64_t)(pc | (is_return ? FRAME_RETURN : 0));
	char *str = m ? i64map_get(&m->frames, key) : NULL;
	struct sbuf one = { 0 };

	if (str) {
		sb_puts(b, str);
		return;
	}
	symbolise(m ? m->dwfl : NULL, &one, pc, is_return);
	sb_put(b, one.p, one.len);
	if (!m) {
		sb_free(&one);
		return;
	}
	if (m->frames.count >= FRAME_CACHE_MAX) {
		i64map_foreach(&m->frames, free_str, NULL);
		i64map_free(&m->frames);
		memset(&m->frames, 0, sizeof(m->frames));
	}
	if (i64map_put(&m->frames, key, one.p))
		sb_free(&one);
}

static void render_user(struct sinsp *s, const struct sinsp_evt *e, const struct thread_stack *t,
			struct sbuf *b)
{
	struct proc_maps *m = i64map_get(&s->stacks->procs, pid_of(s, (int64_t)e->scap.tid));
	/* a capture without the state engine (-w alone) keyed them by thread */
	if (!m)
		m = i64map_get(&s->stacks->procs, (int64_t)e->scap.tid);
	uint64_t ra = m && maps_dwfl(m) ? leaf_return(m, t) : 0;

	if (m && !m->dwfl)
		m = NULL;
	for (uint32_t i = 0; i < t->nuser; i++) {
		if (i)
			sb_puts(b, " <- ");
		put_user_frame(m, b, t->user[i], i > 0);
		if (i == 0 && ra && (t->nuser < 2 || t->user[1] != ra)) {
			sb_puts(b, " <- ");
			put_user_frame(m, b, ra, 1);
		}
	}
}

static int cmp_ksym(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* /proc/kallsyms, sorted; empty where the addresses are hidden (all 0) */
static void load_ksyms(struct sinsp_stacks *st)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	char line[512];
	size_t cap = 0;

	st->ksyms_loaded = 1;
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long a;
		char type, name[256];

		if (sscanf(line, "%llx %c %255s", &a, &type, name) != 3 || !a ||
		    (type != 't' && type != 'T'))
			continue;
		if (st->nksyms == cap) {
			struct ksym *n = realloc(st->ksyms, (cap = cap ? cap * 2 : 65536) * sizeof(*n));

			if (!n)
				break;
			st->ksyms = n;
		}
		st->ksyms[st->nksyms].addr = a;
		st->ksyms[st->nksyms].name = strdup(name);
		if (st->ksyms[st->nksyms].name)
			st->nksyms++;
	}
	fclose(f);
	qsort(st->ksyms, st->nksyms, sizeof(*st->ksyms), cmp_ksym);
}

/* the kernel symbol at or below pc, or NULL */
static const struct ksym *ksym_of(const struct sinsp_stacks *st, uint64_t pc)
{
	size_t lo = 0, hi = st->nksyms;

	while (hi - lo > 1) {
		size_t mid = (lo + hi) / 2;

		if (st->ksyms[mid].addr <= pc)
			lo = mid;
		else
			hi = mid;
	}
	return st->nksyms && st->ksyms[lo].addr <= pc ? &st->ksyms[lo] : NULL;
}

/* frames of the tracing machinery that called our program */
static int is_tracing_frame(const struct ksym *k)
{
	static const char *const prefixes[] = { "bpf_prog_", "bpf_trace_run", "__bpf_trace_",
						"__traceiter_" };

	for (size_t i = 0; k && i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (!strncmp(k->name, prefixes[i], strlen(prefixes[i])))
			return 1;
	return 0;
}

static void render_kernel(struct sinsp_stacks *st, const struct thread_stack *t, struct sbuf *b)
{
	uint32_t i = 0, first;

	if (!st->ksyms_loaded)
		load_ksyms(st);
	while (i + 1 < t->nkernel && is_tracing_frame(ksym_of(st, t->kernel[i])))
		i++;
	for (first = i; i < t->nkernel; i++) {
		const struct ksym *k = ksym_of(st, t->kernel[i]);

		if (i > first)
			sb_puts(b, " <- ");
		if (k)
			sb_printf(b, "%s+0x%" PRIx64, k->name, t->kernel[i] - k->addr);
		else
			sb_printf(b, "0x%" PRIx64, t->kernel[i]);
	}
}

int stacks_render(struct sinsp *s, const struct sinsp_evt *e, int kernel, struct sbuf *b)
{
	const struct thread_stack *t = stack_of(s, e);

	if (!t || !(kernel ? t->nkernel : t->nuser))
		return 0;
	if (kernel)
		render_kernel(s->stacks, t, b);
	else
		render_user(s, e, t, b);
	return 1;
}
