/*
 * ppm_flags.bpf.h - Linux x86_64 flag values and their conversion to the
 * PPM_* values of the event table (driver/flags.tsv: file_flags,
 * clone_flags).  vmlinux.h carries no macros, hence the LX_ constants.
 */
#ifndef PPM_FLAGS_BPF_H
#define PPM_FLAGS_BPF_H

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
	/* as the reference driver: any bit of O_TMPFILE, so O_DIRECTORY too */
	if (f & LX_O_TMPFILE)
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

#define LX_RLIMIT_NOFILE 7
#define LX_TS_COMPAT 0x0002	/* thread_info.status: in an ia32 syscall */
#define LX_AF_UNIX 1
#define LX_AF_INET 2
#define LX_AF_INET6 10
#define LX_S_IFMT 0170000
#define LX_S_IFSOCK 0140000

#endif
