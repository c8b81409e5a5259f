#!/bin/sh
# diff_guest.sh - runs inside the qemu guest of the differential rig
# (run_diff_vm.sh) as /guest.sh; $1 = output dir.
# Loads the reference's scap.ko and our sysdigc.ko together, starts the
# reference sysdig 0.29.3 (-w ref.scap) and ours (--kmod -w ours.scap, and
# a third capture with our eBPF driver when DIFF_BPF=1) on the same system, waits
# until every capture holds its device, then runs the workload list once:
# the host's own binaries, seen through a read-only 9p mount of the host's /
# (chroot /h).  Each workload step runs as its own child of the runner;
# steps.txt maps step names to their pids for the host's comparison.
OUT=$1
say() { echo "DIFF-VM: $*" >/dev/console; }
T="timeout -s INT 900"
STEPS=$(sed -n 's/.*diff_steps=\([^ ]*\).*/\1/p' /proc/cmdline | tr , ' ')
DIFF_BPF=$(sed -n 's/.*diff_bpf=\([01]\).*/\1/p' /proc/cmdline)

# the host's / read-only, with the guest's own /proc, /dev, /sys and a /tmp
mkdir -p /h
mount -t 9p -o trans=virtio,version=9p2000.L,ro,msize=512000,cache=loose host /h ||
	{ say "no 9p mount of the host"; exit 1; }
mount -t proc proc /h/proc && mount -t devtmpfs dev /h/dev && mount -t sysfs sys /h/sys &&
	mount -t tmpfs tmp /h/tmp && mount -t tmpfs run /h/run || { say "mounts in /h failed"; exit 1; }
mkdir -p /h/tmp/wl && cp -r /wl/. /h/tmp/wl/

insmod /mods/scap.ko || { say "insmod scap.ko failed"; exit 1; }
insmod /mods/sysdigc.ko || { say "insmod sysdigc.ko failed"; exit 1; }
lsmod >"$OUT/lsmod.txt"

# every capture's device (or bpf link) is open, then the /proc scans end
attached() {
	i=0
	while [ $i -lt 600 ]; do
		fds=$(ls -l /proc/[0-9]*/fd 2>/dev/null)
		n=0
		echo "$fds" | grep -q "/dev/scap0" && n=$((n + 1))
		echo "$fds" | grep -q "/dev/sysdigc0" && n=$((n + 1))
		[ "$DIFF_BPF" = 1 ] && echo "$fds" | grep -q "bpf_link" && n=$((n + 1))
		[ $n -ge "$1" ] && break
		sleep 0.2
		i=$((i + 1))
	done
	sleep 2
}
$T /usr/bin/sysdig -v -w "$OUT/ref.scap" >"$OUT/ref.txt" 2>&1 &
REF=$!
$T /usr/bin/sysdig-c --kmod -v -w "$OUT/ours.scap" >"$OUT/ours.txt" 2>&1 &
OURS=$!
NEED=2
if [ "$DIFF_BPF" = 1 ]; then
	$T /usr/bin/sysdig-c -B -v -w "$OUT/bpf.scap" >"$OUT/bpf.txt" 2>&1 &
	BPF=$!
	NEED=3
fi
attached $NEED
say "captures attached"

# the runner: one child per step, its pid recorded first
cat >/h/tmp/wl/runner.sh <<'EOF'
cd /tmp/wl
for s in $STEPS; do
	/bin/sh "/tmp/wl/$s.sh" >"/tmp/wl/$s.log" 2>&1 &
	echo "$s $! " >>/tmp/wl/steps.txt
	wait $!
	echo "$s rc=$?" >>/tmp/wl/rc.txt
done
EOF
t0=$(cut -d' ' -f1 /proc/uptime)
STEPS=$STEPS chroot /h /usr/bin/env -i PATH=/usr/bin:/usr/sbin HOME=/tmp/wl LANG=C STEPS="$STEPS" \
	/bin/sh /tmp/wl/runner.sh
t1=$(cut -d' ' -f1 /proc/uptime)
say "workload done in $t0..$t1 s"
sleep 2
kill -INT $REF $OURS ${BPF:-} 2>/dev/null
wait $REF
echo "rc=$?" >>"$OUT/ref.txt"
wait $OURS
echo "rc=$?" >>"$OUT/ours.txt"
if [ -n "${BPF:-}" ]; then
	wait $BPF
	echo "rc=$?" >>"$OUT/bpf.txt"
fi
cp /h/tmp/wl/steps.txt /h/tmp/wl/rc.txt "$OUT/"
for s in $STEPS; do cp "/h/tmp/wl/$s.log" "$OUT/step_$s.log"; done
rmmod sysdigc
rmmod scap
echo "uptime $t0 $t1" >"$OUT/times.txt"
