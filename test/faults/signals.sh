#!/bin/bash
# signals.sh SYSDIG DATA: SIGINT at random moments (the first 50 ms
# included) of -w leaves a file that reads cleanly; one SIGINT stops a
# chisel looping forever (the interrupt hook; a compiled loop after a 1 s
# grace time) and a -r on a FIFO without a writer; a second SIGINT kills.
# The live -w part needs root and the BPF driver (else it is left out).
. "$(dirname "$0")/lib.sh"
# job control: background jobs get SIGINT as a terminal's Ctrl-C would
# (without it bash starts them with SIGINT ignored, and an early one is lost)
set -m
sysdig=$1 data=$2
here=$(cd "$(dirname "$0")" && pwd)
export SYSDIG_CHISEL_DIR=$here/chisels

# ms_sleep N: sleep N milliseconds
ms_sleep() { sleep "$(printf '0.%03d' "$1")"; }
# finish PID SECS: wait at most SECS for PID; its exit status in $rc
finish() {
	local pid=$1 i
	for i in $(seq $(($2 * 20))); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.05
	done
	if kill -0 "$pid" 2>/dev/null; then
		kill -9 "$pid"
		wait "$pid"
		fail "still running $2 s after the signal"
	fi
	wait "$pid"
	rc=$?
}
# interrupted_write LABEL MS SYSDIG-ARGS...: -w $TMP/w.scap, SIGINT (odd
# runs: SIGTERM) after MS ms
early=0 valid=0 late=0
interrupted_write() {
	local label=$1 ms=$2 sig=INT
	shift 2
	[ $((valid + early)) -eq $(((valid + early) / 2 * 2)) ] || sig=TERM
	rm -f "$TMP/w.scap"
	"$sysdig" "$@" -w "$TMP/w.scap" 2>"$TMP/err" &
	local pid=$!
	ms_sleep "$ms"
	kill -"$sig" "$pid" 2>/dev/null || late=$((late + 1))
	finish "$pid" 10
	if [ "$rc" -gt 128 ] && [ ! -e "$TMP/w.scap" ]; then
		early=$((early + 1))	# before the process could catch signals: nothing written
		return
	fi
	[ "$rc" = 0 ] || fail "$label: SIG$sig after $ms ms: exit $rc: $(cat "$TMP/err")"
	[ -e "$TMP/w.scap" ] || fail "$label: SIGINT after $ms ms: exit 0 and no file"
	"$sysdig" -r "$TMP/w.scap" >/dev/null 2>"$TMP/rerr" ||
		fail "$label: SIGINT after $ms ms: the file does not read back: $(cat "$TMP/rerr")"
	valid=$((valid + 1))
}
RANDOM=16
# enough input that a quiet, fast machine is still reading when the signal
# comes (up to 450 ms after the start)
inputs=$(for i in $(seq 48); do printf -- '-r %s ' "$data/traces/ref029_light.scap"; done)
for i in $(seq 12); do
	ms=$((RANDOM % 50))
	[ "$i" -gt 8 ] && ms=$((50 + RANDOM % 400))
	interrupted_write "-r -w" "$ms" $inputs
done
[ "$late" -lt 3 ] || fail "-r -w: $late of 12 runs ended before the signal"
echo "-r -w: $valid interrupted files read back cleanly, $early runs stopped before the handler (no file)"
live=skipped
if [ "$(id -u)" = 0 ] && "$sysdig" -n 1 >/dev/null 2>&1; then
	early=0 valid=0
	for i in $(seq 8); do
		ms=$((RANDOM % 50))
		[ "$i" -gt 5 ] && ms=$((200 + RANDOM % 700))
		interrupted_write "live -w" "$ms"
	done
	live="$valid interrupted files read back cleanly, $early runs stopped before the handler"
fi
echo "live -w: $live"

# interrupt_chisel CHISEL SIGNALS SECS: -c CHISEL over cat_write.scap, after
# 0.5 s SIGNALS SIGINTs 0.1 s apart; it must end within SECS ($rc)
interrupt_chisel() {
	"$sysdig" -r "$data/traces/cat_write.scap" -c "$1" >"$TMP/out" 2>"$TMP/err" &
	local pid=$! i
	sleep 0.5
	for i in $(seq "$2"); do
		kill -INT "$pid"
		sleep 0.1
	done
	finish "$pid" "$3"
}
# a chisel looping in interpreted Lua: one SIGINT, on_capture_end still runs
interrupt_chisel spin_api 1 3
[ "$rc" = 0 ] || fail "spin_api: exit $rc after one SIGINT: $(cat "$TMP/err")"
grep -q "capture end ran" "$TMP/out" || fail "spin_api: on_capture_end did not run"
echo "interpreted endless loop: stopped by one SIGINT, on_capture_end ran"
# a compiled loop: one SIGINT, the grace time, then it ends as killed
interrupt_chisel spin_compiled 1 4
[ "$rc" = 130 ] || fail "spin_compiled: exit $rc after one SIGINT"
[ "$(cat "$TMP/err")" = "chisel still running after the stop signal: exiting" ] ||
	fail "spin_compiled: stderr: $(cat "$TMP/err")"
echo "compiled endless loop: ended by one SIGINT after the grace time"
# the second SIGINT kills at once
interrupt_chisel spin_compiled 2 1
[ "$rc" = 130 ] || fail "second SIGINT: exit $rc"
[ ! -s "$TMP/err" ] || fail "second SIGINT: not killed at once: $(cat "$TMP/err")"
echo "second SIGINT: killed"
# -r on a FIFO that nobody writes, then one that stalls after some events
mkfifo "$TMP/fifo"
"$sysdig" -r "$TMP/fifo" >"$TMP/out" 2>"$TMP/err" &
pid=$!
sleep 0.3
kill -INT "$pid"
finish "$pid" 2
[ "$rc" = 0 ] || fail "FIFO without a writer: exit $rc: $(cat "$TMP/err")"
[ ! -s "$TMP/err" ] || fail "FIFO without a writer: $(cat "$TMP/err")"
( head -c 300000 "$data/traces/ref029_light.scap"; sleep 30 ) >"$TMP/fifo" &
writer=$!
"$sysdig" -r "$TMP/fifo" >"$TMP/out" 2>"$TMP/err" &
pid=$!
sleep 1
kill -INT "$pid"
finish "$pid" 2
kill "$writer" 2>/dev/null
[ "$rc" = 0 ] || fail "stalled FIFO: exit $rc: $(cat "$TMP/err")"
[ -s "$TMP/out" ] || fail "stalled FIFO: nothing printed"
echo "FIFO: stopped by one SIGINT without a writer, and with a stalled one after $(wc -l <"$TMP/out") lines"
