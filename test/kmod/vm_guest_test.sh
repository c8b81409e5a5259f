#!/bin/sh
# vm_guest_test.sh - runs inside the qemu guest as /guest.sh; $1 = output dir.
# Loads sysdigc.ko, captures the workload with kmod_capture (and with our
# sysdig when present), then exercises the module lifecycle: loading twice,
# two readers, unloading while a reader is open, unload.  Every check writes
# "CHECK name rc" lines to $1/checks.txt; the host verifies them.
OUT=$1
check() {
	echo "CHECK $1 $2" >>"$OUT/checks.txt"
	echo "KMOD-VM: $1 $2" >/dev/console
}
T="timeout -s INT 60"

insmod /mods/sysdigc.ko
check insmod $?
ls -l /dev/sysdigc* >"$OUT/devs.txt" 2>&1
insmod /mods/sysdigc.ko 2>"$OUT/insmod2.txt"
check insmod_twice_fails $([ $? -ne 0 ] && grep -q "exists" "$OUT/insmod2.txt" && echo 0 || echo 1)

$T /usr/bin/kmod_capture "$OUT/wl.scap" -- /usr/bin/kmod_workload 5555 >"$OUT/capture.txt" 2>&1
check capture $?

# the workload starts once our sysdig's driver is attached (the eBPF
# verifier is slow under TCG): a bpf link or the device open, then the /proc
# snapshot
wait_attached() {
	i=0
	while [ $i -lt 150 ] && ! ls -l /proc/[0-9]*/fd 2>/dev/null | grep -q "bpf_link\|sysdigc0"; do
		sleep 0.2
		i=$((i + 1))
	done
	sleep 1
}

# our sysdig, live: $1 = output name, $2... = driver option
sysdig_capture() {
	name=$1
	shift
	# a ticker keeps events flowing so -M (event time) can end
	(i=0; while [ $i -lt 100 ]; do sleep 0.2; i=$((i + 1)); done) &
	TICK=$!
	$T /usr/bin/sysdig-c "$@" -w "$OUT/$name.scap" -M 5 >"$OUT/$name.txt" 2>&1 &
	SD=$!
	wait_attached
	/usr/bin/kmod_workload 5555 >"$OUT/$name.wl.txt" 2>&1
	wait $SD
	RC=$?
	kill $TICK 2>/dev/null
	wait
	return $RC
}
if [ -x /usr/bin/sysdig-c ]; then
	sysdig_capture ours --kmod
	check our_sysdig_capture $?
fi
# our sysdig --kmod (options $3...) while stackprog writes 5 times to fd 1
# and stays alive $2 ms; its output in $OUT/$1.txt
stackprog_capture() {
	name=$1
	pause=$2
	shift 2
	$T /usr/bin/sysdig-c --kmod "$@" >"$OUT/$name.txt" 2>"$OUT/$name.err" &
	SD=$!
	wait_attached
	STACKPROG_PAUSE_MS=$pause /usr/bin/stackprog 5 >/dev/null 2>&1
	sleep 2
	kill -INT $SD
	wait $SD
}
if [ -x /usr/bin/sysdig-c ] && [ -x /usr/bin/stackprog ]; then
	# a filter naming an event type: the module's event mask still carries
	# the state events (execve, clone, procexit...), so stackprog, started
	# after the capture, is named: its 5 writes to fd 1 (enter and exit)
	# are seen, and nothing but its writes
	stackprog_capture typemask 1000 -p '%proc.name %evt.dir %evt.type %fd.num' \
		'proc.name=stackprog and evt.type=write'
	n=$(grep -c "^stackprog [<>] write 1$" "$OUT/typemask.txt")
	other=$(grep -vc "^stackprog [<>] write [0-9]*$" "$OUT/typemask.txt")
	check kmod_type_mask $([ "$n" = 10 ] && [ "$other" = 0 ] && echo 0 || echo 1)
	# --stacks through the module: stackprog (main -> marker_caller ->
	# marker_func_write -> write(1)) is named in each write's stack.  Alive
	# for 3 s: its stacks are symbolised from its /proc maps, read when the
	# consumer gets to them (behind the module's switch events under TCG)
	stackprog_capture stacks 3000 --stacks -p '%proc.name %evt.dir %evt.type %fd.num %evt.stack' \
		'proc.name=stackprog'
	# the C library's write, named from its symbols, its caller found by
	# the C library's CFI (the frame pointer chain skips it), the binary's
	# frames: as on the host (test/live/stacks_test.sh)
	n=$(grep -cE '^stackprog [<>] write 1 __write\+0x[0-9a-f]+ \(libc\.so\.6\) <- marker_func_write\+0x[0-9a-f]+ \(stackprog\) <- marker_caller\+0x[0-9a-f]+ \(stackprog\) <- main\+0x[0-9a-f]+ \(stackprog\)' "$OUT/stacks.txt")
	check kmod_stacks $([ "$n" = 10 ] && echo 0 || echo 1)
fi

# sysdig tracers through the module, -T: a 300-byte tracer pair written to
# /dev/null comes whole (SCAP_TRACER_SNAPLEN, not the 80-byte snaplen), as
# two tracer events with their 290-byte tags
if [ -x /usr/bin/sysdig-c ] && [ -x /usr/bin/tracer_writer ]; then
	$T /usr/bin/sysdig-c --kmod -T -w "$OUT/tracers.scap" 'proc.name=tracer_writer' \
		>"$OUT/tracers.err" 2>&1 &
	SD=$!
	wait_attached
	/usr/bin/tracer_writer long
	sleep 2
	kill -INT $SD
	wait $SD
	n=$(/usr/bin/sysdig-c -r "$OUT/tracers.scap" -p '%span.tags %span.args' 'evt.type=tracer' |
		awk 'length($1) == 290 && $2 == "k=v"' | wc -l)
	check kmod_tracers $([ "$n" = 2 ] && echo 0 || echo 1)
	# without -T: the 300-byte pair written before any tracer is cut at
	# the 80-byte snaplen; the short job.step tracer is recognised, sysdig
	# tells the module (KMOD_IOC_SET_TRACERS) and the pair written a second
	# later comes whole.  The host checks tracers_auto.scap
	$T /usr/bin/sysdig-c --kmod -w "$OUT/tracers_auto.scap" 'proc.name=tracer_writer' \
		>"$OUT/tracers_auto.err" 2>&1 &
	SD=$!
	wait_attached
	TRACER_WRITER_NAP_MS=1000 /usr/bin/tracer_writer cut-first
	RC=$?
	sleep 2
	kill -INT $SD
	wait $SD
	SDRC=$?
	check kmod_tracers_auto $([ "$RC" = 0 ] && [ "$SDRC" = 0 ] && echo 0 || echo 1)
fi

# sysdig --kmod -- CMD: the process tree of CMD selected in the module.
# forker (P forks A and B, B forks C which runs true) under an unrelated
# storm: the file holds exactly the tree's 4 pids, the exit code is P's
if [ -x /usr/bin/sysdig-c ] && [ -x /usr/bin/forker ] && [ -x /usr/bin/storm ]; then
	(while :; do /usr/bin/storm getppid 5000 >/dev/null; done) &
	ST=$!
	rm -f /tmp/tree.pids
	$T /usr/bin/sysdig-c --kmod -w "$OUT/tree.scap" -- /usr/bin/forker /tmp/tree.pids 7 >"$OUT/tree.txt" 2>&1
	RC=$?
	kill $ST
	wait $ST 2>/dev/null
	cp /tmp/tree.pids "$OUT/tree.pids"
	want=$(awk '{ print $1 }' /tmp/tree.pids | sort -n | tr '\n' ' ')
	got=$(/usr/bin/sysdig-c -r "$OUT/tree.scap" -p '%proc.pid' | sort -un | tr '\n' ' ')
	echo "rc=$RC tree=$want file=$got" >>"$OUT/tree.txt"
	check kmod_trace_cmd $([ "$RC" = 7 ] && [ "$(wc -l </tmp/tree.pids)" = 4 ] &&
		[ "$got" = "$want" ] && echo 0 || echo 1)
fi

# proc.pid=P pushed down into the module: P's events are delivered, the
# events of a getppid storm of another process (40,000) are left out in
# the module (its statistics: unselected pids) and not seen by sysdig
if [ -x /usr/bin/sysdig-c ] && [ -x /usr/bin/storm ]; then
	rm -f /tmp/gate
	sh -c 'while [ ! -e /tmp/gate ]; do sleep 0.1; done; echo selected-marker >/tmp/sel.txt' &
	P=$!
	$T /usr/bin/sysdig-c --kmod -D -v -w "$OUT/pid.scap" "proc.pid=$P" >"$OUT/pid.txt" 2>&1 &
	SD=$!
	wait_attached
	/usr/bin/storm getppid 20000 >/dev/null
	touch /tmp/gate
	wait $P
	sleep 1
	kill -INT $SD
	wait $SD
	RC=$?
	unsel=$(sed -n 's/.* driver: [0-9]* events, [0-9]* suppressed by comm, \([0-9]*\) of unselected pids$/\1/p' "$OUT/pid.txt")
	seen=$(sed -n 's/^Driver Events:\([0-9]*\)/\1/p' "$OUT/pid.txt")
	others=$(/usr/bin/sysdig-c -r "$OUT/pid.scap" -p '%proc.pid' "proc.pid!=$P" | wc -l)
	mine=$(/usr/bin/sysdig-c -r "$OUT/pid.scap" -p '%evt.arg.data' \
		"proc.pid=$P and evt.type=write and evt.dir=<" | grep -c selected-marker)
	echo "rc=$RC pid=$P delivered=$seen unselected=$unsel others=$others marker_writes=$mine" >>"$OUT/pid.txt"
	check kmod_pid_pushdown $([ "$RC" = 0 ] && [ -n "$unsel" ] && [ "$unsel" -ge 40000 ] &&
		[ -n "$seen" ] && [ "$seen" -lt 40000 ] && [ "$others" = 0 ] && [ "$mine" = 1 ] &&
		echo 0 || echo 1)
fi

# kmod_vs_bpf NAME FILTER SCRIPT: FILTER pushed down into the module
# (our sysdig --kmod -v -w NAME.scap) while the same run is recorded by the
# eBPF driver without the pushdown (SYSDIG_NO_PUSHDOWN=1, NAME_all.scap,
# `-- sh -c SCRIPT` selects its tree), then a getppid storm (40,000
# events) the module leaves out; the host compares the two files
kmod_vs_bpf() {
	name=$1
	flt=$2
	$T /usr/bin/sysdig-c --kmod -v -w "$OUT/$name.scap" "$flt" >"$OUT/$name.txt" 2>&1 &
	SD=$!
	wait_attached
	SYSDIG_NO_PUSHDOWN=1 $T /usr/bin/sysdig-c -B -v -w "$OUT/${name}_all.scap" "$flt" \
		-- sh -c "$3" >"$OUT/${name}_all.txt" 2>&1
	RC=$?
	/usr/bin/storm getppid 20000 >/dev/null
	sleep 1
	kill -INT $SD
	wait $SD
	echo "rc=$? all_rc=$RC" >>"$OUT/$name.txt"
	check "$name" $(grep -q "^rc=0 all_rc=0$" "$OUT/$name.txt" && echo 0 || echo 1)
}
if [ -x /usr/bin/sysdig-c ] && [ -x /usr/bin/storm ] && [ -x /usr/bin/stackprog ]; then
	# proc.name in (sdla, sdlb): two copies of stackprog named so
	cp /usr/bin/stackprog /tmp/sdla && cp /usr/bin/stackprog /tmp/sdlb
	kmod_vs_bpf kmod_comm_list 'proc.name in (sdla, sdlb)' \
		'for b in /tmp/sdla /tmp/sdlb; do STACKPROG_PAUSE_MS=0 $b 3 >/dev/null 2>&1 || exit 1; done'
	# container.id in (A, B): cgroup v2 directories named like a docker
	# scope (A, made before the capture), a containerd scope (B, made
	# during it: the module's cgroup_mkdir probe) and a child of A's made
	# during it hold a stackprog each; a container C not asked for does not
	# (the pids controller on: the cgroups of execve's events name them)
	mkdir -p /sys/fs/cgroup && mount -t cgroup2 cgroup2 /sys/fs/cgroup
	S=/sys/fs/cgroup/sdtest.slice
	A=$(printf 'a%.0s' $(seq 64)) B=$(printf 'b%.0s' $(seq 64)) C=$(printf 'c%.0s' $(seq 64))
	mkdir "$S" && echo +pids >/sys/fs/cgroup/cgroup.subtree_control &&
		echo +pids >"$S/cgroup.subtree_control" &&
		mkdir "$S/docker-$A.scope" "$S/docker-$C.scope" || echo "cgroups: setup failed"
	cat >/tmp/cg_run.sh <<-EOS
		mkdir "$S/cri-containerd-$B.scope" "$S/docker-$A.scope/inner" || exit 1
		for cg in docker-$A.scope cri-containerd-$B.scope docker-$A.scope/inner docker-$C.scope; do
			sh -c "echo \\\$\\\$ >$S/\$cg/cgroup.procs && STACKPROG_PAUSE_MS=0 exec /usr/bin/stackprog 3 >/dev/null 2>&1" || exit 1
		done
	EOS
	kmod_vs_bpf kmod_container_pushdown "container.id in ($(echo $A | cut -c1-12), $(echo $B | cut -c1-12))" \
		'/bin/sh /tmp/cg_run.sh'
fi

# two readers: the second one must fail with a clear "busy" error
$T /usr/bin/kmod_capture /tmp/r1.scap -- /bin/sleep 3 >/tmp/r1.txt 2>&1 &
R1=$!
sleep 1
$T /usr/bin/kmod_capture /tmp/r2.scap -- /bin/true >"$OUT/reader2.txt" 2>&1
RC=$?
check second_reader_busy $([ $RC -ne 0 ] && grep -q busy "$OUT/reader2.txt" && echo 0 || echo 1)
# unloading while the first reader is open must be refused
rmmod sysdigc 2>"$OUT/rmmod_busy.txt"
check rmmod_while_open_fails $([ $? -ne 0 ] && grep -q "^sysdigc " /proc/modules && echo 0 || echo 1)
wait $R1
check first_reader_ok $?
cat /tmp/r1.txt >"$OUT/reader1.txt"

rmmod sysdigc
check rmmod $?
# the eBPF driver in the same guest, when our sysdig has it
if [ -x /usr/bin/sysdig-c ]; then
	export SYSDIG_BPF_DEBUG=1
	sysdig_capture bpf -B
	echo "$?" >"$OUT/bpf.rc"
fi
ls /dev/sysdigc0 >/dev/null 2>&1
check no_device_after_unload $([ $? -ne 0 ] && echo 0 || echo 1)
$T /usr/bin/kmod_capture /tmp/r3.scap -- /bin/true >"$OUT/reader_unloaded.txt" 2>&1
check open_without_module_fails $([ $? -ne 0 ] && grep -q "module loaded" "$OUT/reader_unloaded.txt" && echo 0 || echo 1)
# load again and capture once more: the module must be reusable.  A 16 KiB
# ring and a dd storm make it wrap and overflow: the capture must stay
# well-formed and account for its drops (the host checks again.scap)
insmod /mods/sysdigc.ko ring_kb=16 &&
	$T /usr/bin/kmod_capture "$OUT/again.scap" -- /bin/dd if=/dev/zero of=/dev/null bs=1 count=20000 >"$OUT/again.txt" 2>&1
check reload_and_capture $?
rmmod sysdigc
check rmmod_again $?

# throughput of each driver on this kernel: a dd storm (one-byte reads and
# writes) captured by our sysdig into tmpfs; the host counts dd's events in
# storm_<driver>.scap and divides by dd's own time (/proc/uptime, 10 ms)
up_cs() { tr -d . </proc/uptime | cut -d' ' -f1; }
storm() {
	name=$1
	shift
	$T /usr/bin/sysdig-c "$@" -v -w "/tmp/storm_$name.scap" proc.name=dd >"$OUT/storm_$name.txt" 2>&1 &
	SD=$!
	wait_attached
	t0=$(up_cs)
	/bin/dd if=/dev/zero of=/dev/null bs=1 count=30000 2>/dev/null
	t1=$(up_cs)
	sleep 1
	kill -INT $SD
	wait $SD
	echo "rc=$? cs=$((t1 - t0))" >>"$OUT/storm_$name.txt"
	mv "/tmp/storm_$name.scap" "$OUT/" 2>/dev/null
}
if [ -x /usr/bin/sysdig-c ]; then
	insmod /mods/sysdigc.ko && storm kmod --kmod
	rmmod sysdigc
	storm bpf -B
fi

# a module built from other event tables: our sysdig refuses it, one line, exit 1
if [ -x /usr/bin/sysdig-c ] && [ -e /mods/sysdigc-other.ko ]; then
	insmod /mods/sysdigc-other.ko
	$T /usr/bin/sysdig-c --kmod -n 1 >/tmp/other.out 2>"$OUT/other_tables.txt"
	RC=$?
	check other_tables_refused $([ $RC -eq 1 ] && [ ! -s /tmp/other.out ] &&
		[ "$(wc -l <"$OUT/other_tables.txt")" -eq 1 ] &&
		grep -q "module was built from other event tables" "$OUT/other_tables.txt" && echo 0 || echo 1)
	rmmod sysdigc
fi
