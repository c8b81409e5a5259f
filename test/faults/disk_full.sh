#!/bin/bash
# disk_full.sh SYSDIG DATA: -w onto a full disk (a 1 MiB tmpfs) prints one
# error line, exits 1 and leaves whole blocks only: the file reads to its
# end without a "truncated" error (with our reader and the reference's);
# with -z (200 KiB) the events that made it read back, then "truncated".
. "$(dirname "$0")/lib.sh"
sysdig=$1 data=$2
[ "$(id -u)" = 0 ] || skip "needs root to mount a tmpfs"
mkdir "$TMP/mnt"
mount -t tmpfs -o size=1m tmpfs "$TMP/mnt" 2>/dev/null || skip "can't mount a tmpfs here"
trap 'umount "$TMP/mnt"; rm -rf "$TMP"' EXIT
t=$data/traces/ref029_light.scap
rm -f "$TMP/mnt/full.scap"
"$sysdig" -r "$t" -w "$TMP/mnt/full.scap" 2>"$TMP/err"
rc=$?
sed -i "s/.*\r//" "$TMP/err"	# the -P progress number before it
one_line_error $rc "$TMP/err" "No space left on device"
"$sysdig" -r "$TMP/mnt/full.scap" >"$TMP/out" 2>"$TMP/rerr" ||
	fail "the file does not read to its end: $(cat "$TMP/rerr")"
n=$(wc -l <"$TMP/out")
[ "$n" -gt 0 ] || fail "no events kept"
if [ -x /usr/bin/sysdig ]; then
	/usr/bin/sysdig -r "$TMP/mnt/full.scap" >/dev/null 2>"$TMP/rerr" ||
		fail "sysdig 0.29.3 does not read the file to its end: $(cat "$TMP/rerr")"
fi
echo "plain: one error line, exit 1, $(stat -c %s "$TMP/mnt/full.scap") bytes of whole blocks ($n events) read back"
# -z: a gzip stream cannot be cut at a block; the reader shows every event
# that made it and then says the file is truncated
rm -f "$TMP/mnt/full.scap"
mount -o remount,size=200k "$TMP/mnt" || fail "can't shrink the tmpfs"
"$sysdig" -r "$t" -z -w "$TMP/mnt/full.scap" 2>"$TMP/err"
rc=$?
sed -i "s/.*\r//" "$TMP/err"
one_line_error $rc "$TMP/err" "No space left on device"
"$sysdig" -r "$TMP/mnt/full.scap" >"$TMP/out" 2>"$TMP/rerr"
one_line_error $? "$TMP/rerr" "Is the file truncated?"
echo "-z: one error line, exit 1; read back: $(wc -l <"$TMP/out") events, then: $(cat "$TMP/rerr")"
