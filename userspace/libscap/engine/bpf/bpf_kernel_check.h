/*
 * bpf_kernel_check.h - before the eBPF driver is loaded, say in one line
 * which kernel feature it needs is missing (bpf_kernel_check.c).
 */
#ifndef BPF_KERNEL_CHECK_H
#define BPF_KERNEL_CHECK_H

/* the BTF to check: $SYSDIG_BPF_KERNEL_BTF when set, else the running
 * kernel's /sys/kernel/btf/vmlinux */
const char *bpf_kernel_btf_path(void);

/* 0 when the BTF at path has every tracepoint, helper and map type the
 * driver uses; else -1 with one line in err (SCAP_ERRBUF_SIZE bytes) */
int bpf_kernel_check(const char *path, char *err);

#endif
