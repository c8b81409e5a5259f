#!/bin/bash
# scsummary_live.sh SYSDIG WORKLOAD - the scsummary chisel live (BPF, root)
# against strace -c -f on the same deterministic program (scsummary_work.c,
# whose comm is its own): per syscall, calls and errors must be equal, and
# the program's own facts must show (openat ENOENT 7, close EBADF 4, write
# 53 calls with latency > 0). Exit 77 (skipped) without root, BTF, strace or
# a working bpf engine.
set -u
SYSDIG=$1 WORKLOAD=$2
TMP=$(mktemp -d /tmp/scsum.XXXXXX)
CAP_PID=
cleanup() {
	[ -n "$CAP_PID" ] && kill -INT "$CAP_PID" 2>/dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; exit 1; }
skip() { echo "SKIPPED: $*"; exit 77; }

[ "$(id -u)" = 0 ] || skip "needs root"
[ -r /sys/kernel/btf/vmlinux ] || skip "kernel without BTF"
command -v strace >/dev/null || skip "strace is not installed"
out=$("$SYSDIG" -n 1 2>&1 >/dev/null)
case "$out" in
*"not built"*) skip "$out" ;;
*"live capture"*) skip "bpf driver does not load here: $out" ;;
esac

# a copy with a name of its own: the capture selects it by comm
WORK=$TMP/scsum_work
cp "$WORKLOAD" "$WORK" || fail "copying the workload"
COMM=scsum_work

strace -c -f -o "$TMP/strace.txt" "$WORK" || fail "the workload failed under strace"

"$SYSDIG" -c scsummary "proc.name=$COMM" >"$TMP/ours.txt" 2>"$TMP/cap.err" &
CAP_PID=$!
for _ in $(seq 600); do	# 60 s: a loaded machine starts slowly
	ls -l "/proc/$CAP_PID/fd" 2>/dev/null | grep -q bpf_link && break
	kill -0 "$CAP_PID" 2>/dev/null || fail "capture died: $(cat "$TMP/cap.err")"
	sleep 0.1
done
ls -l "/proc/$CAP_PID/fd" 2>/dev/null | grep -q bpf_link || fail "capture did not start"
sleep 0.5	# the /proc snapshot follows the attach
"$WORK" || fail "the workload failed"
sleep 2		# let the consumer drain the rings (a loaded machine lags)
kill -INT "$CAP_PID"
wait "$CAP_PID" || fail "capture exit code $? ($(cat "$TMP/cap.err"))"
CAP_PID=

python3 - "$TMP/strace.txt" "$TMP/ours.txt" <<'PY' || exit 1
import re, sys
# strace's names of the calls our event table names otherwise (rseq has no
# name in the sysdig 0.29.3 table either: a generic event, "<unknown>")
NAMES = {'prlimit64': 'prlimit', 'pread64': 'pread', 'pwrite64': 'pwrite', 'rseq': '<unknown>'}
strace = {}
for line in open(sys.argv[1]):
    f = line.split()
    if len(f) >= 5 and re.match(r'^[0-9.]+$', f[0]) and f[-1] != 'total':
        errors = f[4] if len(f) == 6 else '0'
        strace[NAMES.get(f[-1], f[-1])] = (int(f[3]), int(errors))
ours, errnos = {}, {}
text = open(sys.argv[2]).read()
for line in text.splitlines():
    f = line.split()
    if len(f) == 10 and re.match(r'^[0-9]+$', f[1]):
        ours[f[0]] = (int(f[1]), int(f[2]), float(f[3]))
    elif len(f) == 3 and line.startswith('  ') and re.match(r'^E[A-Z]+$', f[1]):
        errnos[(f[0], f[1])] = int(f[2])
print(text)
bad = []
for name in sorted(set(strace) | set(ours)):
    s = strace.get(name)
    o = ours.get(name)
    if s is None or o is None or s != o[:2]:
        bad.append(f'{name}: strace {s}, ours {o and o[:2]}')
if bad:
    print('FAIL: calls/errors differ from strace -c -f:\n  ' + '\n  '.join(bad))
    sys.exit(1)
for want in [(('openat', 'ENOENT'), 7), (('close', 'EBADF'), 4)]:
    if errnos.get(want[0]) != want[1]:
        print(f'FAIL: errors by errno {want[0]}: {errnos.get(want[0])}, expected {want[1]}')
        sys.exit(1)
if ours['write'][0] != 53 or ours['write'][2] <= 0 or ours['read'][0] != 20:
    print(f"FAIL: write {ours['write']} read {ours['read']}")
    sys.exit(1)
print(f'same calls and errors as strace -c -f for all {len(ours)} syscalls '
      f'({sum(c for c, e, t in ours.values())} calls, {sum(e for c, e, t in ours.values())} errors)')
PY
