/*
 * fill_table.bpf.h - the table filler: writes the event pairs whose filler
 * in driver/events.tsv is "table", each parameter from its fill source
 * (g_fill_events of the generated fill_table.h, the same table the module
 * interprets): syscall arguments, the return value and simple derived values
 * (flag conversions, the fd's device, vm counters, values behind pointers).
 */
#ifndef FILL_TABLE_BPF_H
#define FILL_TABLE_BPF_H

#include "fill_table.h"

static __always_inline __u64 user_u64(__u64 uptr, __u32 off, __u64 dflt)
{
	__u64 v = dflt;

	if (uptr)
		bpf_probe_read_user(&v, sizeof(v), (void *)(uptr + off));
	return v;
}

static __always_inline struct file *fd_file(__s64 fd)
{
	struct task_struct *t = bpf_get_current_task_btf();
	struct file **fds;
	struct file *f = NULL;

	if (fd < 0 || fd >= BPF_CORE_READ(t, files, fdt, max_fds))
		return NULL;
	fds = BPF_CORE_READ(t, files, fdt, fd);
	bpf_probe_read_kernel(&f, sizeof(f), &fds[fd]);
	return f;
}

static __always_inline __u32 encode_dev(__u32 dev)
{
	__u32 major = dev >> 20, minor = dev & 0xfffff;

	return (minor & 0xff) | (major << 8) | ((minor & ~0xffu) << 12);
}

static __always_inline __u32 fd_dev(__s64 fd)
{
	struct file *f = fd_file(fd);

	if (!f)
		return 0;
	return encode_dev(BPF_CORE_READ(f, f_inode, i_sb, s_dev));
}

/* before 6.2, mm->rss_stat was a struct of atomic counters */
struct mm_rss_stat___old {
	atomic_long_t count[NR_MM_COUNTERS];
};

struct mm_struct___old {
	struct mm_rss_stat___old rss_stat;
};

/*
 * one rss counter of mm, in pages (percpu_counter since 6.2).  mm comes from
 * a BTF task pointer: on 6.2+ a plain load, no helper call (sched_switch
 * runs this); the older layout is read with the helper.
 */
static __always_inline __s64 mm_rss(struct mm_struct *mm, int i)
{
	struct mm_struct___old *old = (void *)mm;

	if (bpf_core_field_exists(old->rss_stat.count))
		return BPF_CORE_READ(old, rss_stat.count[i & 3].counter);
	return mm->rss_stat[i & 3].count;
}

/* vm counters of task t (a BTF pointer) in KiB: 0 size, 1 rss, 2 swap */
static __always_inline __u32 task_vm_kb(struct task_struct *t, int which)
{
	struct mm_struct *mm = t->mm;
	__s64 pages = 0;

	if (!mm)
		return 0;
	if (which == 0) {
		pages = mm->total_vm;
	} else if (which == 1) {
		pages = mm_rss(mm, MM_FILEPAGES) + mm_rss(mm, MM_ANONPAGES) +
			mm_rss(mm, MM_SHMEMPAGES);
	} else {
		pages = mm_rss(mm, MM_SWAPENTS);
	}
	if (pages < 0)
		pages = 0;
	return pages << 2;	/* 4 KiB pages */
}

/* the same for the current process */
static __always_inline __u32 vm_kb(int which)
{
	return task_vm_kb(bpf_get_current_task_btf(), which);
}

/* a number of size bytes */
static __always_inline void push_sized(struct bld *b, __u32 size, __u64 v)
{
	switch (size) {
	case 1:
		push_u8(b, v);
		break;
	case 2:
		push_u16(b, v);
		break;
	case 4:
		push_u32(b, v);
		break;
	default:
		push_u64(b, v);
	}
}

/* one parameter: struct fill_param packed in a u32 (src, arg, type, size) */
static __always_inline void push_fill_param(struct bld *b, __u32 d)
{
	struct call_ctx *c = &b->s->c;
	__u32 a = (d >> 8) & 7, type = (d >> 16) & 0xff, size = d >> 24;
	__u64 v = c->args[a > 5 ? 5 : a];

	switch (d & 0xff) {
	case FS_ARG:
		push_sized(b, size, type == PT_FD ? arg_fd(v) : v);
		break;
	case FS_ARG_INT:
		push_sized(b, size, (__s64)(__s32)v);
		break;
	case FS_RET:
		push_sized(b, size, c->ret);
		break;
	case FS_USTR:
		push_ustr(b, v);
		break;
	case FS_USTR_NULL:
		push_ustr_as(b, v, 1);
		break;
	case FS_OPEN_FLAGS:
		push_u32(b, open_flags_to_ppm(v));
		break;
	case FS_OPEN_MODE:
		push_u32(b, open_mode_to_ppm(c->args[a ? (a - 1) & 7 : 0], v));
		break;
	case FS_MODE:
		push_u32(b, v & 07777);
		break;
	case FS_FD_DEV:
		push_u32(b, c->ret >= 0 ? fd_dev(c->ret) : 0);
		break;
	case FS_VM_SIZE:
		push_u32(b, vm_kb(0));
		break;
	case FS_VM_RSS:
		push_u32(b, vm_kb(1));
		break;
	case FS_VM_SWAP:
		push_u32(b, vm_kb(2));
		break;
	case FS_FCNTL_CMD:
		push_u8(b, fcntl_to_ppm(v));
		break;
	case FS_MMAP_FLAGS:
		push_u32(b, mmap_flags_to_ppm(v));
		break;
	case FS_RELTIME: {
		struct __kernel_timespec ts = {};

		if (v)
			bpf_probe_read_user(&ts, sizeof(ts), (void *)v);
		push_u64(b, ts.tv_sec * 1000000000ull + ts.tv_nsec);
		break;
	}
	case FS_U32_AT: {
		__u32 x = 0;

		if (v)
			bpf_probe_read_user(&x, sizeof(x), (void *)v);
		push_u32(b, x);
		break;
	}
	case FS_U64_AT:
		push_u64(b, user_u64(v, 0, 0));
		break;
	case FS_RLIM_CUR:
	case FS_RLIM_MAX:
		/* -1 when the call failed, but prlimit's old limit (argument 3) */
		push_u64(b, (__s64)c->ret < 0 && a != 3 ? -1 :
			 user_u64(v, (d & 0xff) == FS_RLIM_MAX ? 8 : 0, -1));
		break;
	case FS_HOW_FLAGS:
		push_u32(b, open_flags_to_ppm(user_u64(v, 0, 0)));
		break;
	case FS_HOW_MODE: {
		__u64 fl = user_u64(v, 0, 0);

		push_u32(b, open_mode_to_ppm(fl, user_u64(v, 8, 0)));
		break;
	}
	case FS_HOW_RESOLVE:
		push_u32(b, resolve_to_ppm(user_u64(v, 16, 0)));
		break;
	case FS_SEMGET_FLAGS:
		push_u32(b, semget_flags_to_ppm(v));
		break;
	case FS_UBUF_STR:
		if (c->ret > 0)
			push_ustr(b, v);
		else
			push_lit(b, "", 1);
		break;
	default:	/* FS_ZERO */
		if (size)
			push_sized(b, size, 0);
		else
			push_lit(b, "", type == PT_CHARBUF || type == PT_FSPATH ||
				 type == PT_FSRELPATH);
	}
}

static __always_inline void bld_save(struct bld *b)
{
	b->s->st.off = b->off;
	b->s->st.evt = b->evt;
	b->s->st.idx = b->idx;
	b->s->st.err = b->err;
}

static __always_inline int bld_resume(struct bld *b)
{
	b->s = get_scratch(bpf_get_smp_processor_id());
	if (!b->s)
		return -1;
	b->off = b->s->st.off;
	b->evt = b->s->st.evt;
	b->idx = b->s->st.idx;
	b->err = b->s->st.err;
	return 0;
}

/*
 * One parameter, as a global function: the verifier checks it once instead
 * of once per parameter slot and event kind.
 */
__noinline int table_param(__u32 d)
{
	struct bld b;

	if (bld_resume(&b))
		return 0;
	push_fill_param(&b, d);
	bld_save(&b);
	return 0;
}

static __always_inline void table_params(struct bld *b, const struct fill_event *ev)
{
	__u32 i, d;

	bld_save(b);
	for (i = 0; i < FILL_TABLE_MAXP; i++) {
		if (i >= ev->nparams)
			break;
		__builtin_memcpy(&d, &ev->p[i], sizeof(d));
		table_param(d);
	}
	bld_resume(b);
}

FILLER(fill_table)
{
	const struct fill_event *ev;
	struct bld b;
	__u32 et;

	if (filler_start(&b))
		return 0;
	et = b.s->c.enter_type;
	if (et >= PPM_EVENT_MAX - 1)
		return 0;
	if (b.s->c.phase != PHASE_EXIT) {
		ev = &g_fill_events[et];
		begin_evt(&b, et);
		table_params(&b, ev);
		if (!b.s)
			return 0;
		end_evt(&b);
		filler_enter_done(&b);
	}
	ev = &g_fill_events[et + 1];
	begin_evt(&b, b.s->c.exit_type);
	table_params(&b, ev);
	if (!b.s)
		return 0;
	end_evt(&b);
	return filler_submit(&b);
}

#endif
