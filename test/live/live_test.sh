#!/bin/bash
# live_test.sh - live capture tests of the eBPF driver (run by ctest).
#
# usage: live_test.sh TEST SYSDIG WORKLOAD STORM [BLOCKER [FORKER]]
#   workload           capture everything while the workload runs; each of its
#                      calls must be there, enter and exit, with exact parameters
#   workload_filtered  same, written with a filter on the workload's pid tree
#   reference_plain    /usr/bin/sysdig reads our -w file exactly like our reader
#   reference_gzip     same with -z
#   drops              a getppid storm into a 4 KiB ring (--buffer-bytes-per-cpu):
#                      drops reported, equal to seen - written, drop markers in the file
#   unprivileged       as nobody: one clear error line, exit code 1
#   topprocs_net       the topprocs_net chisel shows the workload's bytes, from a
#                      file and live (where its I/O filter keeps a storm out of
#                      the driver)
#   fdbytes_sport      live -c fdbytes_by fd.sport shows the workload's ports
#   sched_switch       switch events of the workload (default, as the reference);
#                      page_fault events only with --page-faults
#   filter_mask        a filter keeps unmatched syscalls out of the driver (storm
#                      not seen) while the state (fd names) stays complete
#   comm_filter        proc.name=X: other processes suppressed in the driver
#                      (storm not seen), every call of X written
#   comm_list          proc.name in (A, B) goes down as a list of names (storm
#                      left out in the driver); the same run captured without
#                      the pushdown (SYSDIG_NO_PUSHDOWN=1) prints the same lines
#   pid_filter         proc.pid=P goes down to the driver: a storm of another
#                      process is not delivered (counted as unselected), every
#                      call of P written, nothing of its child or of others
#   suppress_comm      -U STORM live, our own process execs the storm: left out
#                      in the driver (only its lifecycle reaches userspace)
#   trace_cmd          sysdig -- FORKER (a known tree of 4 processes) while a
#                      storm runs: exactly its pids and comms from its execve to
#                      its procexit, its exit code; with -w, -j, -c and --user
#   latency            enter events at syscall entry: a 250 ms nanosleep has
#                      latency >= 250 ms; the enter of a blocked read is printed
#                      while it blocks (the test releases it only then)
#   latency_exit_only  --exit-only: the same calls, enter written at exit
#                      (latency 0, the blocked read's enter not seen before)
#   sock_flags         TCP sockets made with SOCK_CLOEXEC/SOCK_NONBLOCK are
#                      TCP (<4t>, fd.l4proto=tcp), a SOCK_DGRAM|SOCK_CLOEXEC one UDP
#                      (unconnected sockets show no protocol, as in sysdig)
#   statx              statx on a known file and on a missing one: the exact
#                      path, flags and mask, evt.type=statx and evt.arg.* filters;
#                      the reference reads the file, skipping only those events
#   procinfo           one procinfo batch per second (every thread, stamped
#                      <second>.999999999), a busy loop first in topprocs_cpu,
#                      from the file and live
#   signaldeliver      SIGUSR1 (kill) and SIGUSR2 (tgkill) to itself: one
#                      signaldeliver each, after the call, dpid = the receiver
#   pidns              unshare -p -f BLOCKER: proc.vpid and thread.vtid are 1 in
#                      the new pid namespace, proc.pid the host pid
#   container_cgroup   processes moved into test cgroups named like each
#                      container layout (docker scope and cgroupfs, podman
#                      libpod scope, containerd and cri-o scopes, cri-o and
#                      plain ids under kubepods, lxc; pids hierarchy or v2)
#                      get the exact container.id and container.type; a
#                      process outside stays on the host; the ids equal the
#                      reference's on the same file
#   container_pushdown container.id in (A, B) selects cgroups in the driver: A's
#                      made before the capture, B's and a child of A's made
#                      during it are captured, a container C and a storm are
#                      not; the same as a capture without the pushdown
#   chisel_snaplen     live -c echo_fds (sysdig.set_snaplen(2000)) shows all of a
#                      1500-byte write; without a chisel the default 80 bytes;
#                      -s 100 wins over the chisel
# Exit 77 (skipped) without root, BTF or the bpf engine.
set -u
TEST=$1 SYSDIG=$2 WORKLOAD=$3 STORM=$4 BLOCKER=${5:-} FORKER=${6:-}
REF=/usr/bin/sysdig
TMP=$(mktemp -d /tmp/sdlive.XXXXXX)
CAP_PID= WL_PID= WL_RUN= ALL_PID=
COMM=$(basename "$WORKLOAD" | cut -c1-15)
cleanup() {
	touch "$TMP/gate"	# a blocker's child waits for it
	[ -n "$CAP_PID" ] && kill -INT "$CAP_PID" 2>/dev/null
	[ -n "$ALL_PID" ] && kill -INT "$ALL_PID" 2>/dev/null
	[ -n "$WL_RUN" ] && kill "$WL_RUN" 2>/dev/null
	type rm_cgroups >/dev/null 2>&1 && rm_cgroups	# the container tests' cgroups
	[ -n "${KEEP:-}" ] && echo "kept $TMP" || rm -rf "$TMP"
}
trap cleanup EXIT
. "$(dirname "$0")/capture_lib.sh"

need_root_btf
if [ "$TEST" != unprivileged ]; then need_bpf; fi

# pushdown_vs_all FORMAT: once the workload ran under both captures (the
# one with the pushdown, $TMP/c.scap, and SYSDIG_NO_PUSHDOWN=1's
# $TMP/all.scap with stderr in $TMP/all.err), a storm the pushdown leaves
# out in the driver; both files printed with FORMAT into c.txt and all.txt
pushdown_vs_all() {
	"$STORM" getppid 200000 >/dev/null
	stop_capture
	storm_left_out comm 200000
	grep -q "^Suppressed by Comm:0$" "$TMP/all.err" || fail "SYSDIG_NO_PUSHDOWN=1 still suppressed"
	grep -q "^Driver Drops:0$" "$TMP/all.err" || fail "drops without the pushdown: $(cat "$TMP/all.err")"
	"$SYSDIG" -r "$TMP/c.scap" -p "$1" > "$TMP/c.txt" || fail "reading back"
	"$SYSDIG" -r "$TMP/all.scap" -p "$1" > "$TMP/all.txt" || fail "reading back"
	echo "$(wc -l < "$TMP/c.txt") events with the pushdown, $(wc -l < "$TMP/all.txt") without"
}

# start_capture FILE [sysdig args...]: -w FILE, returns once the driver runs
start_capture() {
	local file=$1
	shift
	"$SYSDIG" "$@" -w "$file" 2>"$TMP/cap.err" &
	CAP_PID=$!
	wait_capture "$file"
}

# start_live OUT [sysdig args...]: stdout to OUT, returns once the driver runs
start_live() {
	local out=$1
	shift
	"$SYSDIG" "$@" >"$out" 2>"$TMP/cap.err" &
	CAP_PID=$!
	wait_capture /nonexistent
}

# baseline_start / baseline_stop: an unfiltered capture over the window of
# the capture under test.  The rest of the machine is seen by both, so what
# the baseline sees beyond it is what the filter kept out of the driver.
# baseline_stop (after stop_capture) sets SEEN and BASELINE: the events
# each driver saw.
baseline_start() {
	local cap=$CAP_PID
	"$SYSDIG" -v -w /dev/null 2>"$TMP/all.err" &
	ALL_PID=$! CAP_PID=$!
	wait_capture /nonexistent
	CAP_PID=$cap
}
baseline_stop() {
	kill -INT "$ALL_PID"; wait "$ALL_PID"; ALL_PID=
	SEEN=$(sed -n 's/^Driver Events:\([0-9]*\)/\1/p' "$TMP/cap.err")
	BASELINE=$(sed -n 's/^Driver Events:\([0-9]*\)/\1/p' "$TMP/all.err")
	[ -n "$SEEN" ] && [ -n "$BASELINE" ] || fail "no driver statistics: $(cat "$TMP/cap.err" "$TMP/all.err")"
}

PORT=$((40000 + RANDOM % 20000))
TAG=t$$

# run_workload: starts it gated, sets WL_PID, releases it once $1 is true
run_workload() {
	rm -f "$TMP/gate"
	"$WORKLOAD" "$TAG" "$PORT" "$TMP/gate" &
	WL_PID=$!
	WL_RUN=$WL_PID
}

release_workload() {
	touch "$TMP/gate"
	wait "$WL_PID" || fail "workload failed"
	WL_RUN=
}

# after release_workload: WL_PID stays for the checks, the process is gone


# storm_left_out KIND MAX: the getppid storm of 200000 calls (400000
# events) was dropped in the driver: counted there (KIND comm: -v's
# "Suppressed by Comm"; unselected: -D's count of unselected pids) and
# fewer than MAX events delivered ("Driver Events")
storm_left_out() {
	local kind=$1 max=$2 seen n
	seen=$(sed -n 's/^Driver Events:\([0-9]*\)/\1/p' "$TMP/cap.err")
	case "$kind" in
	comm) n=$(sed -n 's/^Suppressed by Comm:\([0-9]*\)/\1/p' "$TMP/cap.err") ;;
	unselected) n=$(sed -n 's/.* driver: [0-9]* events, [0-9]* suppressed by comm, \([0-9]*\) of unselected pids$/\1/p' "$TMP/cap.err") ;;
	esac
	echo "driver: $seen events delivered, $n $kind"
	[ -n "$seen" ] && [ -n "$n" ] || fail "no driver statistics: $(cat "$TMP/cap.err")"
	[ "$n" -ge 400000 ] || fail "the storm was not left out in the driver ($kind)"
	[ "$seen" -lt "$max" ] || fail "the storm went through the driver"
}

# expect FILE PATTERN...: every pattern (grep -E) matches a line of FILE
expect() {
	local f=$1 p
	shift
	for p in "$@"; do
		grep -qE -- "$p" "$f" || fail "missing: $p"
	done
}

# the container tests' cgroups: ROOT, a writable pids hierarchy (v1) or the
# v2 tree with the pids controller (else skip); enable_pids DIR: on v2, the
# pids controller enabled down to DIR (a v2 cgroup without it has no css of
# its own: nothing shows it); hex64: a random 64-hex container id
pids_root() {
	local root
	ROOT=
	for root in /sys/fs/cgroup/pids /sys/fs/cgroup/unified /sys/fs/cgroup; do
		[ -w "$root/cgroup.procs" ] || continue
		case "$root" in
		*/pids) ROOT=$root; return ;;
		*) grep -qw pids "$root/cgroup.controllers" 2>/dev/null && { ROOT=$root; return; } ;;
		esac
	done
	skip "no writable pids cgroup hierarchy (v1 or v2 with the pids controller)"
}
enable_pids() {
	local d
	[ "$ROOT" = /sys/fs/cgroup/pids ] && return
	d=$(dirname "$1")
	while :; do
		echo +pids > "$d/cgroup.subtree_control" 2>/dev/null
		[ "$d" = "$ROOT" ] && break
		d=$(dirname "$d")
	done
}
hex64() { head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n'; }

# same_lines ALL PUSHED: the lines of a capture without the pushdown and of
# one with it are equal; the process names after pids aside (next=, ptid=:
# a process started between the two captures is named only in the later
# one's /proc snapshot; fd names, "(<...", are compared)
same_lines() {
	local n='s/=\([0-9][0-9]*\)([^<)][^)]*)/=\1/g'
	diff <(sed "$n" "$1") <(sed "$n" "$2") > "$TMP/d.txt" || fail "outputs differ: $(head -5 "$TMP/d.txt")"
}

# same_as_reference OURS REF: our reader printed what the reference printed.
# Events of ours the reference does not have (statx: ids after its last one)
# it skips without numbering them: then the lines compared are the others,
# without evt.num.
same_as_reference() {
	local ours=$1 ref=$2 own
	own=$(comm -23 <("$SYSDIG" -L | sed -nE 's/^[<>] ([^(]*)\(.*/\1/p' | sort -u) \
		<("$REF" -L | sed -nE 's/^[<>] ([^(]*)\(.*/\1/p' | sort -u) | paste -sd'|')
	if [ -n "$own" ] && grep -qE "^[0-9]+ [^ ]+ [0-9]+ .* [<>] ($own) " "$ours"; then
		echo "our own events ($own) in the capture: compared without them and evt.num"
		grep -vE "^[0-9]+ [^ ]+ [0-9]+ .* [<>] ($own) " "$ours" | cut -d' ' -f2- >"$TMP/ours.cmp"
		cut -d' ' -f2- "$ref" >"$TMP/ref.cmp"
	else
		cp "$ours" "$TMP/ours.cmp"
		cp "$ref" "$TMP/ref.cmp"
	fi
	cmp -s "$TMP/ours.cmp" "$TMP/ref.cmp" && return 0
	echo "our reader and $REF differ on $(diff "$TMP/ours.cmp" "$TMP/ref.cmp" | grep -c '^<') lines, e.g.:"
	diff "$TMP/ours.cmp" "$TMP/ref.cmp" | head -6
	return 1
}

check_workload() {
	local txt=$1 t="/tmp/sdlive-$TAG" P=$WL_PID W="$COMM \($WL_PID\)"
	local S="[0-9.]+"
	expect "$txt" \
		"$W > openat dirfd=-100\(AT_FDCWD\) name=$t.txt flags=263\(O_TRUNC\|O_CREAT\|O_RDWR\) mode=0640 $" \
		"$W < openat fd=3\(<f>$t.txt\) dirfd=-100\(AT_FDCWD\) name=$t.txt flags=263\(O_TRUNC\|O_CREAT\|O_RDWR\) mode=0640 dev=[0-9A-F]+ $" \
		"$W > write fd=3\(<f>$t.txt\) size=37 $" \
		"$W < write res=37 data=0123456789abcdefghijklmnopqrstuvwxyz. $" \
		"$W > read fd=3\(<f>$t.txt\) size=64 $" \
		"$W < read res=37 data=0123456789abcdefghijklmnopqrstuvwxyz. $" \
		"$W > close fd=3\(<f>$t.txt\) $" \
		"$W < openat fd=-2\(ENOENT\) dirfd=-100\(AT_FDCWD\) name=$t.missing flags=1\(O_RDONLY\) mode=0 dev=0 $" \
		"$W < rename res=0 oldpath=$t.txt newpath=$t.ren $" \
		"$W < unlink res=0 path=$t.ren $" \
		"$W < pipe res=0 fd1=3\(<p>\) fd2=4\(<p>\) ino=[0-9]+ $" \
		"$W > dup fd=4\(<p>\) $" \
		"$W < dup res=100\(<p>\) $" \
		"$W < write res=5 data=pipe! $" \
		"$W < read res=5 data=pipe! $" \
		"$W > clone $" \
		"$W < clone res=[0-9]+\($COMM\) exe=$WORKLOAD args=$TAG.$PORT.$TMP/gate. tid=$P\($COMM\) pid=$P\($COMM\) ptid=" \
		"$COMM \([0-9]+\) < clone res=0 exe=$WORKLOAD .* ptid=$P\($COMM\) " \
		"> execve filename=/bin/true $" \
		"true \([0-9]+\) < execve res=0 exe=true args=live-arg-1.live-arg-2. tid=[0-9]+\(true\) pid=[0-9]+\(true\) ptid=$P\($COMM\) cwd=.* comm=true .*env=LIVE_ENV=42. " \
		"true \([0-9]+\) > procexit status=0 ret=0 sig=0 core=0 $" \
		"$W > bind fd=3\(<4t?>\) $" \
		"$W < bind res=0 addr=127.0.0.1:$PORT $" \
		"$W > connect fd=4\(<4t?>\) addr=127.0.0.1:$PORT $" \
		"$W < connect res=0 tuple=127.0.0.1:[0-9]+->127.0.0.1:$PORT $" \
		"$W < accept fd=5\(<4t>127.0.0.1:[0-9]+->127.0.0.1:$PORT\) tuple=127.0.0.1:[0-9]+->127.0.0.1:$PORT queuepct=0 queuelen=0 queuemax=4 $" \
		"$W > sendto fd=4\(<4t>127.0.0.1:[0-9]+->127.0.0.1:$PORT\) size=4 tuple=NULL $" \
		"$W < sendto res=4 data=ping $" \
		"$W > recvfrom fd=5\(<4t>127.0.0.1:[0-9]+->127.0.0.1:$PORT\) size=8 $" \
		"$W < recvfrom res=4 data=ping tuple=NULL $" \
		"$W < recvfrom res=4 data=pong tuple=NULL $" \
		"$W < bind res=0 addr=127.0.0.1:$((PORT + 1)) $" \
		"$W > connect fd=4\(<4u?>\) addr=127.0.0.1:$((PORT + 1)) $" \
		"$W < connect res=0 tuple=127.0.0.1:[0-9]+->127.0.0.1:$((PORT + 1)) $" \
		"$W > sendto fd=4\(<4u>127.0.0.1:[0-9]+->127.0.0.1:$((PORT + 1))\) size=6 tuple=127.0.0.1:[0-9]+->127.0.0.1:$((PORT + 1)) $" \
		"$W < sendto res=6 data=dgram! $" \
		"$W > recvfrom fd=3\(<4u>127.0.0.1:$((PORT + 1))\) size=16 $" \
		"$W < recvfrom res=6 data=dgram! tuple=127.0.0.1:[0-9]+->127.0.0.1:$((PORT + 1)) $" \
		"$W < bind res=0 addr=::1:$((PORT + 2)) $" \
		"$W > connect fd=4\(<6t?>\) addr=::1:$((PORT + 2)) $" \
		"$W < connect res=0 tuple=::1:[0-9]+->::1:$((PORT + 2)) $" \
		"$W < accept fd=5\(<6t>::1:[0-9]+->::1:$((PORT + 2))\) tuple=::1:[0-9]+->::1:$((PORT + 2)) " \
		"$W < recvfrom res=4 data=ping tuple=NULL $" \
		"$W > procexit status=0 ret=0 sig=0 core=0 $"
	# every exit of the workload follows its enter (same thread, next event)
	awk -v p="($WL_PID)" '$4 == p { if ($5 == "<" && (last != "> " $6)) bad++; last = $5 " " $6 }
		END { exit bad > 0 }' "$txt" || fail "an exit without its enter"
}

capture_workload() {
	local file=$1
	shift
	run_workload
	if [ "$1" = filtered ]; then
		start_capture "$file" "proc.pid=$WL_PID or proc.ppid=$WL_PID"
	else
		start_capture "$file"
	fi
	release_workload
	stop_capture
}

case "$TEST" in
workload|workload_filtered)
	mode=; [ "$TEST" = workload_filtered ] && mode=filtered
	capture_workload "$TMP/w.scap" "$mode"
	"$SYSDIG" -r "$TMP/w.scap" > "$TMP/w.txt" 2>&1 || fail "reading back"
	check_workload "$TMP/w.txt"
	if [ "$TEST" = workload_filtered ]; then
		others=$(awk -v a="($WL_PID)" '$4 != a && $5 ~ /[<>]/ && $4 !~ /^\(/' "$TMP/w.txt" |
			grep -vc "true (" )
		[ "$others" = 0 ] || fail "$others events of other processes in the filtered capture"
	fi
	;;
reference_plain|reference_gzip)
	[ -x "$REF" ] || skip "no reference $REF"
	z=; [ "$TEST" = reference_gzip ] && z=-z
	run_workload
	start_capture "$TMP/r.scap" $z
	release_workload
	stop_capture
	"$SYSDIG" -r "$TMP/r.scap" > "$TMP/ours.txt" 2>&1 || fail "our reader failed"
	"$REF" -r "$TMP/r.scap" > "$TMP/ref.txt" 2>&1 || fail "reference reader failed"
	check_workload "$TMP/ref.txt"
	same_as_reference "$TMP/ours.txt" "$TMP/ref.txt" || fail "outputs differ"
	;;
drops)
	start_capture "$TMP/d.scap" -v --buffer-bytes-per-cpu 4096
	"$STORM" getppid 300000 >/dev/null
	stop_capture
	seen=$(sed -n 's/^Driver Events:\([0-9]*\)/\1/p' "$TMP/cap.err")
	drops=$(sed -n 's/^Driver Drops:\([0-9]*\)/\1/p' "$TMP/cap.err")
	[ -n "$seen" ] && [ -n "$drops" ] || fail "no driver statistics: $(cat "$TMP/cap.err")"
	[ "$drops" -gt 0 ] || fail "a 4 KiB ring did not overflow"
	markers=$("$SYSDIG" -D -r "$TMP/d.scap" "evt.type=drop" | grep -c " > drop ")
	# the driver's events (procinfo comes from userspace, and filters
	# leave it in, as sysdig's do)
	total=$("$SYSDIG" -D -r "$TMP/d.scap" | grep -vc " > procinfo ")
	[ "$markers" -gt 0 ] || fail "no drop markers in the file"
	written=$((total - 2 * markers))
	# events seen = dropped + written; a few events may arrive after the last read
	diff=$((seen - drops - written))
	echo "seen $seen dropped $drops written $written markers $markers unaccounted $diff"
	[ "$diff" -ge 0 ] && [ "$diff" -le 200 ] || fail "drop accounting off by $diff"
	;;
unprivileged)
	command -v setpriv >/dev/null || skip "no setpriv"
	setpriv --reuid=65534 --regid=65534 --clear-groups "$SYSDIG" -n 1 >"$TMP/o" 2>"$TMP/e"
	rc=$?
	[ "$rc" = 1 ] || fail "exit code $rc"
	[ "$(wc -l < "$TMP/e")" = 1 ] || fail "expected one error line, got: $(cat "$TMP/e")"
	grep -q "needs root" "$TMP/e" || fail "unclear message: $(cat "$TMP/e")"
	[ -s "$TMP/o" ] && fail "output on stdout"
	;;
topprocs_net)
	"$SYSDIG" -cl 2>/dev/null | grep -q topprocs_net || skip "no topprocs_net chisel"
	run_workload
	start_capture "$TMP/n.scap"
	release_workload
	stop_capture
	"$SYSDIG" -r "$TMP/n.scap" -c topprocs_net > "$TMP/n.txt" 2>&1 || fail "chisel failed"
	# 4+4+4+4 TCP v4, 6+6 UDP, 4+4+4+4 TCP v6 = 44 bytes
	grep -qE "^44B? +$COMM" "$TMP/n.txt" || fail "workload bytes not shown: $(head -5 "$TMP/n.txt")"
	# live: the chisel's filter (I/O only) keeps a getppid storm out of the driver
	run_workload
	baseline_start
	start_live "$TMP/l.txt" -v -c topprocs_net
	release_workload
	"$STORM" getppid 200000 >/dev/null
	stop_capture
	baseline_stop
	grep -qE "^44B? +$COMM" "$TMP/l.txt" || fail "live: workload bytes not shown: $(head -5 "$TMP/l.txt")"
	echo "live topprocs_net: the driver saw $SEEN events, $BASELINE without the chisel's filter, during a 200000 getppid storm (400000 events)"
	[ $((BASELINE - SEEN)) -ge 360000 ] || fail "the storm went through the driver"
	;;
fdbytes_sport)
	"$SYSDIG" -cl 2>/dev/null | grep -q fdbytes_by || skip "no fdbytes_by chisel"
	run_workload
	start_live "$TMP/f.txt" -c fdbytes_by fd.sport
	release_workload
	stop_capture
	# TCP v4 and v6: 4 bytes each way, both ends = 16 bytes on the server port
	expect "$TMP/f.txt" "^16B? +$PORT$" "^16B? +$((PORT + 2))$" "^[0-9]+B? +$((PORT + 1))$"
	;;
sched_switch)
	run_workload
	start_capture "$TMP/s.scap"
	release_workload
	stop_capture
	run_workload
	start_capture "$TMP/p.scap" --page-faults
	release_workload
	stop_capture
	"$SYSDIG" -r "$TMP/s.scap" "evt.type in (switch, page_fault)" >"$TMP/s.txt" 2>&1 || fail "reading back"
	"$REF" -r "$TMP/p.scap" "evt.type=page_fault" >"$TMP/p.txt" 2>&1 || fail "reading back (reference)"
	expect "$TMP/s.txt" \
		"$COMM \([0-9]+\) > switch next=[1-9][0-9]*(\([^)]*\))? pgft_maj=[0-9]+ pgft_min=[1-9][0-9]* vm_size=[1-9][0-9]* vm_rss=[1-9][0-9]* vm_swap=[0-9]+ $"
	expect "$TMP/p.txt" \
		"$COMM \([0-9]+\) > page_fault addr=[0-9A-F]+ ip=[0-9A-F]+ error=[0-9]+\([A-Z_|]*USER_FAULT[A-Z_|]*\) $"
	grep -q "> page_fault" "$TMP/s.txt" && fail "page faults captured without --page-faults"
	;;
filter_mask)
	# rw1: 1-byte pipe writes and reads (their own event types, not state)
	"$STORM" rw1 2 >/dev/null || fail "storm"
	# an unfiltered capture over the same window sees what the rest of the
	# machine does too: what it sees beyond the filtered one is what the
	# mask kept out of the driver (the storm: 400000 calls, 800000 events)
	baseline_start
	start_capture "$TMP/m.scap" -v "evt.type=nanosleep"
	"$STORM" rw1 400000 >/dev/null
	stop_capture
	baseline_stop
	echo "driver saw $SEEN events with filter evt.type=nanosleep, $BASELINE without, during a 400000 read/write storm"
	[ $((BASELINE - SEEN)) -ge 720000 ] || fail "the storm went through the driver"
	# the state still comes through: the reads show the name opened before
	run_workload
	start_live "$TMP/m.txt" "proc.pid=$WL_PID and evt.type=read"
	release_workload
	stop_capture
	expect "$TMP/m.txt" "$COMM \($WL_PID\) < read res=37 data=0123456789" \
		"$COMM \($WL_PID\) > read fd=3\(<f>/tmp/sdlive-$TAG.txt\) size=64 $"
	[ "$(grep -vc ' read ' "$TMP/m.txt")" = 0 ] || fail "other events: $(grep -v ' read ' "$TMP/m.txt" | head -3)"
	;;
comm_filter)
	# proc.name=X goes down to the driver: a getppid storm of another
	# process is suppressed there, the workload's calls are all written
	run_workload
	start_capture "$TMP/c.scap" -v "proc.name=$COMM"
	release_workload
	"$STORM" getppid 200000 >/dev/null
	stop_capture
	storm_left_out comm 200000
	"$SYSDIG" -r "$TMP/c.scap" > "$TMP/c.txt" 2>&1 || fail "reading back"
	W="$COMM \($WL_PID\)"
	expect "$TMP/c.txt" \
		"$W < openat fd=3\(<f>/tmp/sdlive-$TAG.txt\) " \
		"$W < write res=37 data=0123456789abcdefghijklmnopqrstuvwxyz. $" \
		"$W < clone res=[0-9]+\($COMM\) exe=$WORKLOAD " \
		"$W < accept fd=5\(<4t>127.0.0.1:[0-9]+->127.0.0.1:$PORT\) " \
		"$W < recvfrom res=6 data=dgram! tuple=127.0.0.1:[0-9]+->127.0.0.1:$((PORT + 1)) $" \
		"$W > procexit status=0 ret=0 sig=0 core=0 $"
	others=$(grep -vc "^[0-9]* [0-9:.]* [0-9]* $COMM (" "$TMP/c.txt")
	[ "$others" = 0 ] || fail "$others events of other processes: $(grep -v " $COMM (" "$TMP/c.txt" | head -2)"
	;;
comm_list)
	# proc.name in (A, B) goes down as a list of names: a storm is left out
	# in the driver; a second capture of the same run without the pushdown
	# (SYSDIG_NO_PUSHDOWN=1) prints the same events of A and B (copies of
	# the blocker with names of their own: nothing else is named so)
	NA=sdla$$ NB=sdlb$$
	cp "$BLOCKER" "$TMP/$NA" && cp "$BLOCKER" "$TMP/$NB" || fail "copying $BLOCKER"
	FL="proc.name in ($NA, $NB)"
	start_capture "$TMP/c.scap" -v "$FL"
	# the reference run: `-- CMD` keeps its process tree in the driver
	# (another mechanism; the rest of the machine stays out of it)
	SYSDIG_NO_PUSHDOWN=1 "$SYSDIG" -v -w "$TMP/all.scap" "$FL" -- sh -c '
		for b in "$@"; do
			ASAN_OPTIONS=detect_leaks=0 "$b" write "$b.out" 100 &&
			ASAN_OPTIONS=detect_leaks=0 "$b" spin 20 || exit 1
		done' sh "$TMP/$NA" "$TMP/$NB" 2>"$TMP/all.err" ||
		fail "the capture without pushdown or its blockers failed: $(cat "$TMP/all.err")"
	pushdown_vs_all "%proc.pid %thread.tid %proc.name %evt.dir %evt.type %evt.info"
	for b in "$NA" "$NB"; do
		grep -q " $b < execve " "$TMP/c.txt" || fail "no execve of $b"
		grep -q " $b < write res=100 " "$TMP/c.txt" || fail "no write of $b"
	done
	same_lines "$TMP/all.txt" "$TMP/c.txt"
	;;
pid_filter)
	run_workload
	start_capture "$TMP/c.scap" -D -v "proc.pid=$WL_PID"
	release_workload
	"$STORM" getppid 200000 >/dev/null
	stop_capture
	storm_left_out unselected 200000
	"$SYSDIG" -r "$TMP/c.scap" -p "%proc.pid %proc.name (%thread.tid) %evt.dir %evt.type %evt.info" \
		> "$TMP/c.txt" 2>&1 || fail "reading back"
	# the driver delivered the workload's process only (-D: sysdig's own
	# events are captured too, the filter drops them)
	others=$("$SYSDIG" -r "$TMP/c.scap" -p "%proc.pid" "proc.pid!=$WL_PID" 2>&1 | wc -l)
	[ "$others" = 0 ] || fail "$others events of other processes in the file"
	W="$WL_PID $COMM \($WL_PID\)"
	expect "$TMP/c.txt" \
		"$W < openat fd=3\(<f>/tmp/sdlive-$TAG.txt\) " \
		"$W < write res=37 data=0123456789abcdefghijklmnopqrstuvwxyz. $" \
		"$W < clone res=[0-9]+\($COMM\) exe=$WORKLOAD " \
		"$W < accept fd=5\(<4t>127.0.0.1:[0-9]+->127.0.0.1:$PORT\) " \
		"$W > procexit status=0 ret=0 sig=0 core=0 $"
	;;
suppress_comm)
	# our own process P (a gated sh that execs the storm) is the only one
	# the driver selects (proc.pid=P); -U drops the storm's name there, so
	# what P delivers is its shell part and its lifecycle, a few events
	S=$(basename "$STORM" | cut -c1-15)
	rm -f "$TMP/gate"
	sh -c 'while [ ! -e "$1" ]; do sleep 0.05; done; exec "$2" getppid 200000 >/dev/null' sh "$TMP/gate" "$STORM" &
	WL_RUN=$!
	start_capture "$TMP/c.scap" -D -v -U "$S" "proc.pid=$WL_RUN"
	touch "$TMP/gate"
	wait "$WL_RUN" || fail "storm failed"
	WL_RUN=
	stop_capture
	storm_left_out comm 100000
	n=$("$SYSDIG" -r "$TMP/c.scap" "proc.name=$S" 2>&1 | wc -l)
	[ "$n" = 0 ] || fail "-U: $n events of $S in the file"
	;;
trace_cmd)
	F=$(basename "$FORKER" | cut -c1-15)
	# an unrelated storm the whole time: none of it may show
	(while :; do "$STORM" getppid 100000 >/dev/null; done) &
	WL_RUN=$!
	"$SYSDIG" -p "%proc.pid %proc.name %thread.tid %evt.dir %evt.type" -- "$FORKER" "$TMP/p1" 7 \
		>"$TMP/t.txt" 2>"$TMP/cap.err"
	rc=$?
	[ "$rc" = 7 ] || fail "exit code $rc, not CMD's 7 ($(cat "$TMP/cap.err"))"
	[ "$(wc -l < "$TMP/p1")" = 4 ] || fail "the forker did not run its tree: $(cat "$TMP/p1")"
	want=$(awk '{ print $1 }' "$TMP/p1" | sort -n | tr '\n' ' ')
	got=$(awk '{ print $1 }' "$TMP/t.txt" | sort -un | tr '\n' ' ')
	echo "pids: want $want, got $got ($(wc -l < "$TMP/t.txt") events)"
	[ "$got" = "$want" ] || fail "traced pids '$got', the tree is '$want'"
	P=$(awk '$2 == "P" { print $1 }' "$TMP/p1")
	C=$(awk '$2 == "C" { print $1 }' "$TMP/p1")
	# from its execve (entered as the sysdig child; a switch or procinfo
	# of it may come before the exit) to its procexit
	[ "$(head -1 "$TMP/t.txt")" = "$P sysdig $P > execve" ] ||
		fail "does not start at CMD's execve: $(head -1 "$TMP/t.txt")"
	first=$(awk -v p="$P sysdig $P " 'substr($0, 1, length(p)) != p { print; exit }' "$TMP/t.txt")
	[ "$first" = "$P $F $P < execve" ] || fail "CMD's execve does not come first: $first"
	[ "$(tail -1 "$TMP/t.txt")" = "$P $F $P > procexit" ] || fail "does not end at CMD's procexit: $(tail -1 "$TMP/t.txt")"
	comms=$(awk -v p="$P" '!($1 == p && $2 == "sysdig") { print $2 }' "$TMP/t.txt" | sort -u | tr '\n' ' ')
	[ "$comms" = "$F true " ] || fail "comms '$comms', not '$F true '"
	[ "$(awk '$2 == "true" { print $1 }' "$TMP/t.txt" | sort -u)" = "$C" ] || fail "true is not C"
	for p in $want; do
		grep -q "^$p .* > procexit$" "$TMP/t.txt" || fail "no procexit of $p"
	done
	# -w: the file holds the same tree; the exit code is CMD's
	"$SYSDIG" -w "$TMP/t.scap" -- "$FORKER" "$TMP/p2" 3 2>"$TMP/cap.err"
	rc=$?
	[ "$rc" = 3 ] || fail "-w: exit code $rc, not 3 ($(cat "$TMP/cap.err"))"
	want=$(awk '{ print $1 }' "$TMP/p2" | sort -n | tr '\n' ' ')
	got=$("$SYSDIG" -r "$TMP/t.scap" -p "%proc.pid" | sort -un | tr '\n' ' ')
	[ "$got" = "$want" ] || fail "-w: pids '$got' in the file, the tree is '$want'"
	# -j with a filter: JSON lines of the tree only
	"$SYSDIG" -j "evt.type=openat" -- "$FORKER" "$TMP/p3" 0 >"$TMP/t.json" 2>"$TMP/cap.err" ||
		fail "-j: exit code $? ($(cat "$TMP/cap.err"))"
	want=$(awk '{ print $1 }' "$TMP/p3" | sort -n | tr '\n' ' ')
	got=$(python3 -c 'import json, sys
tids = set()
for l in open(sys.argv[1]):
    e = json.loads(l)
    assert e["evt.type"] == "openat", e
    tids.add(e["thread.tid"])
print(" ".join(str(t) for t in sorted(tids)), end=" ")' "$TMP/t.json") || fail "-j: not JSON lines of openat"
	[ "$got" = "$want" ] || fail "-j: tids '$got', the tree is '$want'"
	# -c: a chisel sees the tree's I/O
	"$SYSDIG" -c echo_fds -- "$FORKER" "$TMP/p4" 0 >"$TMP/t.chisel" 2>"$TMP/cap.err" ||
		fail "-c: exit code $? ($(cat "$TMP/cap.err"))"
	grep -q "forker-A-data" "$TMP/t.chisel" || fail "-c echo_fds: A's write not shown"
	# --user: CMD runs as nobody from its execve on
	"$SYSDIG" --user nobody -p "uid=%user.uid" -- "$FORKER" /dev/null 0 >"$TMP/t.user" 2>"$TMP/cap.err" ||
		fail "--user: exit code $? ($(cat "$TMP/cap.err"))"
	u=$(sort -u "$TMP/t.user" | tr '\n' ' ')
	[ "$u" = "uid=$(id -u nobody) " ] || fail "--user nobody: uids '$u'"
	# errors: one line each, shell-like codes
	err=$("$SYSDIG" -- sd_no_such_command 2>&1); rc=$?
	[ "$rc" = 127 ] && [ "$err" = "-- sd_no_such_command: command not found" ] || fail "not found: $rc '$err'"
	err=$("$SYSDIG" -- /nonexistent/cmd 2>&1); rc=$?
	[ "$rc" = 127 ] && [ "$err" = "-- /nonexistent/cmd: No such file or directory" ] || fail "no file: $rc '$err'"
	err=$("$SYSDIG" -r "$TMP/t.scap" -- true 2>&1); rc=$?
	[ "$rc" = 1 ] && [ "$err" = "-- CMD: traces a command live, not with -r or -I" ] || fail "-r: $rc '$err'"
	err=$("$SYSDIG" --kmod -- true 2>&1); rc=$?
	[ "$rc" = 1 ] && [ "$(echo "$err" | wc -l)" = 1 ] || fail "--kmod: $rc '$err'"
	# a stop signal goes on to CMD, whose status (130: SIGINT) is returned
	"$SYSDIG" -q -- sleep 30 2>"$TMP/cap.err" &
	CAP_PID=$!
	wait_capture /nonexistent
	kill -INT "$CAP_PID"
	wait "$CAP_PID"; rc=$?
	CAP_PID=
	[ "$rc" = 130 ] || fail "SIGINT: exit code $rc, not 130"
	;;
latency|latency_exit_only)
	mode=; [ "$TEST" = latency_exit_only ] && mode=--exit-only
	B=$(basename "$BLOCKER" | cut -c1-15)
	RD_IN=" > read 0 fd=[0-9]+\(<p>\) size=16 *$"
	rm -f "$TMP/gate"
	start_live "$TMP/l.txt" $mode --unbuffered \
		-p "%evt.num %thread.tid %evt.dir %evt.type %evt.latency %evt.args" \
		"proc.name=$B and evt.type in (nanosleep, read)"
	"$BLOCKER" latency "$TMP/gate" &
	WL_RUN=$!
	# the read blocks until the gate exists: its enter must show first
	for _ in $(seq 60); do
		grep -qE "$RD_IN" "$TMP/l.txt" && break
		sleep 0.05
	done
	if [ -z "$mode" ]; then
		grep -qE "$RD_IN" "$TMP/l.txt" || fail "no enter of the blocked read: $(cat "$TMP/l.txt")"
	else
		grep -qE "$RD_IN" "$TMP/l.txt" && fail "exit-only: the read's enter before its exit"
	fi
	grep -qE " < read [0-9]+ res=5 " "$TMP/l.txt" && fail "the read returned before its release"
	touch "$TMP/gate"
	wait "$WL_RUN" || fail "blocker failed"
	WL_RUN=
	stop_capture
	# enter then exit of the same thread, the exit's latency in range
	awk -v exit_only="$mode" '
		$3 == ">" && $4 == "nanosleep" && $6 ~ /^interval=250000000/ { ns_in = NR; tid = $2 }
		$3 == "<" && $4 == "nanosleep" && $2 == tid { ns_out = NR; ns_lat = $5 }
		$3 == ">" && $4 == "read" && $6 ~ /<p>/ { rd_in = NR }
		$3 == "<" && $4 == "read" && $6 == "res=5" { rd_out = NR; rd_lat = $5 }
		END {
			if (!ns_in || ns_out != ns_in + 1 || !rd_in || rd_out != rd_in + 1) { print "pairs missing"; exit 1 }
			if (exit_only != "") {
				if (ns_lat != 0 || rd_lat != 0) { print "exit-only latency not 0"; exit 1 }
				print "exit-only: latencies 0"
				exit 0
			}
			if (ns_lat < 250000000 || ns_lat > 5000000000) { print "nanosleep latency " ns_lat; exit 1 }
			if (rd_lat < 1000000) { print "read latency " rd_lat; exit 1 }
			print "nanosleep latency " ns_lat " ns, blocked read latency " rd_lat " ns"
		}' "$TMP/l.txt" || fail "latencies: $(cat "$TMP/l.txt")"
	;;
sock_flags)
	B=$(basename "$BLOCKER" | cut -c1-15)
	start_capture "$TMP/k.scap" "proc.name=$B"
	"$BLOCKER" sockets "$PORT" || fail "blocker sockets failed"
	stop_capture
	"$SYSDIG" -r "$TMP/k.scap" > "$TMP/k.txt" 2>&1 || fail "reading back"
	W="$B \([0-9]+\)" T="127.0.0.1:[0-9]+->127.0.0.1:$PORT"
	expect "$TMP/k.txt" \
		"$W > bind fd=3\(<4>\) $" \
		"$W > listen fd=3\(<4t>127.0.0.1:$PORT\) backlog=4 $" \
		"$W > connect fd=4\(<4>\) addr=127.0.0.1:$PORT $" \
		"$W < connect res=-115\(EINPROGRESS\) tuple=$T $" \
		"$W < accept fd=5\(<4t>$T\) tuple=$T " \
		"$W > sendto fd=4\(<4t>$T\) size=4 tuple=NULL $" \
		"$W > recvfrom fd=5\(<4t>$T\) size=8 $" \
		"$W > recvfrom fd=4\(<4t>$T\) size=8 $" \
		"$W > sendto fd=6\(<4>\) size=6 tuple=0.0.0.0:0->127.0.0.1:$((PORT + 1)) $" \
		"$W > close fd=6\(<4u>[0-9.]+:0->127.0.0.1:$((PORT + 1))\) $"
	tcp=$("$SYSDIG" -r "$TMP/k.scap" "fd.l4proto=tcp and evt.type in (sendto, recvfrom)" | wc -l)
	udp=$("$SYSDIG" -r "$TMP/k.scap" "fd.l4proto=udp and evt.type in (sendto, recvfrom)" | wc -l)
	echo "tcp send/recv events: $tcp, udp: $udp"
	[ "$tcp" = 8 ] || fail "fd.l4proto=tcp: $tcp send/recv events, expected 8"
	[ "$udp" = 1 ] || fail "fd.l4proto=udp: $udp send/recv events, expected 1 (the enter has no role yet)"
	;;
statx)
	B=$(basename "$BLOCKER" | cut -c1-15)
	F=$TMP/statx_target
	echo data >"$F"
	start_capture "$TMP/s.scap" "proc.name=$B"
	"$BLOCKER" statx "$F" || fail "blocker statx failed"
	stop_capture
	"$SYSDIG" -r "$TMP/s.scap" >"$TMP/s.txt" 2>&1 || fail "reading back"
	W="$B \([0-9]+\)" AT="dirfd=-100\(AT_FDCWD\)"
	BASIC="STATX_TYPE\|STATX_MODE\|STATX_NLINK\|STATX_UID\|STATX_GID\|STATX_ATIME\|STATX_MTIME\|STATX_CTIME\|STATX_INO\|STATX_SIZE\|STATX_BLOCKS"
	expect "$TMP/s.txt" \
		"$W > statx $AT path=$F flags=256\(AT_SYMLINK_NOFOLLOW\) mask=514\(STATX_MODE\|STATX_SIZE\) $" \
		"$W < statx res=0 $AT path=$F $" \
		"$W > statx $AT path=$F.missing flags=0 mask=2047\($BASIC\) $" \
		"$W < statx res=-2\(ENOENT\) $AT path=$F.missing $"
	[ "$(grep -c ' statx ' "$TMP/s.txt")" = 4 ] || fail "statx events: $(grep ' statx ' "$TMP/s.txt")"
	n=$("$SYSDIG" -r "$TMP/s.scap" "evt.type=statx and evt.arg.path=$F" | wc -l)
	[ "$n" = 2 ] || fail "evt.type=statx and evt.arg.path=$F: $n events, expected 2"
	v=$("$SYSDIG" -r "$TMP/s.scap" -p "%evt.arg.flags %evt.arg.mask" \
		"evt.type=statx and evt.dir='>' and evt.arg.flags contains AT_SYMLINK_NOFOLLOW")
	[ "$v" = "AT_SYMLINK_NOFOLLOW STATX_MODE|STATX_SIZE" ] || fail "statx arguments: $v"
	n=$("$SYSDIG" -r "$TMP/s.scap" "evt.type=statx and evt.res=ENOENT" | wc -l)
	[ "$n" = 1 ] || fail "evt.res=ENOENT: $n statx events, expected 1"
	echo "statx: $(grep -c ' statx ' "$TMP/s.txt") events, filters ok"
	# sysdig 0.29.3 has no statx event: it reads the file, skipping them
	if [ -x "$REF" ]; then
		"$REF" -r "$TMP/s.scap" >"$TMP/ref.txt" 2>&1 || fail "reference: $(tail -1 "$TMP/ref.txt")"
		grep -qE ' [<>] statx ' "$TMP/ref.txt" && fail "the reference shows statx"
		same_as_reference "$TMP/s.txt" "$TMP/ref.txt" || fail "the reference reads the other events differently"
		echo "reference: $(wc -l <"$TMP/ref.txt") events, the same without statx"
	fi
	;;
procinfo)
	B=$(basename "$BLOCKER" | cut -c1-15)
	start_capture "$TMP/p.scap"
	"$BLOCKER" spin 2500 &
	SPIN=$!
	wait "$SPIN" || fail "spin failed"
	stop_capture
	"$SYSDIG" -D -r "$TMP/p.scap" "evt.type=procinfo" > "$TMP/p.txt" 2>"$TMP/p.err" || fail "reading back: $(tail -1 "$TMP/p.err")"
	batches=$(awk '{ print $2 }' "$TMP/p.txt" | sort -u | grep -c '\.999999999$')
	others=$(awk '{ print $2 }' "$TMP/p.txt" | grep -vc '\.999999999$')
	echo "procinfo: $(wc -l < "$TMP/p.txt") events in $batches batches"
	[ "$batches" -ge 2 ] && [ "$others" = 0 ] || fail "procinfo batches: $batches, $others off the second boundary"
	# every batch has the spinner (a thread of the machine) once
	[ "$(grep -c " $B ($SPIN) > procinfo cpu_usr=" "$TMP/p.txt")" -ge 2 ] || fail "spinner not in the batches"
	"$SYSDIG" -r "$TMP/p.scap" -c topprocs_cpu > "$TMP/t.txt" 2>&1 || fail "topprocs_cpu failed"
	cat "$TMP/t.txt"
	# the busy loop's user time grows from batch to batch, and the chisel
	# shows it (this host may be busy: its share is not asserted)
	awk -v t="$B ($SPIN)" 'index($0, t) { sub("cpu_usr=", "", $8); if (!n++) first = $8; last = $8 }
		END { print "spinner cpu_usr " first " -> " last " ticks"; exit !(last + 0 > first + 0) }' "$TMP/p.txt" ||
		fail "the busy loop's cpu_usr does not grow"
	grep -qE "^[0-9.]*[1-9][0-9.]*% +$B +$SPIN$" "$TMP/t.txt" || fail "the busy loop is not in topprocs_cpu"
	# live: the chisel prints every second
	start_live "$TMP/l.txt" -c topprocs_cpu
	"$BLOCKER" spin 2500 &
	SPIN=$!
	wait "$SPIN" || fail "spin failed"
	stop_capture
	grep -qE "^[0-9.]*[1-9][0-9.]*% +$B +$SPIN$" "$TMP/l.txt" || fail "live topprocs_cpu: $(head -12 "$TMP/l.txt")"
	;;
signaldeliver)
	B=$(basename "$BLOCKER" | cut -c1-15)
	start_capture "$TMP/g.scap" "proc.name=$B"
	"$BLOCKER" signal || fail "blocker signal failed"
	stop_capture
	"$SYSDIG" -r "$TMP/g.scap" "evt.type in (kill, tgkill, signaldeliver)" > "$TMP/g.txt" 2>&1 || fail "reading back"
	cat "$TMP/g.txt"
	W="$B \(([0-9]+)\)"
	expect "$TMP/g.txt" \
		"$W < kill res=0 $" \
		"$W > signaldeliver spid=0 dpid=[0-9]+\($B\) sig=10\(SIGUSR1\) $" \
		"$W < tgkill res=0 $" \
		"$W > signaldeliver spid=0 dpid=[0-9]+\($B\) sig=12\(SIGUSR2\) $"
	# each delivery right after its call returns, to the thread itself
	awk '$6 == "<" && ($7 == "kill" || $7 == "tgkill") { want = $5 }
		$7 == "signaldeliver" { if (!want || $9 != "dpid=" substr(want, 2, length(want) - 2) "(" $4 ")") bad++; n++; want = "" }
		END { exit !(n == 2 && !bad) }' "$TMP/g.txt" || fail "signaldeliver not right after its call"
	;;
pidns)
	command -v unshare >/dev/null || skip "no unshare"
	unshare -p -f true 2>/dev/null || skip "unshare -p not permitted here"
	B=$(basename "$BLOCKER" | cut -c1-15)
	# the file needs unshare's clone too (the child's vtid/vpid are in it)
	start_capture "$TMP/n.scap" "proc.name in (unshare, $B)"
	# (no leak check in an ASan build: LeakSanitizer's own task at exit
	# would be one more process in the namespace)
	unshare -p -f env ASAN_OPTIONS=detect_leaks=0 "$BLOCKER" spin 50 || fail "unshare -p -f failed"
	stop_capture
	"$SYSDIG" -r "$TMP/n.scap" -p "%proc.pid %proc.vpid %thread.tid %thread.vtid %proc.name" \
		"proc.name=$B" | sort -u > "$TMP/n.txt" || fail "reading back"
	cat "$TMP/n.txt"
	[ -s "$TMP/n.txt" ] || fail "no events of the process"
	awk '$2 != 1 || $4 != 1 || $1 == 1 { bad++ } END { exit bad > 0 }' "$TMP/n.txt" ||
		fail "vpid/vtid not 1 (or pid not the host's)"
	# the reference reads the same file the same way
	if [ -x "$REF" ]; then
		"$REF" -r "$TMP/n.scap" -p "%proc.pid %proc.vpid %thread.tid %thread.vtid %proc.name" \
			"proc.name=$B" 2>/dev/null | sort -u > "$TMP/nr.txt"
		cmp -s "$TMP/n.txt" "$TMP/nr.txt" || fail "reference differs: $(cat "$TMP/nr.txt")"
	fi
	;;
container_cgroup)
	# one process per layout, in a cgroup of the pids hierarchy (v1) or of
	# the v2 tree
	B=$(basename "$BLOCKER" | cut -c1-15)
	ID=$(hex64)
	POD=pod$(hex64 | cut -c1-16)
	pids_root
	# layout relative path, expected container.id and container.type
	# a container id per layout (the container table keeps one type per id)
	id() { printf '%02x%s' "$1" "${ID:2}"; }
	cat > "$TMP/layouts" <<-EOF
	docker-$(id 1).scope $(id 1 | cut -c1-12) docker
	sdtest-docker/$(id 2) $(id 2 | cut -c1-12) docker
	sdtest.slice/libpod-$(id 3).scope $(id 3 | cut -c1-12) podman
	sdtest.slice/$POD.slice/cri-containerd-$(id 4).scope $(id 4 | cut -c1-12) containerd
	sdtest.slice/$POD.slice/crio-$(id 5).scope $(id 5 | cut -c1-12) cri-o
	sdtest-kubepods/$POD/crio-$(id 6) $(id 6 | cut -c1-12) cri-o
	sdtest-kubepods/$POD/$(id 7) $(id 7 | cut -c1-12) docker
	sdtest-lxc/lxc/sdtest$$ sdtest$$ lxc
	EOF
	made=
	rm_cgroups() {
		for d in $made; do
			while [ "$d" != "$ROOT" ]; do rmdir "$d" 2>/dev/null || break; d=$(dirname "$d"); done
		done
	}
	start_capture "$TMP/c.scap" "proc.name=$B"
	n=0
	while read -r rel id type; do
		CG=$ROOT/$rel
		mkdir -p "$CG" || { rm_cgroups; fail "mkdir $CG"; }
		made="$CG $made"
		enable_pids "$CG"
		sh -c 'echo $$ > "$1/cgroup.procs" && exec env ASAN_OPTIONS=detect_leaks=0 "$2" spin 20' sh "$CG" "$BLOCKER" ||
			{ rm_cgroups; fail "running in $CG failed"; }
		n=$((n + 1))
	done < "$TMP/layouts"
	ASAN_OPTIONS=detect_leaks=0 "$BLOCKER" spin 20
	stop_capture
	rm_cgroups
	F="proc.name=$B and evt.type=execve and evt.dir=<"
	"$SYSDIG" -r "$TMP/c.scap" -p "%container.id %container.type %thread.cgroup.pids" "$F" > "$TMP/c.txt" ||
		fail "reading back"
	cat "$TMP/c.txt"
	[ "$(wc -l < "$TMP/c.txt")" = $((n + 1)) ] || fail "not one execve per layout and one outside"
	while read -r rel id type; do
		grep -q "^$id $type .*/$rel\$" "$TMP/c.txt" || fail "$rel: not container.id $id type $type"
	done < "$TMP/layouts"
	grep -q "^host host " "$TMP/c.txt" || fail "the process outside is not on the host"
	# the ids are the reference's (its types need the runtimes: not compared)
	if [ -x "$REF" ]; then
		"$REF" -r "$TMP/c.scap" -p "%container.id" "$F" > "$TMP/ref.txt" 2>/dev/null ||
			fail "the reference does not read the file"
		cut -d' ' -f1 "$TMP/c.txt" | diff - "$TMP/ref.txt" || fail "container ids differ from the reference"
	fi
	;;
container_pushdown)
	# container.id in (A, B) goes down to the driver as the cgroups naming
	# A or B: one made before the capture (A), one made during it (B, the
	# cgroup_mkdir hook) and a child of A's made during it; a container C
	# not asked for and a storm on the host are left out in the driver; a
	# second capture of the same run without the pushdown
	# (SYSDIG_NO_PUSHDOWN=1) prints the same lines
	B=$(basename "$BLOCKER" | cut -c1-15)
	pids_root
	A=$(hex64) BB=$(hex64) C=$(hex64)
	CGA=$ROOT/sdtest.slice/docker-$A.scope CGB=$ROOT/sdtest.slice/cri-containerd-$BB.scope
	CGC=$ROOT/sdtest.slice/docker-$C.scope
	made=
	mkcg() { mkdir -p "$1" && made="$1 $made" && enable_pids "$1"; }
	rm_cgroups() { for d in $made; do rmdir "$d" 2>/dev/null; done; rmdir "$ROOT/sdtest.slice" 2>/dev/null; }
	mkcg "$CGA" && mkcg "$CGC" || fail "mkdir in $ROOT"
	FL="container.id in (${A:0:12}, ${BB:0:12})"
	start_capture "$TMP/c.scap" -v "$FL"
	mkcg "$CGB" && mkcg "$CGA/inner" || fail "mkdir in $ROOT"
	# the reference run, as in comm_list: `-- CMD` selects its tree
	SYSDIG_NO_PUSHDOWN=1 "$SYSDIG" -v -w "$TMP/all.scap" "$FL" -- sh -c '
		b=$1; shift
		for cg in "$@"; do
			sh -c "echo \$\$ > $cg/cgroup.procs && exec env ASAN_OPTIONS=detect_leaks=0 $b spin 20" || exit 1
		done' sh "$BLOCKER" "$CGA" "$CGB" "$CGA/inner" "$CGC" 2>"$TMP/all.err" ||
		fail "the capture without pushdown or its blockers failed: $(cat "$TMP/all.err")"
	pushdown_vs_all "%proc.pid %thread.tid %proc.name %container.id %evt.dir %evt.type %evt.info"
	rm_cgroups
	for id in ${A:0:12} ${BB:0:12}; do
		grep -q " $B $id < execve " "$TMP/c.txt" || fail "no execve of $B in $id"
	done
	[ "$(grep -c " $B ${A:0:12} < execve " "$TMP/c.txt")" = 2 ] || fail "not two processes in ${A:0:12}"
	grep -q "${C:0:12}" "$TMP/c.txt" && fail "container ${C:0:12} captured"
	same_lines "$TMP/all.txt" "$TMP/c.txt"
	;;
chisel_snaplen)
	"$SYSDIG" -cl 2>/dev/null | grep -q echo_fds || skip "no echo_fds chisel"
	B=$(basename "$BLOCKER" | cut -c1-15)
	F=$TMP/snap.txt
	start_live "$TMP/e.txt" -c echo_fds "proc.name=$B"
	"$BLOCKER" write "$F" 1500 || fail "blocker write failed"
	stop_capture
	grep -q "<THE-END!>" "$TMP/e.txt" || fail "echo_fds: the end of a 1500-byte write is missing: $(head -c 300 "$TMP/e.txt")"
	# no chisel: the default snaplen, 80 bytes of data
	start_live "$TMP/d.txt" -p "%evt.rawarg.data" "proc.name=$B and evt.type=write and evt.dir=<"
	"$BLOCKER" write "$F" 1500 || fail "blocker write failed"
	stop_capture
	[ "$(head -1 "$TMP/d.txt" | tr -d '\n' | wc -c)" = 80 ] || fail "default snaplen: $(head -1 "$TMP/d.txt")"
	# -s wins over the chisel's set_snaplen()
	start_live "$TMP/s.txt" -s 100 -c echo_fds "proc.name=$B"
	"$BLOCKER" write "$F" 1500 || fail "blocker write failed"
	stop_capture
	grep -q "<THE-END!>" "$TMP/s.txt" && fail "-s 100: the chisel's snaplen won"
	grep -q "0123456789" "$TMP/s.txt" || fail "-s 100: no data: $(head -c 300 "$TMP/s.txt")"
	;;
*)
	fail "unknown test $TEST"
	;;
esac
echo "PASS: $TEST"
