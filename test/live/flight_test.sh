#!/bin/bash
# flight_test.sh - live tests of the flight recorder (--flight-recorder,
# eBPF driver, run by ctest as root).  The workload is fr_marker (our own
# binary, comm fr_marker): numbered writes "PREFIX-N" to /dev/null; the
# capture filter proc.name=fr_marker keeps the rest of the machine out.
#
# usage: flight_test.sh TEST SYSDIG MARKER [STORM]
#   usr1     3000 markers A-1..A-3000 into a 64 KiB ring, then SIGUSR1: the
#            dump FILE0 holds A-K..A-3000 for some K > 1, every one of them,
#            written by fr_marker (its table entry kept after its exit), and
#            the reference reads it alike; the capture goes on: 50 markers
#            B-1..B-50 and SIGINT give FILE1 with all of B
#   trigger  --trigger on the write of TRIGGER-1 with a 0.5 s window, markers
#            every 10 ms before and after: FILE0 ends with the C markers of
#            the window, exactly those within 0.5 s of the trigger (the
#            exit dump FILE1, a larger view of the same ring, says which)
#   memory   (heavy) 60 s of a getppid storm into a 16 MiB ring with no
#            filter: RSS sampled every 5 s stays within 4 MiB of its value
#            at 10 s; the exit dump holds at least 12 MiB of events
# Exit 77 (skipped) without root, BTF or the bpf engine.
set -u
TEST=$1 SYSDIG=$2 MARKER=$3 STORM=${4:-}
REF=/usr/bin/sysdig
TMP=$(mktemp -d /tmp/sdflight.XXXXXX)
CAP_PID=
cleanup() {
	[ -n "$CAP_PID" ] && kill -INT "$CAP_PID" 2>/dev/null && wait "$CAP_PID" 2>/dev/null
	[ -n "${KEEP:-}" ] && echo "kept $TMP" || rm -rf "$TMP"
}
trap cleanup EXIT
. "$(dirname "$0")/capture_lib.sh"

need_root_btf
need_bpf
cp "$MARKER" "$TMP/fr_marker" || fail "cannot copy the marker"
MARK=$TMP/fr_marker

# start_recorder ARGS...: the capture in the background, back once its
# driver is attached (it holds bpf_link fds) and the snapshot is taken
start_recorder() {
	"$SYSDIG" "$@" 2>"$TMP/cap.err" &
	CAP_PID=$!
	wait_capture
}

# wait_dump FILE: the log line of FILE's dump is there
wait_dump() {
	for _ in $(seq 300); do
		grep -q "wrote $1 " "$TMP/cap.err" && return 0
		sleep 0.1
	done
	fail "no dump $1: $(cat "$TMP/cap.err")"
}

# markers READER FILE: "comm marker" of each marker write, in order
markers() {
	"$1" -r "$2" -p '%proc.name %evt.arg.data' "evt.type=write and evt.dir=<" || fail "$1 cannot read $2"
}

# contiguous FILE PREFIX FIRST LAST: the markers of FILE are PREFIX-FIRST..LAST
contiguous() {
	awk -v p="$2" -v a="$3" -v b="$4" '
		{ if ($1 != "fr_marker") { print "not fr_marker: " $0; bad = 1; exit } }
		$2 ~ "^" p "-" { n = substr($2, length(p) + 2) + 0
			if (first == "") first = n
			else if (n != last + 1) { print "gap after " p "-" last; bad = 1; exit }
			last = n }
		END { if (bad) exit 1
			if (first != a || last != b) { print p ": " first ".." last ", expected " a ".." b; exit 1 } }' "$1"
}

case "$TEST" in
usr1)
	F=$TMP/fr.scap
	start_recorder --flight-recorder 64k -w "$F" proc.name=fr_marker
	"$MARK" A:3000:0 || fail "marker failed"
	sleep 1
	kill -USR1 "$CAP_PID"
	wait_dump "${F}0"
	markers "$SYSDIG" "${F}0" > "$TMP/ours.txt"
	markers "$REF" "${F}0" > "$TMP/ref.txt"
	cmp -s "$TMP/ours.txt" "$TMP/ref.txt" || fail "the reference reads the dump otherwise: $(diff "$TMP/ours.txt" "$TMP/ref.txt" | head -5)"
	K=$(awk 'NR == 1 { sub("A-", "", $2); print $2 }' "$TMP/ref.txt")
	[ -n "$K" ] && [ "$K" -gt 1 ] || fail "the dump starts at A-${K:-none}: the ring kept everything"
	contiguous "$TMP/ref.txt" A "$K" 3000 || fail "dump 0"
	kill -0 "$CAP_PID" || fail "the capture stopped after the dump"
	"$MARK" B:50:0 || fail "marker failed"
	stop_capture
	grep -q "end of capture: wrote ${F}1 " "$TMP/cap.err" || fail "no exit dump: $(cat "$TMP/cap.err")"
	markers "$REF" "${F}1" > "$TMP/ref1.txt"
	contiguous "$TMP/ref1.txt" B 1 50 || fail "dump 1"
	echo "dump 0: A-$K..A-3000 ($(wc -l < "$TMP/ref.txt") markers), dump 1: B-1..B-50"
	;;
trigger)
	F=$TMP/tr.scap
	start_recorder --flight-recorder 4M -w "$F" --trigger 'evt.type=write and evt.arg.data=TRIGGER-1' \
		--trigger-window 0.5 proc.name=fr_marker
	"$MARK" A:100:10000 TRIGGER:1:0 C:150:10000 || fail "marker failed"
	wait_dump "${F}0"
	grep -q "trigger: wrote ${F}0 " "$TMP/cap.err" || fail "dump 0 not from the trigger: $(cat "$TMP/cap.err")"
	stop_capture
	# the exit dump holds everything (4 MiB): the C markers of the window
	"$REF" -r "${F}1" -p '%evt.rawtime %evt.arg.data' "evt.type=write and evt.dir=<" > "$TMP/all.txt"
	grep -q " C-150$" "$TMP/all.txt" || fail "exit dump lacks C-150"
	want=$(awk '$2 == "TRIGGER-1" { t = $1 } t && $2 ~ /^C-/ && $1 - t <= 500000000 { n = $2 } END { print n }' "$TMP/all.txt")
	markers "$REF" "${F}0" > "$TMP/ref0.txt"
	contiguous "$TMP/ref0.txt" A 1 100 || fail "dump 0, before the trigger"
	contiguous "$TMP/ref0.txt" C 1 "${want#C-}" || fail "dump 0, the window"
	grep -q " TRIGGER-1$" "$TMP/ref0.txt" || fail "dump 0 lacks the trigger"
	echo "trigger dump: A-1..A-100, TRIGGER-1, C-1..$want (window 0.5 s)"
	;;
memory)
	F=$TMP/mem.scap
	start_recorder --flight-recorder 16M -w "$F"
	"$STORM" getppid 4000000000 >/dev/null &
	SP=$!
	samples=
	for i in $(seq 12); do
		sleep 5
		rss=$(awk '/VmRSS/ { print $2 }' "/proc/$CAP_PID/status")
		samples="$samples $rss"
	done
	kill "$SP"; wait "$SP" 2>/dev/null
	stop_capture
	echo "RSS kB every 5 s:$samples"
	set -- $samples
	base=$2
	for s in "$@"; do
		[ "$s" -le $((base + 4096)) ] || fail "RSS grew from $base kB (10 s) to $s kB"
	done
	size=$(stat -c %s "${F}0")
	[ "$size" -ge $((12 << 20)) ] || fail "the exit dump is $size bytes: the ring was not full"
	echo "exit dump ${size} bytes"
	;;
*)
	fail "unknown test $TEST"
	;;
esac
exit 0
