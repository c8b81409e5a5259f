#!/bin/bash
# run_flight.sh - the flight recorder on a file (-r), checked with the
# reference (sysdig 0.29.3) reading the dumps.
# usage: run_flight.sh SYSDIG TRACE MODE
#   exit     --flight-recorder 256k: the exit dump FILE0 holds the last
#            events of the trace, the reference shows them (process, exe,
#            parent, thread, fd names) exactly as in the whole trace, and
#            far fewer than all of them
#   whole    --flight-recorder 64M (the whole trace fits): the reference
#            reads the dump exactly as the trace itself (default output, and
#            process, parent, exe, args and fd names), though the dump's
#            process table is the one of the end of the capture
#   seconds  --flight-recorder 64M,0.05: the dump starts at the first event
#            within 50 ms of the last one
#   trigger  --trigger on execve exits, --trigger-window 0.2: one dump per
#            window (matches inside a window do not start another), each
#            ending with the last event of its window, plus the exit dump
# Exit 77 without the reference.
set -u
SYSDIG=$1 TRACE=$2 MODE=$3
REF=/usr/bin/sysdig
[ -x "$REF" ] || { echo "SKIPPED: no reference sysdig"; exit 77; }
TMP=$(mktemp -d /tmp/sdfr.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
F=$TMP/fr.scap
FMT='%evt.rawtime %evt.cpu %proc.name %proc.exe %proc.pname %thread.tid %evt.dir %evt.type %fd.name %evt.info'

case "$MODE" in
exit)
	TZ=UTC "$SYSDIG" -r "$TRACE" --flight-recorder 256k -w "$F" 2>"$TMP/err" || fail "exit code $?: $(cat "$TMP/err")"
	grep -q "end of capture: wrote ${F}0 " "$TMP/err" || fail "no exit dump: $(cat "$TMP/err")"
	TZ=UTC "$REF" -r "${F}0" -p "$FMT" > "$TMP/dump.txt" || fail "the reference cannot read the dump"
	n=$(wc -l < "$TMP/dump.txt")
	TZ=UTC "$REF" -r "$TRACE" -p "$FMT" > "$TMP/all.txt"
	all=$(wc -l < "$TMP/all.txt")
	[ "$n" -gt 100 ] && [ "$n" -lt $((all / 2)) ] || fail "$n of $all events in the dump"
	tail -n "$n" "$TMP/all.txt" | cmp -s - "$TMP/dump.txt" ||
		fail "the dump is not the end of the trace: $(tail -n "$n" "$TMP/all.txt" | diff - "$TMP/dump.txt" | head -5)"
	echo "exit dump: the last $n of $all events"
	;;
whole)
	TZ=UTC "$SYSDIG" -r "$TRACE" --flight-recorder 64M -w "$F" 2>"$TMP/err" || fail "exit code $?: $(cat "$TMP/err")"
	for p in '' '%evt.num %proc.name %proc.pname %proc.exe %proc.args %fd.name'; do
		TZ=UTC "$REF" -r "$TRACE" ${p:+-p "$p"} > "$TMP/all.txt"
		TZ=UTC "$REF" -r "${F}0" ${p:+-p "$p"} > "$TMP/dump.txt" || fail "the reference cannot read the dump"
		cmp -s "$TMP/all.txt" "$TMP/dump.txt" ||
			fail "the dump reads otherwise (-p '$p'): $(diff "$TMP/all.txt" "$TMP/dump.txt" | head -5)"
	done
	echo "whole: the dump reads as the trace ($(wc -l < "$TMP/all.txt") lines)"
	;;
seconds)
	TZ=UTC "$SYSDIG" -r "$TRACE" --flight-recorder 64M,0.05 -w "$F" 2>"$TMP/err" || fail "exit code $?: $(cat "$TMP/err")"
	"$REF" -r "${F}0" -p '%evt.rawtime' > "$TMP/dump.txt" || fail "the reference cannot read the dump"
	"$REF" -r "$TRACE" -p '%evt.rawtime' > "$TMP/all.txt"
	last=$(tail -n 1 "$TMP/all.txt")
	want=$(awk -v l="$last" '$1 + 50000000 >= l + 0' "$TMP/all.txt" | wc -l)
	n=$(wc -l < "$TMP/dump.txt")
	[ "$n" = "$want" ] || fail "$n events in the dump, $want within 50 ms of the last"
	tail -n "$n" "$TMP/all.txt" | cmp -s - "$TMP/dump.txt" || fail "not the last events"
	echo "seconds: the last $n events (50 ms)"
	;;
trigger)
	# the dumps expected: a match arms a 0.2 s window, the first event at or
	# after its end writes the ring (without that event); the event then
	# may arm the next window
	T='evt.type=execve and evt.dir=<'
	TZ=UTC "$SYSDIG" -r "$TRACE" --flight-recorder 256k -w "$F" --trigger "$T" --trigger-window 0.2 \
		2>"$TMP/err" || fail "exit code $?: $(cat "$TMP/err")"
	"$REF" -r "$TRACE" -p '*%evt.rawtime %evt.type %evt.dir' > "$TMP/all.txt"
	awk '{ if (d && $1 >= d) { print prev; d = 0 }
		if (!d && $2 == "execve" && $3 == "<") d = $1 + 200000000
		prev = $1 }' "$TMP/all.txt" > "$TMP/ends.txt"
	m=$(wc -l < "$TMP/ends.txt")
	[ "$m" -ge 2 ] || fail "only $m trigger windows in the trace"
	[ "$(grep -c ' trigger: wrote ' "$TMP/err")" = "$m" ] || fail "not $m trigger dumps: $(cat "$TMP/err")"
	[ -f "${F}$m" ] && [ ! -f "${F}$((m + 1))" ] || fail "not $m + 1 dumps"
	for i in $(seq 0 $((m - 1))); do
		got=$("$REF" -r "${F}$i" -p '*%evt.rawtime' | tail -n 1)
		[ "$got" = "$(sed -n "$((i + 1))p" "$TMP/ends.txt")" ] || fail "dump $i does not end 0.2 s after its trigger"
	done
	echo "trigger: $m dumps ending at the end of their 0.2 s window, plus the exit dump"
	;;
*)
	fail "unknown mode $MODE"
	;;
esac
exit 0
