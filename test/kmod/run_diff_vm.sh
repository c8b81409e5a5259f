#!/bin/bash
# run_diff_vm.sh - the differential rig: one execution recorded by sysdig
# 0.29.3's own driver and by ours, compared event by event.
#
# Boots Debian's 6.1 kernel under qemu TCG with the reference's scap.ko
# (falcosecurity-scap-dkms, built for that kernel by DKMS or here from
# /usr/src against its headers) and our sysdigc.ko loaded together; the
# reference /usr/bin/sysdig and our sysdig --kmod (and -B with --bpf) record
# the same run of a workload list made of the host's own binaries (the
# host's / shared read-only over 9p, diff_wl/*.sh), then diff_compare.py
# compares the files per workload step and thread (diff_known.tsv: the
# explained difference classes and their reasons).
# Exit 0: no unexplained difference, 1: some (or a failed run, a failed
# workload step, drops), 77: skip (no qemu, 6.1 kernel, reference or its
# driver source).  CMakeLists.txt runs a CI-sized step list (kmod_diff_vm).
# usage: run_diff_vm.sh --build DIR --work DIR [--steps a,b,...] [--bpf]
#                       [--report FILE]
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
SRC=$(cd "$HERE/../.." && pwd)
BUILD=$SRC/build
VM_WORK=/tmp/kmod-diff-vm
STEPS=python3,curl,gzip,tar,git,perl,busybox,stress_files,stress_sockets,stress_pipes,stress_signals,stress_threads,stress_forkexec,stress_memory
BPF=0
REPORT=""
while [ $# -gt 0 ]; do
	case $1 in
	--src) SRC=$2; shift 2 ;;
	--build) BUILD=$2; shift 2 ;;
	--work) VM_WORK=$2; shift 2 ;;
	--steps) STEPS=$2; shift 2 ;;
	--bpf) BPF=1; shift ;;
	--report) REPORT=$2; shift 2 ;;
	*) echo "usage: $0 --build DIR --work DIR [--steps a,b,...] [--bpf] [--report FILE]" >&2; exit 2 ;;
	esac
done
VM_LIB_DIR=$HERE
. "$HERE/vm_lib.sh"
mkdir -p "$VM_WORK" && VM_WORK=$(cd "$VM_WORK" && pwd)	# the module build changes directory
OURS=$BUILD/userspace/sysdig/sysdig
[ -x "$OURS" ] || { echo "FAIL: $OURS not built"; exit 1; }
[ -x /usr/bin/sysdig ] || { echo "SKIP: the reference /usr/bin/sysdig is not installed"; exit $VM_SKIP; }
export VM_SERIES=6.1 VM_9P=1 VM_MEM=2048
vm_install_deps || { echo "SKIP: qemu/kernel image/headers/busybox-static not available"; exit $VM_SKIP; }
KVER=$(vm_pick_kernel) || { echo "SKIP: no 6.1 kernel with image and headers (the reference's scap.ko builds only for 6.1)"; exit $VM_SKIP; }
for s in ${STEPS//,/ }; do
	[ -e "$HERE/diff_wl/$s.sh" ] || { echo "FAIL: no workload step $s"; exit 1; }
done
echo "kernel $KVER, steps $STEPS"

# the reference's driver: DKMS's build for KVER, else built here from its source
REF_VER=0.1.1dev+git20220316.e5c53d64
REF_KO=/var/lib/dkms/scap/$REF_VER/$KVER/x86_64/module/scap.ko
if [ ! -e "$REF_KO" ]; then
	REF_SRC=$(ls -d /usr/src/scap-* 2>/dev/null | head -1)
	[ -n "$REF_SRC" ] || { echo "SKIP: falcosecurity-scap-dkms (the reference's driver source) is not installed"; exit $VM_SKIP; }
	rm -rf "$VM_WORK/refsrc" && cp -r "$REF_SRC" "$VM_WORK/refsrc"
	nice -n 19 make -C "/lib/modules/$KVER/build" M="$VM_WORK/refsrc" -j2 modules >"$VM_WORK/ref_build.log" 2>&1 ||
		{ echo "FAIL: scap.ko does not build against $KVER (see $VM_WORK/ref_build.log)"; exit 1; }
	REF_KO=$VM_WORK/refsrc/scap.ko
fi
vm_build_module "$SRC" "$KVER" "$VM_WORK" || { echo "FAIL: our module build"; exit 1; }
KERNEL=$(vm_kernel_image "$KVER" "$VM_WORK")
ROOT=$VM_WORK/root
vm_make_root "$ROOT" "$KVER" || exit 1
cp "$VM_WORK/sysdigc.ko" "$ROOT/mods/"
cp "$REF_KO" "$ROOT/mods/scap.ko"
vm_copy_bin "$ROOT" /usr/bin/sysdig /usr/bin/sysdig
vm_copy_bin "$ROOT" "$OURS" /usr/bin/sysdig-c
cp "$HERE/diff_guest.sh" "$ROOT/guest.sh"
mkdir -p "$ROOT/wl" && cp "$HERE"/diff_wl/* "$ROOT/wl/"
export VM_QEMU_EXTRA="-virtfs local,path=/,mount_tag=host,security_model=none,readonly=on,multidevs=remap"
export VM_TIMEOUT=${VM_TIMEOUT:-1500}
T1=$(date +%s)
vm_boot "$ROOT" "$KERNEL" "$VM_WORK" "diff_steps=$STEPS diff_bpf=$BPF" || { echo "FAIL: guest run"; exit 1; }
T2=$(date +%s)
R=$VM_WORK/result
echo "qemu $((T2 - T1)) s; guest: $(tail -3 "$R/guest.log" 2>/dev/null | tr '\n' ' ')"
[ "$(cat "$R/guest.rc")" = 0 ] || { echo "FAIL: guest script rc $(cat "$R/guest.rc"): $(tail -5 "$R/guest.log")"; exit 1; }
echo "workload steps: $(tr '\n' ' ' <"$R/rc.txt")"
STEP_FAILS=$(grep -vc ' rc=0$' "$R/rc.txt")
[ "$STEP_FAILS" = 0 ] || echo "FAIL: $STEP_FAILS workload step(s) failed in the guest (see $R/step_*.log)"
FILES="ref ours"
[ "$BPF" = 1 ] && FILES="$FILES bpf"
for f in $FILES; do
	echo "$f: $(grep -E 'Driver (Events|Drops)|rc=' "$R/$f.txt" | tr '\n' ' ')"
done
ARGS=(--ref "$R/ref.scap" --ours "$R/ours.scap" --steps "$R/steps.txt" --known "$HERE/diff_known.tsv")
[ "$BPF" = 1 ] && ARGS+=(--bpf "$R/bpf.scap")
[ -n "$REPORT" ] && ARGS+=(--report "$REPORT")
for f in $FILES; do
	grep -q 'Driver Drops:0 ' <(tr '\n' ' ' <"$R/$f.txt") ||
		{ echo "FAIL: $f capture dropped events or did not end cleanly: $(tr '\n' ' ' <"$R/$f.txt")"; STEP_FAILS=$((STEP_FAILS + 1)); }
done
echo "compare (reading the files with /usr/bin/sysdig) ..."
python3 "$HERE/diff_compare.py" "${ARGS[@]}" || exit 1
[ "$STEP_FAILS" = 0 ] || exit 1
