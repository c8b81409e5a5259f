/*
 * fill_simple.bpf.h - table-driven filler for the event pairs whose
 * parameters are syscall arguments, the return value or simple derived
 * values (flags conversions, the fd's device, vm counters).
 *
 * Each parameter is one byte: kind << 3 | argument index (fill_spec.h).
 */
#ifndef FILL_SIMPLE_BPF_H
#define FILL_SIMPLE_BPF_H

#include "fill_spec.h"

enum pkind {
	K_NONE,
	K_S32,		/* fd or pid argument, 8 bytes as the register holds it (arg_fd) */
	K_U64,		/* argument, 8 bytes */
	K_U32,
	K_U16,
	K_U8,
	K_RET,		/* return value, 8 bytes */
	K_RET32,	/* return value, 4 bytes (uid/gid getters) */
	K_PATH,		/* user string */
	K_OFLAGS,	/* open flags -> PPM_O_* (4 bytes) */
	K_OMODE,	/* open mode, flags in the previous argument (4 bytes) */
	K_MODE,		/* mode & 07777 (4 bytes) */
	K_DEV,		/* device of the fd returned (4 bytes) */
	K_VMSIZE,
	K_VMRSS,
	K_VMSWAP,
	K_FCNTL,	/* fcntl command -> PPM_FCNTL_* (1 byte) */
	K_MMAPF,	/* mmap flags -> PPM_MAP_* (4 bytes) */
	K_UBUFSTR,	/* user string written by the syscall, if ret > 0 */
	K_RELTIME,	/* user struct timespec -> ns (8 bytes) */
	K_UPTR32,	/* u32 the argument points to (0 if NULL) */
	K_UPTR64,	/* u64 the argument points to (0 if NULL) */
	K_RLIM_CUR,	/* struct rlimit the argument points to: rlim_cur (8 bytes, -1 if NULL) */
	K_RLIM_MAX,
	K_HOW_FLAGS,	/* struct open_how the argument points to: flags -> PPM_O_* */
	K_HOW_MODE,
	K_HOW_RESOLVE,	/* resolve -> PPM_RESOLVE_* */
	K_SEMGETF,	/* semget flags -> PPM_IPC_* */
	K_PATH_NULL,	/* user string, "(NULL)" when unreadable (the open calls' enter) */
	K_ZERO32,	/* 4 bytes 0: a value the reference writes as 0 */
};

#define P(k, a) ((k) << 3 | (a))
#define MAXP SPEC_MAXP

#define R P(K_RET, 0)
/* global so that userspace (the skeleton) sees which pairs it fills */
const struct simple_spec simple_specs[PPM_EVENT_MAX] = {
	[PPME_SYSCALL_OPEN_E] = { 3, 5, { P(K_PATH_NULL, 0), P(K_OFLAGS, 1), P(K_OMODE, 2) },
		{ R, P(K_PATH, 0), P(K_OFLAGS, 1), P(K_OMODE, 2), P(K_DEV, 0) } },
	[PPME_SYSCALL_OPENAT_2_E] = { 4, 6, { P(K_S32, 0), P(K_PATH_NULL, 1), P(K_OFLAGS, 2), P(K_OMODE, 3) },
		{ R, P(K_S32, 0), P(K_PATH, 1), P(K_OFLAGS, 2), P(K_OMODE, 3), P(K_DEV, 0) } },
	[PPME_SYSCALL_CREAT_E] = { 2, 4, { P(K_PATH_NULL, 0), P(K_MODE, 1) },
		{ R, P(K_PATH, 0), P(K_MODE, 1), P(K_DEV, 0) } },
	[PPME_SYSCALL_CLOSE_E] = { 1, 1, { P(K_S32, 0) }, { R } },
	[PPME_SYSCALL_STAT_E] = { 0, 2, {}, { R, P(K_PATH, 0) } },
	[PPME_SYSCALL_LSTAT_E] = { 0, 2, {}, { R, P(K_PATH, 0) } },
	[PPME_SYSCALL_FSTAT_E] = { 1, 1, { P(K_S32, 0) }, { R } },
	[PPME_SYSCALL_LSEEK_E] = { 3, 1, { P(K_S32, 0), P(K_U64, 1), P(K_U8, 2) }, { R } },
	[PPME_SYSCALL_MMAP_E] = { 6, 4, { P(K_U64, 0), P(K_U64, 1), P(K_U32, 2), P(K_MMAPF, 3), P(K_S32, 4), P(K_U64, 5) },
		{ R, P(K_VMSIZE, 0), P(K_VMRSS, 0), P(K_VMSWAP, 0) } },
	[PPME_SYSCALL_MPROTECT_E] = { 3, 1, { P(K_U64, 0), P(K_U64, 1), P(K_U32, 2) }, { R } },
	[PPME_SYSCALL_MUNMAP_E] = { 2, 4, { P(K_U64, 0), P(K_U64, 1) },
		{ R, P(K_VMSIZE, 0), P(K_VMRSS, 0), P(K_VMSWAP, 0) } },
	[PPME_SYSCALL_BRK_4_E] = { 1, 4, { P(K_U64, 0) },
		{ R, P(K_VMSIZE, 0), P(K_VMRSS, 0), P(K_VMSWAP, 0) } },
	[PPME_SYSCALL_IOCTL_3_E] = { 3, 1, { P(K_S32, 0), P(K_U64, 1), P(K_U64, 2) }, { R } },
	[PPME_SYSCALL_ACCESS_E] = { 1, 2, { P(K_U32, 1) }, { R, P(K_PATH, 0) } },
	[PPME_SYSCALL_DUP_E] = { 1, 1, { P(K_S32, 0) }, { R } },
	[PPME_SYSCALL_KILL_E] = { 2, 1, { P(K_S32, 0), P(K_U8, 1) }, { R } },
	[PPME_SYSCALL_TKILL_E] = { 2, 1, { P(K_S32, 0), P(K_U8, 1) }, { R } },
	[PPME_SYSCALL_TGKILL_E] = { 3, 1, { P(K_S32, 0), P(K_S32, 1), P(K_U8, 2) }, { R } },
	[PPME_SYSCALL_FCNTL_E] = { 2, 1, { P(K_S32, 0), P(K_FCNTL, 1) }, { R } },
	[PPME_SYSCALL_FLOCK_E] = { 2, 1, { P(K_S32, 0), P(K_U32, 1) }, { R } },
	[PPME_SYSCALL_GETDENTS_E] = { 1, 1, { P(K_S32, 0) }, { R } },
	[PPME_SYSCALL_GETDENTS64_E] = { 1, 1, { P(K_S32, 0) }, { R } },
	[PPME_SYSCALL_GETCWD_E] = { 0, 2, {}, { R, P(K_UBUFSTR, 0) } },
	[PPME_SYSCALL_CHDIR_E] = { 0, 2, {}, { R, P(K_PATH, 0) } },
	[PPME_SYSCALL_FCHDIR_E] = { 1, 1, { P(K_S32, 0) }, { R } },
	[PPME_SYSCALL_RENAME_E] = { 0, 3, {}, { R, P(K_PATH, 0), P(K_PATH, 1) } },
	[PPME_SYSCALL_RENAMEAT_E] = { 0, 5, {}, { R, P(K_S32, 0), P(K_PATH, 1), P(K_S32, 2), P(K_PATH, 3) } },
	[PPME_SYSCALL_RENAMEAT2_E] = { 0, 6, {}, { R, P(K_S32, 0), P(K_PATH, 1), P(K_S32, 2), P(K_PATH, 3), P(K_U32, 4) } },
	[PPME_SYSCALL_MKDIR_2_E] = { 1, 2, { P(K_ZERO32, 0) }, { R, P(K_PATH, 0) } },
	[PPME_SYSCALL_MKDIRAT_E] = { 0, 4, {}, { R, P(K_S32, 0), P(K_PATH, 1), P(K_U32, 2) } },
	[PPME_SYSCALL_RMDIR_2_E] = { 0, 2, {}, { R, P(K_PATH, 0) } },
	[PPME_SYSCALL_LINK_2_E] = { 0, 3, {}, { R, P(K_PATH, 0), P(K_PATH, 1) } },
	[PPME_SYSCALL_LINKAT_2_E] = { 0, 6, {}, { R, P(K_S32, 0), P(K_PATH, 1), P(K_S32, 2), P(K_PATH, 3), P(K_U32, 4) } },
	[PPME_SYSCALL_UNLINK_2_E] = { 0, 2, {}, { R, P(K_PATH, 0) } },
	[PPME_SYSCALL_UNLINKAT_2_E] = { 0, 4, {}, { R, P(K_S32, 0), P(K_PATH, 1), P(K_U32, 2) } },
	[PPME_SYSCALL_SYMLINK_E] = { 0, 3, {}, { R, P(K_PATH, 0), P(K_PATH, 1) } },
	[PPME_SYSCALL_SYMLINKAT_E] = { 0, 4, {}, { R, P(K_PATH, 0), P(K_S32, 1), P(K_PATH, 2) } },
	[PPME_SYSCALL_CHMOD_E] = { 0, 3, {}, { R, P(K_PATH, 0), P(K_MODE, 1) } },
	[PPME_SYSCALL_FCHMOD_E] = { 0, 3, {}, { R, P(K_S32, 0), P(K_MODE, 1) } },
	[PPME_SYSCALL_FCHMODAT_E] = { 0, 4, {}, { R, P(K_S32, 0), P(K_PATH, 1), P(K_MODE, 2) } },
	[PPME_SYSCALL_CHROOT_E] = { 0, 2, {}, { R, P(K_PATH, 0) } },
	[PPME_SOCKET_SOCKET_E] = { 3, 1, { P(K_U32, 0), P(K_U32, 1), P(K_U32, 2) }, { R } },
	[PPME_SOCKET_LISTEN_E] = { 2, 1, { P(K_S32, 0), P(K_U32, 1) }, { R } },
	[PPME_SOCKET_SHUTDOWN_E] = { 2, 1, { P(K_S32, 0), P(K_U8, 1) }, { R } },
	[PPME_SYSCALL_GETUID_E] = { 0, 1, {}, { P(K_RET32, 0) } },
	[PPME_SYSCALL_GETEUID_E] = { 0, 1, {}, { P(K_RET32, 0) } },
	[PPME_SYSCALL_GETGID_E] = { 0, 1, {}, { P(K_RET32, 0) } },
	[PPME_SYSCALL_GETEGID_E] = { 0, 1, {}, { P(K_RET32, 0) } },
	[PPME_SYSCALL_SETUID_E] = { 1, 1, { P(K_U32, 0) }, { R } },
	[PPME_SYSCALL_SETGID_E] = { 1, 1, { P(K_U32, 0) }, { R } },
	[PPME_SYSCALL_SETRESUID_E] = { 3, 1, { P(K_U32, 0), P(K_U32, 1), P(K_U32, 2) }, { R } },
	[PPME_SYSCALL_SETRESGID_E] = { 3, 1, { P(K_U32, 0), P(K_U32, 1), P(K_U32, 2) }, { R } },
	[PPME_SYSCALL_SETSID_E] = { 0, 1, {}, { R } },
	[PPME_SYSCALL_SETPGID_E] = { 2, 1, { P(K_S32, 0), P(K_S32, 1) }, { R } },
	[PPME_SYSCALL_FUTEX_E] = { 3, 1, { P(K_U64, 0), P(K_U16, 1), P(K_U64, 2) }, { R } },
	[PPME_SYSCALL_UNSHARE_E] = { 1, 1, { P(K_U32, 0) }, { R } },
	[PPME_SYSCALL_SETNS_E] = { 2, 1, { P(K_S32, 0), P(K_U32, 1) }, { R } },
	[PPME_SYSCALL_EVENTFD_E] = { 2, 1, { P(K_U64, 0), P(K_U32, 1) }, { R } },
	[PPME_SYSCALL_INOTIFY_INIT_E] = { 1, 1, { P(K_U8, 0) }, { R } },
	[PPME_SYSCALL_TIMERFD_CREATE_E] = { 2, 1, { P(K_U8, 0), P(K_U8, 1) }, { R } },
	[PPME_SYSCALL_SPLICE_E] = { 4, 1, { P(K_S32, 0), P(K_S32, 2), P(K_U64, 4), P(K_U32, 5) }, { R } },
	[PPME_SYSCALL_EPOLLWAIT_E] = { 1, 1, { P(K_U64, 2) }, { R } },
	[PPME_SYSCALL_SECCOMP_E] = { 1, 1, { P(K_U64, 0) }, { R } },
	[PPME_SYSCALL_SELECT_E] = { 0, 1, {}, { R } },
	[PPME_SYSCALL_NANOSLEEP_E] = { 1, 1, { P(K_RELTIME, 0) }, { R } },
	[PPME_SYSCALL_GETRLIMIT_E] = { 1, 3, { P(K_U8, 0) }, { R, P(K_RLIM_CUR, 1), P(K_RLIM_MAX, 1) } },
	[PPME_SYSCALL_SETRLIMIT_E] = { 1, 3, { P(K_U8, 0) }, { R, P(K_RLIM_CUR, 1), P(K_RLIM_MAX, 1) } },
	[PPME_SYSCALL_PRLIMIT_E] = { 2, 5, { P(K_S32, 0), P(K_U8, 1) },
		{ R, P(K_RLIM_CUR, 2), P(K_RLIM_MAX, 2), P(K_RLIM_CUR, 3), P(K_RLIM_MAX, 3) } },
	[PPME_SYSCALL_GETRESUID_E] = { 0, 4, {}, { R, P(K_UPTR32, 0), P(K_UPTR32, 1), P(K_UPTR32, 2) } },
	[PPME_SYSCALL_GETRESGID_E] = { 0, 4, {}, { R, P(K_UPTR32, 0), P(K_UPTR32, 1), P(K_UPTR32, 2) } },
	[PPME_SYSCALL_SENDFILE_E] = { 4, 2, { P(K_S32, 0), P(K_S32, 1), P(K_UPTR64, 2), P(K_U64, 3) },
		{ R, P(K_UPTR64, 2) } },
	[PPME_SYSCALL_COPY_FILE_RANGE_E] = { 3, 3, { P(K_S32, 0), P(K_UPTR64, 1), P(K_U64, 4) },
		{ R, P(K_S32, 2), P(K_UPTR64, 3) } },
	[PPME_SYSCALL_OPENAT2_E] = { 5, 6, { P(K_S32, 0), P(K_PATH_NULL, 1), P(K_HOW_FLAGS, 2), P(K_HOW_MODE, 2), P(K_HOW_RESOLVE, 2) },
		{ R, P(K_S32, 0), P(K_PATH, 1), P(K_HOW_FLAGS, 2), P(K_HOW_MODE, 2), P(K_HOW_RESOLVE, 2) } },
	[PPME_SYSCALL_MOUNT_E] = { 1, 4, { P(K_U32, 3) }, { R, P(K_PATH, 0), P(K_PATH, 1), P(K_PATH, 2) } },
	[PPME_SYSCALL_UMOUNT_E] = { 1, 2, { P(K_U32, 1) }, { R, P(K_PATH, 0) } },
	[PPME_SYSCALL_USERFAULTFD_E] = { 0, 2, {}, { R, P(K_U32, 0) } },
	[PPME_SYSCALL_SIGNALFD_E] = { 3, 1, { P(K_S32, 0), P(K_UPTR32, 1), P(K_U8, 3) }, { R } },
	[PPME_SYSCALL_SEMGET_E] = { 3, 1, { P(K_U32, 0), P(K_U32, 1), P(K_SEMGETF, 2) }, { R } },
	[PPME_SYSCALL_SEMCTL_E] = { 4, 1, { P(K_U32, 0), P(K_U32, 1), P(K_U16, 2), P(K_U32, 3) }, { R } },
	[PPME_SOCKET_GETSOCKNAME_E] = { 0, 0, {}, {}, 1 },
	[PPME_SOCKET_GETPEERNAME_E] = { 0, 0, {}, {}, 1 },
	[PPME_SOCKET_SENDMMSG_E] = { 0, 0, {}, {}, 1 },
	[PPME_SOCKET_RECVMMSG_E] = { 0, 0, {}, {}, 1 },
};
#undef R

static __always_inline __u32 fcntl_to_ppm(__u32 cmd)
{
	switch (cmd) {
	case 0: return 1;	/* F_DUPFD */
	case 1: return 2;	/* F_GETFD */
	case 2: return 3;
	case 3: return 4;
	case 4: return 5;
	case 5: return 6;	/* F_GETLK */
	case 6: return 8;	/* F_SETLK */
	case 7: return 9;	/* F_SETLKW */
	case 8: return 10;	/* F_SETOWN */
	case 9: return 12;	/* F_GETOWN */
	case 10: return 13;	/* F_SETSIG */
	case 11: return 15;	/* F_GETSIG */
	case 1024: return 23;	/* F_SETLEASE */
	case 1025: return 24;
	case 1026: return 27;	/* F_NOTIFY */
	case 1030: return 26;	/* F_DUPFD_CLOEXEC */
	case 1031: return 28;	/* F_SETPIPE_SZ */
	case 1032: return 29;
	case 36: return 30;	/* F_OFD_GETLK */
	case 37: return 31;
	case 38: return 32;
	}
	return 0;
}

static __always_inline __u32 mmap_flags_to_ppm(__u32 f)
{
	__u32 r = 0;

	if (f & 0x01) r |= 1;		/* MAP_SHARED */
	if (f & 0x02) r |= 2;		/* MAP_PRIVATE */
	if (f & 0x10) r |= 4;		/* MAP_FIXED */
	if (f & 0x20) r |= 8;		/* MAP_ANONYMOUS */
	if (f & 0x40) r |= 16;		/* MAP_32BIT */
	if (f & 0x4000) r |= 64;	/* MAP_NORESERVE */
	if (f & 0x8000) r |= 128;	/* MAP_POPULATE */
	if (f & 0x10000) r |= 256;	/* MAP_NONBLOCK */
	if (f & 0x100) r |= 512;	/* MAP_GROWSDOWN */
	if (f & 0x800) r |= 1024;	/* MAP_DENYWRITE */
	if (f & 0x1000) r |= 2048;	/* MAP_EXECUTABLE */
	if (f & 0x2000) r |= 16384;	/* MAP_LOCKED */
	return r;
}

static __always_inline __u32 resolve_to_ppm(__u64 r)
{
	__u32 p = 0;

	if (r & 0x08) p |= 1;	/* RESOLVE_BENEATH */
	if (r & 0x10) p |= 2;	/* RESOLVE_IN_ROOT */
	if (r & 0x02) p |= 4;	/* RESOLVE_NO_MAGICLINKS */
	if (r & 0x04) p |= 8;	/* RESOLVE_NO_SYMLINKS */
	if (r & 0x01) p |= 16;	/* RESOLVE_NO_XDEV */
	if (r & 0x20) p |= 32;	/* RESOLVE_CACHED */
	return p;
}

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

static __always_inline void push_spec_param(struct bld *b, __u8 d)
{
	struct call_ctx *c = &b->s->c;
	__u32 a = d & 7;
	__u64 v = c->args[a > 5 ? 5 : a];

	switch (d >> 3) {
	case K_S32:
		push_u64(b, arg_fd(v));
		break;
	case K_U64:
		push_u64(b, v);
		break;
	case K_U32:
		push_u32(b, v);
		break;
	case K_U16:
		push_u16(b, v);
		break;
	case K_U8:
		push_u8(b, v);
		break;
	case K_RET:
		push_u64(b, c->ret);
		break;
	case K_RET32:
		push_u32(b, c->ret);
		break;
	case K_PATH:
		push_ustr(b, v);
		break;
	case K_PATH_NULL:
		push_ustr_as(b, v, 1);
		break;
	case K_ZERO32:
		push_u32(b, 0);
		break;
	case K_OFLAGS:
		push_u32(b, open_flags_to_ppm(v));
		break;
	case K_OMODE:
		push_u32(b, open_mode_to_ppm(c->args[a ? (a - 1) & 7 : 0], v));
		break;
	case K_MODE:
		push_u32(b, v & 07777);
		break;
	case K_DEV:
		push_u32(b, c->ret >= 0 ? fd_dev(c->ret) : 0);
		break;
	case K_VMSIZE:
		push_u32(b, vm_kb(0));
		break;
	case K_VMRSS:
		push_u32(b, vm_kb(1));
		break;
	case K_VMSWAP:
		push_u32(b, vm_kb(2));
		break;
	case K_FCNTL:
		push_u8(b, fcntl_to_ppm(v));
		break;
	case K_MMAPF:
		push_u32(b, mmap_flags_to_ppm(v));
		break;
	case K_RELTIME: {
		struct __kernel_timespec ts = {};

		if (v)
			bpf_probe_read_user(&ts, sizeof(ts), (void *)v);
		push_u64(b, ts.tv_sec * 1000000000ull + ts.tv_nsec);
		break;
	}
	case K_UPTR32: {
		__u32 x = 0;

		if (v)
			bpf_probe_read_user(&x, sizeof(x), (void *)v);
		push_u32(b, x);
		break;
	}
	case K_UPTR64:
		push_u64(b, user_u64(v, 0, 0));
		break;
	case K_RLIM_CUR:
		push_u64(b, user_u64(v, 0, -1));
		break;
	case K_RLIM_MAX:
		push_u64(b, user_u64(v, 8, -1));
		break;
	case K_HOW_FLAGS:
		push_u32(b, open_flags_to_ppm(user_u64(v, 0, 0)));
		break;
	case K_HOW_MODE: {
		__u64 fl = user_u64(v, 0, 0);

		push_u32(b, open_mode_to_ppm(fl, user_u64(v, 8, 0)));
		break;
	}
	case K_HOW_RESOLVE:
		push_u32(b, resolve_to_ppm(user_u64(v, 16, 0)));
		break;
	case K_SEMGETF:
		push_u32(b, ((v & 01000) ? 8192 : 0) | ((v & 02000) ? 16384 : 0));
		break;
	case K_UBUFSTR:
		if (c->ret > 0)
			push_ustr(b, v);
		else
			push_lit(b, "", 1);
		break;
	default:
		push_empty(b);
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
__noinline int simple_param(__u32 d)
{
	struct bld b;

	if (bld_resume(&b))
		return 0;
	push_spec_param(&b, d);
	bld_save(&b);
	return 0;
}

static __always_inline void simple_params(struct bld *b, const __u8 *spec, __u32 n)
{
	__u32 i;

	bld_save(b);
	for (i = 0; i < MAXP; i++) {
		if (i >= n)
			break;
		simple_param(spec[i]);
	}
	bld_resume(b);
}

FILLER(fill_simple)
{
	const struct simple_spec *sp;
	struct bld b;
	__u32 et;

	if (filler_start(&b))
		return 0;
	et = b.s->c.enter_type;
	if (et >= PPM_EVENT_MAX)
		return 0;
	sp = &simple_specs[et];
	if (b.s->c.phase != PHASE_EXIT) {
		begin_evt(&b, et, sp->ne);
		simple_params(&b, sp->e, sp->ne);
		if (!b.s)
			return 0;
		end_evt(&b);
		filler_enter_done(&b);
	}
	begin_evt(&b, b.s->c.exit_type, sp->nx);
	simple_params(&b, sp->x, sp->nx);
	if (!b.s)
		return 0;
	end_evt(&b);
	return filler_submit(&b);
}

#endif
