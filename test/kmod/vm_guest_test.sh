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
	# the test binary's own frames, named from its symbols (in this guest
	# the C library's frames, and with them the CFI repair of the first
	# frame, are not symbolised: an open gap, see the closing note)
	n=$(grep -c "^stackprog [<>] write 1 .* <- marker_caller+0x[0-9a-f]* (stackprog) <- main+0x[0-9a-f]* (stackprog)" "$OUT/stacks.txt")
	check kmod_stacks $([ "$n" = 10 ] && echo 0 || echo 1)
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
