/*
 * ppm_flags.bpf.h - Linux x86_64 constants the eBPF driver needs besides
 * the flag conversions of the generated ppm_flags.h (vmlinux.h carries no macros,
 * hence the LX_ constants).
 */
#ifndef PPM_FLAGS_BPF_H
#define PPM_FLAGS_BPF_H

#define LX_RLIMIT_NOFILE 7
#define LX_TS_COMPAT 0x0002	/* thread_info.status: in an ia32 syscall */
#define LX_AF_UNIX 1
#define LX_AF_INET 2
#define LX_AF_INET6 10
#define LX_S_IFMT 0170000
#define LX_S_IFSOCK 0140000

#include "ppm_flags.h"

#endif
