/*
 * builder.bpf.h - building ring records in the per-CPU scratch area.
 *
 * A filler appends events (header, length array, values) to scratch->buf
 * through a struct bld; record_submit() copies the finished record into the
 * CPU's ring buffer.  Every offset is masked so the verifier can bound each
 * access: values are written below HALF + the largest single write.
 */
#ifndef BUILDER_BPF_H
#define BUILDER_BPF_H

#define HALF (SCAP_BPF_SCRATCH_SIZE / 2)
#define HMASK (HALF - 1)
#define MAX_STR 4096		/* largest string parameter */
#define TMP_SIZE 8192		/* path building area */
#define TMASK (TMP_SIZE / 2 - 1)

/* what the dispatcher hands to a filler through the tail call */
/* which events of its pair a filler writes (call_ctx.phase) */
#define PHASE_PAIR 0		/* exit-only mode: enter and exit, at exit */
#define PHASE_ENTER 1		/* at sys_enter: the enter event */
#define PHASE_EXIT 2		/* at sys_exit: the exit event */

struct call_ctx {
	__u64 ts;		/* this event's time (exit time in PHASE_PAIR) */
	__u64 ets;		/* enter time: ts (PHASE_PAIR: the exit time too) */
	__u64 tid;
	__u64 args[6];
	__s64 ret;
	__u32 nr;
	__u32 cpu;
	__u16 enter_type;
	__u16 exit_type;
	__u32 phase;		/* PHASE_* */
};

/* builder position saved across global (separately verified) functions */
struct bld_state {
	__u32 off, evt, idx, err;
};

struct scratch {
	struct call_ctx c;
	struct bld_state st;
	__u8 buf[SCAP_BPF_SCRATCH_SIZE];
	__u8 tmp[TMP_SIZE + 512];	/* + slack for masked writes, + a name staging area */
};

/* v & m, kept as a real AND so the verifier sees the bound */
#define BOUND(v, m) ({ __u64 __v = (v); asm volatile("%0 &= " #m : "+r"(__v)); __v; })

struct bld {
	struct scratch *s;
	__u32 off;		/* record end */
	__u32 evt;		/* start of the current event */
	__u32 idx;		/* next parameter */
	__u32 err;		/* overflow: record dropped */
};

static __always_inline __u8 *bpos(struct bld *b, __u32 off)
{
	return b->s->buf + (off & HMASK);
}

/*
 * An event of @type with the parameter count of the event table
 * (fill_table.h); enter events (even ids) get the enter time, exit events
 * the exit time.
 */
static __always_inline void begin_evt(struct bld *b, __u16 type)
{
	__u64 ts = (type & 1) ? b->s->c.ts : b->s->c.ets;
	__u32 np = type < PPM_EVENT_MAX ? g_event_nparams[type] : 0;
	__u8 *h;

	if (b->off >= HALF - 128) {
		b->err = 1;
		return;
	}
	b->evt = b->off;
	h = bpos(b, b->evt);
	*(__u64 *)h = ts;
	*(__u64 *)(h + 8) = b->s->c.tid;
	*(__u16 *)(h + 20) = type;
	*(__u32 *)(h + 22) = np;
	b->idx = 0;
	b->off = b->evt + PPM_EVT_HDR_LEN + 2 * (np & 31);
}

/* a filler that wrote another number of parameters than the table's: the
 * record is dropped (counted as a scratch drop), never written malformed */
static __always_inline void end_evt(struct bld *b)
{
	if (b->idx != *(__u32 *)(bpos(b, b->evt) + 22))
		b->err = 1;
	*(__u32 *)(bpos(b, b->evt) + 16) = b->off - b->evt;
}

/* close the current parameter: n value bytes were written at b->off */
static __always_inline void param_done(struct bld *b, __u32 n)
{
	*(__u16 *)bpos(b, b->evt + PPM_EVT_HDR_LEN + 2 * (b->idx & 31)) = n;
	b->idx++;
	b->off += n;
	if (b->off >= HALF)
		b->err = 1;
}

static __always_inline void push_u8(struct bld *b, __u8 v)
{
	*bpos(b, b->off) = v;
	param_done(b, 1);
}

static __always_inline void push_u16(struct bld *b, __u16 v)
{
	*(__u16 *)bpos(b, b->off) = v;
	param_done(b, 2);
}

static __always_inline void push_u32(struct bld *b, __u32 v)
{
	*(__u32 *)bpos(b, b->off) = v;
	param_done(b, 4);
}

static __always_inline void push_u64(struct bld *b, __u64 v)
{
	*(__u64 *)bpos(b, b->off) = v;
	param_done(b, 8);
}

static __always_inline void push_empty(struct bld *b)
{
	param_done(b, 0);
}

/* a string constant of n bytes including the NUL */
static __always_inline void push_lit(struct bld *b, const char *s, __u32 n)
{
	__u8 *p = bpos(b, b->off);
	__u32 i;

	for (i = 0; i < 8 && i < n; i++)
		p[i] = s[i];
	param_done(b, n);
}

/*
 * 1: the string was read (else "<NA>", or "(NULL)" when null_if_unreadable:
 * the reference's open calls' enter events; "(NULL)" for a NULL pointer)
 */
static __always_inline int push_ustr_as(struct bld *b, __u64 uptr, int null_if_unreadable)
{
	long n;

	if (!uptr) {
		push_lit(b, "(NULL)", 7);
		return 1;
	}
	n = bpf_probe_read_user_str(bpos(b, b->off), MAX_STR, (void *)uptr);
	if (n <= 0) {
		if (null_if_unreadable)
			push_lit(b, "(NULL)", 7);
		else
			push_lit(b, "<NA>", 5);
		return 0;
	}
	param_done(b, n);
	return 1;
}

static __always_inline int push_ustr(struct bld *b, __u64 uptr)
{
	return push_ustr_as(b, uptr, 0);
}

/*
 * An fd or pid argument as the register holds it, as the reference driver
 * writes it (a C int -1 passed by glibc reads 4294967295); only AT_FDCWD
 * (the *at calls' dirfd) is written as -100.  The same rule as the kernel
 * module's put_arg().
 */
static __always_inline __s64 arg_fd(__u64 v)
{
	return (__s32)v == -100 ? -100 : (__s64)v;
}

/* 1: the string was read (else "") */
static __always_inline int push_kstr(struct bld *b, const void *kptr, __u32 max)
{
	long n;

	if (max > MAX_STR)
		max = MAX_STR;
	n = bpf_probe_read_kernel_str(bpos(b, b->off), max, kptr);

	if (n <= 0) {
		push_lit(b, "", 1);
		return 0;
	}
	param_done(b, n);
	return 1;
}

static __always_inline void push_ubuf(struct bld *b, __u64 uptr, __u64 len)
{
	__u32 n = len > MAX_STR ? MAX_STR : len;

	if (!uptr || !n || bpf_probe_read_user(bpos(b, b->off), BOUND(n, 8191), (void *)uptr)) {
		push_empty(b);
		return;
	}
	param_done(b, n);
}

static __always_inline void push_kbuf(struct bld *b, const void *kptr, __u32 len)
{
	__u32 n = len > MAX_STR ? MAX_STR : len;

	if (!n || bpf_probe_read_kernel(bpos(b, b->off), BOUND(n, 8191), kptr)) {
		push_empty(b);
		return;
	}
	param_done(b, n);
}

#endif
