# capture_lib.sh - sourced by the live test scripts (live_test.sh,
# flight_test.sh, stacks_test.sh, tracers_test.sh): their exits (fail, skip),
# the check that a live capture can run here, waiting until a capture's
# driver runs, and stopping it.  The caller sets SYSDIG, TMP and CAP_PID (the
# sysdig in the background, stderr in $TMP/cap.err).

fail() { echo "FAIL: $*"; exit 1; }
skip() { echo "SKIPPED: $*"; exit 77; }

# need_root_btf: skipped (ctest skip code 77) without root or kernel BTF
need_root_btf() {
	[ "$(id -u)" = 0 ] || skip "needs root"
	[ -r /sys/kernel/btf/vmlinux ] || skip "kernel without BTF"
}

# need_bpf: skipped when this sysdig has no bpf engine or its driver does
# not load here
need_bpf() {
	local out
	out=$("$SYSDIG" -n 1 2>&1 >/dev/null)
	case "$out" in
	*"not built"*) skip "$out" ;;
	*"live capture"*) skip "bpf driver does not load here: $out" ;;
	esac
}

# wait_capture [FILE]: returns once the capture CAP_PID holds its bpf links
# (or FILE, its -w file, is not empty); the /proc snapshot follows the attach
wait_capture() {
	local file=${1:-/nonexistent}
	for _ in $(seq 200); do
		if [ -s "$file" ] || ls -l "/proc/$CAP_PID/fd" 2>/dev/null | grep -q bpf_link; then
			sleep 0.5
			return 0
		fi
		kill -0 "$CAP_PID" 2>/dev/null || fail "capture died: $(cat "$TMP/cap.err")"
		sleep 0.1
	done
	fail "capture did not start"
}

# stop_capture: SIGINT once the consumer drained the rings; its exit code must be 0
stop_capture() {
	sleep 1
	kill -INT "$CAP_PID"
	wait "$CAP_PID" || fail "capture exit code $? ($(cat "$TMP/cap.err"))"
	CAP_PID=
}
