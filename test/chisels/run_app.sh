#!/bin/bash
# run_app.sh - sysdig.run_app: chisels that save events (around, spy_logs)
# make sysdig run again with the command line they build, and the dump file
# it writes is the one the reference writes (read back by the reference:
# same output).  around runs on a stored trace; spy_logs on a capture of a
# process writing a .log file, spy_syslog on one of logger writing to a
# .../dev/log socket, both recorded live here (root and BPF, else skipped).
# usage: run_app.sh TEST SYSDIG DATA_DIR   (77 = skipped)
set -u
t=$1 OURS=$(realpath "$2") DATA=$(realpath "$3")
REF=${SYSDIG_REF:-/usr/bin/sysdig}
[ -x "$REF" ] || { echo "SKIPPED: the reference $REF is missing"; exit 77; }
export TZ=UTC
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
# attached PID: waits (60 s at most) until the capture PID holds its bpf
# links; the /proc snapshot follows the attach
attached() {
	for _ in $(seq 600); do
		if ls -l "/proc/$1/fd" 2>/dev/null | grep -q bpf_link; then sleep 0.5; return 0; fi
		sleep 0.1
	done
	kill "$1" 2>/dev/null; return 1
}
# dumps TRACE CHISEL ARGS FILTER: both tools run the chisel, whose dump
# files must exist and read back equal in the reference
dumps() {
	local trace=$1 chisel=$2 args=$3 filter=$4
	"$OURS" -r "$trace" -c "$chisel" "${args/DUMP/$TMP/o.scap}" $filter >"$TMP/out_o" 2>"$TMP/err_o" || fail "ours: $(cat "$TMP/err_o")"
	"$REF" -r "$trace" -c "$chisel" "${args/DUMP/$TMP/r.scap}" $filter >"$TMP/out_r" 2>"$TMP/err_r"
	local rc=$?
	[ -s "$TMP/o.scap" ] || fail "ours wrote no dump file; stdout: $(tail -2 "$TMP/out_o")"
	[ -s "$TMP/r.scap" ] || { cp "$trace" /tmp/run_app_failed.scap 2>/dev/null; fail "the reference wrote no dump file (exit $rc): $(tail -3 "$TMP/err_r") $(tail -2 "$TMP/out_r")"; }
	"$REF" -r "$TMP/o.scap" >"$TMP/read_o" 2>&1
	"$REF" -r "$TMP/r.scap" >"$TMP/read_r" 2>&1
	cmp -s "$TMP/read_o" "$TMP/read_r" || { diff "$TMP/read_o" "$TMP/read_r" | head; fail "dump files differ"; }
	[ "$(wc -l <"$TMP/read_o")" -gt 10 ] || fail "dump file has only $(wc -l <"$TMP/read_o") events"
	echo "$chisel: dump file of $(wc -l <"$TMP/read_o") events, read back by the reference as its own"
}
case $t in
around)
	dumps "$DATA/traces/ref029_light.scap" around "DUMP 100" "proc.name=cat and evt.type=close and evt.dir=<"
	dumps "$DATA/traces/ref029_net_small.scap" around "DUMP" "evt.type=accept and evt.dir=<" ;;
spy_logs)
	[ "$(id -u)" = 0 ] && [ -e /sys/kernel/btf/vmlinux ] || { echo "SKIPPED: a live capture needs root and BTF"; exit 77; }
	cp /bin/dd "$TMP/logwriter"	# a comm of our own
	"$OURS" -w "$TMP/live.scap" proc.name=logwriter 2>"$TMP/err" &
	pid=$!
	attached $pid || fail "capture did not start: $(cat "$TMP/err")"
	for i in 1 2 3 4 5; do
		echo "log line $i" | "$TMP/logwriter" of="$TMP/app.log" oflag=append conv=notrunc status=none
		sleep 0.1
	done
	sleep 1
	kill -INT $pid; wait $pid
	[ -s "$TMP/live.scap" ] || fail "no capture: $(cat "$TMP/err")"
	dumps "$TMP/live.scap" spy_logs "DUMP 100" "" ;;
spy_syslog)	# syslog messages to a datagram socket named .../dev/log (there is no
	# /dev/log here): logger (a copy, a comm of its own) writes five, a
	# receiver of ours reads them; the capture is then read by both tools
	[ "$(id -u)" = 0 ] && [ -e /sys/kernel/btf/vmlinux ] || { echo "SKIPPED: a live capture needs root and BTF"; exit 77; }
	command -v logger >/dev/null || { echo "SKIPPED: logger (util-linux) missing"; exit 77; }
	mkdir "$TMP/dev" && cp "$(command -v logger)" "$TMP/syslogwriter"
	timeout 60 python3 -c 'import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sys.argv[1])
open(sys.argv[2], "w").close()
for i in range(5):
    s.recv(4096)' "$TMP/dev/log" "$TMP/ready" &
	for _ in $(seq 100); do [ -e "$TMP/ready" ] && break; sleep 0.1; done
	[ -e "$TMP/ready" ] || fail "the syslog receiver did not start"
	"$OURS" -w "$TMP/live.scap" proc.name=syslogwriter 2>"$TMP/err" &
	pid=$!
	attached $pid || fail "capture did not start: $(cat "$TMP/err")"
	for m in "user.warning mytag message-1" "user.warning mytag message-2" "local3.err other an-error" \
		 "auth.info plain hello" "daemon.debug dbg last-one"; do
		set -- $m
		"$TMP/syslogwriter" -u "$TMP/dev/log" -p "$1" -t "$2" "$3" || fail "logger failed"
	done
	sleep 2		# let the consumer drain the rings (a loaded machine lags)
	kill -INT $pid; wait $pid
	wait	# the receiver got all five
	dumps "$TMP/live.scap" spy_syslog "DUMP 100" ""
	cmp -s "$TMP/out_o" "$TMP/out_r" || { diff "$TMP/out_o" "$TMP/out_r"; fail "spy_syslog prints differ from the reference"; }
	for want in "user.warn syslogwriter\[[0-9]*\] .* mytag: message-1" "local3.err syslogwriter\[[0-9]*\] .* other: an-error" \
		    "daemon.debug syslogwriter\[[0-9]*\] .* dbg: last-one"; do
		grep -q "$want" "$TMP/out_o" || fail "no line like '$want' in: $(cat "$TMP/out_o")"
	done
	echo "spy_syslog printed $(grep -c syslogwriter "$TMP/out_o") messages, as the reference" ;;
snaplen)	# sysdig.set_snaplen(2000) of echo_fds sizes the live buffers
	[ "$(id -u)" = 0 ] && [ -e /sys/kernel/btf/vmlinux ] || { echo "SKIPPED: a live capture needs root and BTF"; exit 77; }
	cp /bin/dd "$TMP/bigwriter"
	timeout 30 "$OURS" --unbuffered -c echo_fds proc.name=bigwriter >"$TMP/out" 2>"$TMP/err" &
	pid=$!
	# write until the capture, once attached, has shown a write
	for i in 1 2 3 4 5 6 7 8 9 10; do
		sleep 1
		head -c 1500 /dev/zero | tr '\0' y | "$TMP/bigwriter" of="$TMP/big.txt" bs=1500 status=none
		sleep 0.5
		grep -qa "Write 1.46KB" "$TMP/out" && break
	done
	kill -TERM $pid; wait $pid
	n=$(grep -a -A1 "Write 1.46KB" "$TMP/out" | head -2 | tail -1 | tr -cd y | wc -c)
	[ "$n" -ge 1500 ] || fail "echo_fds showed $n of the 1500 bytes written (snaplen not applied): $(cat "$TMP/err")"
	echo "echo_fds showed all $n bytes of a 1500-byte write" ;;
*) fail "unknown test $t" ;;
esac
