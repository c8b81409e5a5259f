/*
 * ppm_convert.h - Linux x86_64 flag values -> the PPM_* values of the event
 * table (driver/flags.tsv), for both drivers: plain integer code that the
 * eBPF program, the kernel module and userspace compile alike.
 */
#ifndef PPM_CONVERT_H
#define PPM_CONVERT_H

#ifndef __always_inline
#define __always_inline inline __attribute__((always_inline))
#endif

#define LX_O_ACCMODE 03
#define LX_O_WRONLY 01
#define LX_O_RDWR 02
#define LX_O_CREAT 0100
#define LX_O_EXCL 0200
#define LX_O_TRUNC 01000
#define LX_O_APPEND 02000
#define LX_O_NONBLOCK 04000
#define LX_O_DSYNC 010000
#define LX_O_DIRECT 040000
#define LX_O_LARGEFILE 0100000
#define LX_O_DIRECTORY 0200000
#define LX_O_CLOEXEC 02000000
#define LX_O_SYNC 04010000
#define LX_O_TMPFILE 020200000

#define PPM_O_RDONLY 1
#define PPM_O_WRONLY 2
#define PPM_O_RDWR 3
#define PPM_O_CREAT 4
#define PPM_O_APPEND 8
#define PPM_O_DSYNC 16
#define PPM_O_EXCL 32
#define PPM_O_NONBLOCK 64
#define PPM_O_SYNC 128
#define PPM_O_TRUNC 256
#define PPM_O_DIRECT 512
#define PPM_O_DIRECTORY 1024
#define PPM_O_LARGEFILE 2048
#define PPM_O_CLOEXEC 4096
#define PPM_O_TMPFILE 8192

static __always_inline __u32 open_flags_to_ppm(__u32 f)
{
	__u32 r = 0;

	switch (f & LX_O_ACCMODE) {
	case LX_O_WRONLY:
		r = PPM_O_WRONLY;
		break;
	case LX_O_RDWR:
		r = PPM_O_RDWR;
		break;
	default:
		r = PPM_O_RDONLY;
	}
	if (f & LX_O_CREAT)
		r |= PPM_O_CREAT;
	if (f & LX_O_APPEND)
		r |= PPM_O_APPEND;
	if (f & LX_O_DSYNC)
		r |= PPM_O_DSYNC;
	if (f & LX_O_EXCL)
		r |= PPM_O_EXCL;
	if (f & LX_O_NONBLOCK)
		r |= PPM_O_NONBLOCK;
	if ((f & LX_O_SYNC) == LX_O_SYNC)
		r |= PPM_O_SYNC;
	if (f & LX_O_TRUNC)
		r |= PPM_O_TRUNC;
	if (f & LX_O_DIRECT)
		r |= PPM_O_DIRECT;
	if (f & LX_O_DIRECTORY)
		r |= PPM_O_DIRECTORY;
	if (f & LX_O_LARGEFILE)
		r |= PPM_O_LARGEFILE;
	if (f & LX_O_CLOEXEC)
		r |= PPM_O_CLOEXEC;
	if ((f & LX_O_TMPFILE) == LX_O_TMPFILE)
		r |= PPM_O_TMPFILE;
	return r;
}

/* mode is only meaningful with O_CREAT/O_TMPFILE; PPM_S_* bits equal Linux's */
static __always_inline __u32 open_mode_to_ppm(__u32 flags, __u32 mode)
{
	if (flags & (LX_O_CREAT | LX_O_TMPFILE))
		return mode & 07777;
	return 0;
}

#define LX_CLONE_VM 0x100
#define LX_CLONE_FS 0x200
#define LX_CLONE_FILES 0x400
#define LX_CLONE_SIGHAND 0x800
#define LX_CLONE_PTRACE 0x2000
#define LX_CLONE_VFORK 0x4000
#define LX_CLONE_PARENT 0x8000
#define LX_CLONE_THREAD 0x10000
#define LX_CLONE_NEWNS 0x20000
#define LX_CLONE_SYSVSEM 0x40000
#define LX_CLONE_PARENT_SETTID 0x100000
#define LX_CLONE_UNTRACED 0x800000
#define LX_CLONE_NEWUTS 0x4000000
#define LX_CLONE_NEWIPC 0x8000000
#define LX_CLONE_NEWUSER 0x10000000
#define LX_CLONE_NEWPID 0x20000000
#define LX_CLONE_NEWNET 0x40000000
#define LX_CLONE_IO 0x80000000UL
#define LX_CLONE_SETTLS 0x80000
#define LX_CLONE_CHILD_CLEARTID 0x200000
#define LX_CLONE_CHILD_SETTID 0x1000000
#define LX_CLONE_NEWCGROUP 0x2000000

static __always_inline __u32 clone_flags_to_ppm(__u64 f)
{
	__u32 r = 0;

	if (f & LX_CLONE_FILES)
		r |= 1;
	if (f & LX_CLONE_FS)
		r |= 2;
	if (f & LX_CLONE_IO)
		r |= 4;
	if (f & LX_CLONE_NEWIPC)
		r |= 8;
	if (f & LX_CLONE_NEWNET)
		r |= 16;
	if (f & LX_CLONE_NEWNS)
		r |= 32;
	if (f & LX_CLONE_NEWPID)
		r |= 64;
	if (f & LX_CLONE_NEWUTS)
		r |= 128;
	if (f & LX_CLONE_PARENT)
		r |= 256;
	if (f & LX_CLONE_PARENT_SETTID)
		r |= 512;
	if (f & LX_CLONE_PTRACE)
		r |= 1024;
	if (f & LX_CLONE_SIGHAND)
		r |= 2048;
	if (f & LX_CLONE_SYSVSEM)
		r |= 4096;
	if (f & LX_CLONE_THREAD)
		r |= 8192;
	if (f & LX_CLONE_UNTRACED)
		r |= 16384;
	if (f & LX_CLONE_VM)
		r |= 32768;
	if (f & LX_CLONE_NEWUSER)
		r |= 1048576;
	if (f & LX_CLONE_CHILD_CLEARTID)
		r |= 8388608;
	if (f & LX_CLONE_CHILD_SETTID)
		r |= 16777216;
	if (f & LX_CLONE_SETTLS)
		r |= 33554432;
	if (f & LX_CLONE_VFORK)
		r |= 134217728;
	if (f & LX_CLONE_NEWCGROUP)
		r |= 268435456;
	return r;
}

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

static __always_inline __u32 semget_flags_to_ppm(__u32 f)
{
	return ((f & 01000) ? 8192 : 0) | ((f & 02000) ? 16384 : 0);	/* IPC_CREAT, IPC_EXCL */
}

static __always_inline __u16 poll_to_ppm(__u16 f)
{
	__u16 r = 0;

	if (f & 0x1) r |= 1;		/* POLLIN */
	if (f & 0x2) r |= 2;		/* POLLPRI */
	if (f & 0x4) r |= 4;		/* POLLOUT */
	if (f & 0x2000) r |= 8;		/* POLLRDHUP */
	if (f & 0x8) r |= 16;		/* POLLERR */
	if (f & 0x10) r |= 32;		/* POLLHUP */
	if (f & 0x20) r |= 64;		/* POLLNVAL */
	if (f & 0x40) r |= 128;		/* POLLRDNORM */
	if (f & 0x80) r |= 256;		/* POLLRDBAND */
	if (f & 0x100) r |= 512;	/* POLLWRNORM */
	if (f & 0x200) r |= 1024;	/* POLLWRBAND */
	return r;
}

/* ptrace request -> PPM_PTRACE_* (flags.tsv ptrace_requests) */
static __always_inline __u16 ptrace_to_ppm(__u64 r)
{
	if (r <= 9)
		return r + 1;
	switch (r) {
	case 12: return 26;	/* GETREGS */
	case 13: return 27;
	case 14: return 28;	/* GETFPREGS */
	case 15: return 29;
	case 16: return 11;	/* ATTACH */
	case 17: return 12;	/* DETACH */
	case 18: return 30;	/* GETFPXREGS */
	case 19: return 31;
	case 24: return 13;	/* SYSCALL */
	case 25: return 33;	/* GET_THREAD_AREA */
	case 26: return 34;
	case 30: return 35;	/* ARCH_PRCTL */
	case 31: return 36;	/* SYSEMU */
	case 32: return 37;
	case 33: return 38;	/* SINGLEBLOCK */
	}
	if (r >= 0x4200 && r <= 0x420b)	/* SETOPTIONS .. SETSIGMASK */
		return r - 0x4200 + 14;
	return 0;
}

#endif
