#!/bin/bash
# tracers_test.sh - live tests of sysdig tracers (writes to /dev/null become
# tracer events, eBPF driver, run by ctest as root).  The workload is
# tracer_writer (our own binary, its own comm); the capture filter
# proc.name=tracer_writer keeps the rest of the machine out.
#
# usage: tracers_test.sh TEST SYSDIG WRITER
#   auto    -w without -T: the short span job.step (args n=1) lasts >= 30 ms;
#           once recognised, the 300-byte tracer pair comes whole (the driver
#           was told: 4096-byte snaplen on /dev/null); the reference reads
#           the file alike
#   forced  -T: the 300-byte pair written first is whole too; without -T the
#           pair is cut at 80 bytes: no tracer, two writes (as the
#           reference reads that file)
#   print   live -p with span fields and a span.tag filter: exactly the
#           job.step exit with its duration
# Exit 77 (skipped) without root, BTF or the bpf engine.
set -u
TEST=$1 SYSDIG=$2 WRITER=$3
REF=/usr/bin/sysdig
TMP=$(mktemp -d /tmp/sdtracer.XXXXXX)
CAP_PID=
cleanup() {
	[ -n "$CAP_PID" ] && kill -INT "$CAP_PID" 2>/dev/null && wait "$CAP_PID" 2>/dev/null
	[ -n "${KEEP:-}" ] && echo "kept $TMP" || rm -rf "$TMP"
}
trap cleanup EXIT
. "$(dirname "$0")/capture_lib.sh"

need_root_btf
need_bpf

W=$TMP/tracer_writer
cp "$WRITER" "$W"
FLT="proc.name=tracer_writer"
LONGTAGS="long.$(printf 'b%.0s' $(seq 285))"

# record FILE WRITER_ARG [sysdig args]
record() {
	local file=$1 arg=$2
	shift 2
	"$SYSDIG" "$@" -w "$file" "$FLT" 2>"$TMP/cap.err" &
	CAP_PID=$!
	wait_capture "$file"
	"$W" $arg || fail "writer failed"
	stop_capture
}

# spans FILE: "dir tags duration-or-args" of the tracer events
spans() {
	"$SYSDIG" -r "$1" -p "%evt.dir %span.tags %evt.arg.args" "evt.type=tracer"
}

case "$TEST" in
auto)
	record "$TMP/a.scap" short
	got=$(spans "$TMP/a.scap")
	want=$(printf '> job.step n:1\n< job.step \n> %s k:v\n< %s k:v' "$LONGTAGS" "$LONGTAGS")
	[ "$got" = "$want" ] || fail "tracer events: got [$got] want [$want]"
	d=$("$SYSDIG" -r "$TMP/a.scap" -p "%span.duration" "span.tag[1]=step and evt.dir=<")
	[ -n "$d" ] && [ "$d" -ge 30000000 ] && [ "$d" -lt 5000000000 ] ||
		fail "span.duration of job.step: [$d], want >= 30 ms"
	a=$("$SYSDIG" -r "$TMP/a.scap" -p "%span.enterargs %span.enterarg.n" "span.tags=job.step and evt.dir=<")
	[ "$a" = "n=1 1" ] || fail "span.enterargs of the exit: [$a]"
	[ -x "$REF" ] || skip "reference sysdig missing (our checks passed)"
	cmp -s <("$SYSDIG" -r "$TMP/a.scap" "$FLT") <("$REF" -r "$TMP/a.scap" "$FLT") ||
		fail "the reference reads the file differently"
	;;
forced)
	record "$TMP/t.scap" long -T
	got=$(spans "$TMP/t.scap")
	want=$(printf '> %s k:v\n< %s k:v' "$LONGTAGS" "$LONGTAGS")
	[ "$got" = "$want" ] || fail "-T: got [$got] want [$want]"
	record "$TMP/n.scap" long
	[ -z "$(spans "$TMP/n.scap")" ] || fail "without -T the cut pair became tracers"
	# 80 bytes of each: the first waits for an end (shown anyway, as the
	# filter accepts it), joined with the second they are no tracer
	n=$("$SYSDIG" -r "$TMP/n.scap" -p "%evt.rawarg.res %evt.arg.data" "evt.type=write and evt.dir=<")
	want=$(printf '299 >:t:%s\n299 <:t:%s' "${LONGTAGS:0:76}" "${LONGTAGS:0:76}")
	[ "$n" = "$want" ] || fail "without -T: [$n], want two 80-byte writes"
	[ -x "$REF" ] || skip "reference sysdig missing (our checks passed)"
	cmp -s <("$SYSDIG" -r "$TMP/n.scap" "$FLT") <("$REF" -r "$TMP/n.scap" "$FLT") ||
		fail "the reference reads the file differently"
	;;
print)
	"$SYSDIG" -p "%proc.name %span.tags %span.duration" "span.tag[0]=job and evt.dir=<" >"$TMP/out" 2>"$TMP/cap.err" &
	CAP_PID=$!
	wait_capture
	"$W" short || fail "writer failed"
	stop_capture
	read -r name tags d <"$TMP/out"
	[ "$(wc -l <"$TMP/out")" = 1 ] && [ "$name" = tracer_writer ] && [ "$tags" = job.step ] &&
		[ "$d" -ge 30000000 ] || fail "live output: $(cat "$TMP/out")"
	;;
*)
	fail "unknown test $TEST"
	;;
esac
echo PASS
