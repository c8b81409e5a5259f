#!/bin/sh
# bpf_kernel_check.sh SYSDIG TEST_BIN - a live capture on a kernel that lacks
# bpf_loop (SYSDIG_BPF_KERNEL_BTF: a BTF file without BPF_FUNC_loop) stops
# with exactly one line naming it and exit 1; so does one without BTF.
# Needs root (the root check comes first).  Exit 77 = skipped.
SYSDIG=$1 MKBTF=$2
[ "$(id -u)" = 0 ] || { echo "SKIP: needs root"; exit 77; }
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT
FAIL=0
expect() { # expect WHAT BTF WORDS
	SYSDIG_BPF_KERNEL_BTF=$2 timeout 20 "$SYSDIG" --bpf -n 1 >"$T/out" 2>"$T/err"
	rc=$?
	if [ $rc -eq 1 ] && [ "$(wc -l <"$T/err")" -eq 1 ] && grep -qF "$3" "$T/err" && [ ! -s "$T/out" ]; then
		echo "ok: $1: $(cat "$T/err")"
	else
		echo "FAIL: $1: rc=$rc stderr: $(cat "$T/err")"
		FAIL=1
	fi
}
"$MKBTF" --write "$T/noloop.btf" BPF_FUNC_loop || exit 1
expect "kernel without bpf_loop" "$T/noloop.btf" "the kernel has no bpf_loop helper (Linux 5.17): the bpf driver needs Linux 5.17 or later"
"$MKBTF" --write "$T/noexec.btf" btf_trace_sched_process_exec || exit 1
expect "kernel without sched_process_exec" "$T/noexec.btf" "no BTF-typed tracepoint sched_process_exec"
expect "kernel without BTF" "$T/none.btf" "the kernel has no BTF ($T/none.btf"
exit $FAIL
