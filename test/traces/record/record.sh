#!/bin/bash
# record.sh - records the ref_* traces of test/traces with the reference
# sysdig 0.29.3 and its scap.ko in a qemu (TCG) guest running Debian's 6.1
# kernel (../../../docs and ../../kmod/vm_lib.sh: the kmod_qemu recipe).
# Each trace is `sysdig -w` around one workload of wl.c; a workload given as
# "pre" sets up its threads/sockets before the capture starts (they are in
# the /proc snapshot) and continues once the capture runs.
# usage: test/traces/record/record.sh OUTDIR   (writes OUTDIR/ref_*.scap)
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${1:?usage: record.sh OUTDIR}
WORK=${VM_WORK:-/tmp/i15-record}
VM_LIB_DIR=$HERE/../../kmod
. "$VM_LIB_DIR/vm_lib.sh"
mkdir -p "$WORK" "$OUT"
# the 6.1 kernel the ref029 traces were recorded on (the newest 6.1 installed)
KVER=$(ls -1 /lib/modules | grep "^6\.1\." | sort -rV | head -1)
[ -n "$KVER" ] && [ -e "/boot/vmlinuz-$KVER" ] || { echo "no 6.1 guest kernel" >&2; exit 77; }
REF_KO=/var/lib/dkms/scap/0.1.1dev+git20220316.e5c53d64/$KVER/x86_64/module/scap.ko
if [ ! -e "$REF_KO" ]; then
	d=$WORK/dkms && rm -rf "$d" && mkdir -p "$d" && (cd "$d" && apt-get download falcosecurity-scap-dkms >/dev/null) &&
		dpkg-deb -x "$d"/falcosecurity-scap-dkms_*.deb "$d/x" &&
		cp -r "$d"/x/usr/src/scap-* "$d/src" &&
		nice -n 19 make -C "/lib/modules/$KVER/build" M="$d/src" -j2 modules >"$d/build.log" 2>&1 ||
		{ echo "scap.ko build failed" >&2; exit 1; }
	REF_KO=$d/src/scap.ko
fi
KERNEL=$(vm_kernel_image "$KVER" "$WORK")
ROOT=$WORK/root
vm_make_root "$ROOT" "$KVER" || exit 1
cp "$REF_KO" "$ROOT/mods/scap.ko"
vm_copy_bin "$ROOT" /usr/bin/sysdig /usr/bin/sysdig
gcc -static -O1 -pthread -o "$ROOT/bin/wl" "$HERE/wl.c" || exit 1
cat >"$ROOT/guest.sh" <<'G'
out=$1
insmod /mods/scap.ko || exit 1
# busybox applets: httpd + wget, nc listener + client, ping, a pipe
bb() {
	mkdir -p /tmp/www && echo hello >/tmp/www/index.html
	httpd -p 127.0.0.1:8081 -h /tmp/www
	wget -q -O /tmp/got http://127.0.0.1:8081/index.html
	wget -q -O /dev/null http://[::1]:8081/index.html
	nc -l -p 7070 >/tmp/nc.out &
	sleep 0.3
	echo hi | nc 127.0.0.1 7070
	ping -c 1 -W 1 127.0.0.1 >/dev/null
	ping6 -c 1 -W 1 ::1 >/dev/null
	cat /etc/passwd | grep root >/tmp/g
	killall httpd
}
# rec NAME PRE WORKLOAD... : capture NAME.scap around the workloads
rec() {
	name=$1 pre=$2; shift 2
	rm -f /tmp/go
	wpids=
	if [ "$pre" = pre ]; then
		for w in "$@"; do
			/bin/wl "$w" pre /tmp/go &
			wpids="$wpids $!"
		done
		sleep 0.5
	fi
	echo "recording $name" >/dev/console
	sysdig -w "$out/$name.scap" 2>"$out/$name.err" &
	spid=$!
	# capturing once it holds the driver's device open (its output is buffered)
	i=0
	while [ $i -lt 300 ] && ! ls -l /proc/$spid/fd 2>/dev/null | grep -q scap0; do
		sleep 0.1; i=$((i + 1))
	done
	sleep 1
	if [ "$pre" = pre ]; then
		touch /tmp/go
		wait $wpids
	else
		for w in "$@"; do
			case $w in bb) bb ;; *) /bin/wl "$w" ;; esac
		done
	fi
	sleep 0.3
	kill -INT $spid
	wait $spid
	ls -l "$out/$name.scap"
}
rec ref_net4 no tcp4 udp4
rec ref_net6 no tcp6 udp6
rec ref_failconn no failconn
rec ref_presock pre presock
rec ref_threads pre threads
rec ref_pidns no pidns
rec ref_busybox no bb
G
VM_TIMEOUT=900 vm_boot "$ROOT" "$KERNEL" "$WORK" "" 1 || exit 1
cat "$WORK/result/guest.log"
cp "$WORK"/result/ref_*.scap "$OUT/"
