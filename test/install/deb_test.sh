#!/bin/bash
# deb_test.sh - the Debian packages (ctest label kmod): "cpack -G DEB" builds
# sysdig-c, sysdig-c-dev and sysdigc-dkms; dpkg -i installs them on this
# machine next to Debian's sysdig (which stays /usr/bin/sysdig); the DKMS
# postinst builds the module for the qemu rig's kernel (Debian 6.1 headers,
# "dkms status"); the packaged sysdigc.ko loads in the qemu VM and the
# packaged sysdig-c captures with it there; dpkg -r removes every file,
# the DKMS registration and the built modules.
# Exit 0 pass, 1 fail, 77 skip (not root, no dpkg/dkms/qemu/kernel headers).
# usage: deb_test.sh SRC BUILD WORK
set -u
SRC=$(cd "$1" && pwd)
BUILD=$(cd "$2" && pwd)
WORK=$3
PKGS="sysdig-c sysdig-c-dev sysdigc-dkms"
FAILS=0
fail() { echo "FAIL: $*"; FAILS=$((FAILS + 1)); }
pass() { echo "ok: $*"; }
skip() { echo "SKIP: $*"; exit 77; }
[ "$(id -u)" = 0 ] || skip "needs root (dpkg -i)"
for t in dpkg dkms cpack; do command -v $t >/dev/null || skip "$t missing"; done
VM_LIB_DIR=$SRC/test/kmod
. "$VM_LIB_DIR/vm_lib.sh"
command -v qemu-system-x86_64 >/dev/null || skip "qemu-system-x86_64 missing"
KVER=$(vm_pick_kernel) || skip "no kernel with image and headers installed (linux-image-amd64, linux-headers-amd64)"
VER=$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$BUILD/CMakeCache.txt")
# dpkg, waiting (up to 5 min) while another apt-get/dpkg holds the lock
dpkg_wait() {
	local i log=$WORK/dpkg.$$.log
	for i in $(seq 60); do
		dpkg "$@" >"$log" 2>&1 && { cat "$log"; return 0; }
		grep -q "lock" "$log" || { cat "$log"; return 1; }
		sleep 5
	done
	cat "$log"
	return 1
}
installed() { [ "$(dpkg-query -W -f='${db:Status-Status}' "$1" 2>/dev/null)" = installed ]; }
remove_ours() {
	local p l=""
	for p in $PKGS; do installed "$p" && l="$l $p"; done
	[ -z "$l" ] || dpkg_wait -r $l >"$WORK/dpkg-r.log" 2>&1
}
rm -rf "$WORK" && mkdir -p "$WORK"
remove_ours	# a previous, interrupted run
trap 'remove_ours' EXIT

# 1. the packages
(cd "$WORK" && cpack --config "$BUILD/CPackConfig.cmake" -G DEB -B "$WORK/pkgs") >"$WORK/cpack.log" 2>&1 ||
	{ tail -20 "$WORK/cpack.log"; echo "FAIL: cpack"; exit 1; }
DEBS=$(ls "$WORK"/pkgs/*.deb)
echo "packages: $(cd "$WORK/pkgs" && ls ./*.deb | tr '\n' ' ')"
for p in $PKGS; do
	ls "$WORK"/pkgs/"${p}"_"$VER"_*.deb >/dev/null 2>&1 && pass "built $p $VER" || fail "no $p package"
done
RT=$(ls "$WORK"/pkgs/sysdig-c_"$VER"_*.deb)
dpkg-deb -f "$RT" Depends | grep -q "libluajit" && pass "sysdig-c depends on: $(dpkg-deb -f "$RT" Depends)" ||
	fail "sysdig-c Depends lacks the shared libraries: $(dpkg-deb -f "$RT" Depends)"
dpkg-deb -f "$WORK"/pkgs/sysdigc-dkms_"$VER"_all.deb Depends | grep -q dkms && pass "sysdigc-dkms depends on dkms" ||
	fail "sysdigc-dkms does not depend on dkms"
if dpkg-deb -c "$RT" | awk '{print $6}' | grep -qx './usr/bin/sysdig'; then fail "sysdig-c ships /usr/bin/sysdig"
else pass "sysdig-c does not ship /usr/bin/sysdig"; fi

# 2. install next to the reference
REF_BEFORE=$(md5sum /usr/bin/sysdig 2>/dev/null)
# shellcheck disable=SC2086
dpkg_wait -i $DEBS >"$WORK/dpkg-i.log" 2>&1 || { cat "$WORK/dpkg-i.log"; fail "dpkg -i"; }
for p in $PKGS; do installed "$p" && pass "dpkg: $p installed" || fail "dpkg: $p not installed"; done
sed -n 's/^\(sysdigc-dkms: .*\)/  postinst: \1/p' "$WORK/dpkg-i.log"
[ "$(md5sum /usr/bin/sysdig 2>/dev/null)" = "$REF_BEFORE" ] && pass "/usr/bin/sysdig untouched (${REF_BEFORE:-absent})" ||
	fail "/usr/bin/sysdig changed"
T=$SRC/test/traces/cat_write.scap
if /usr/bin/sysdig-c -r "$T" | cmp -s - <("$BUILD/userspace/sysdig/sysdig" -r "$T"); then
	pass "/usr/bin/sysdig-c reads a trace as the build tree's sysdig"
else
	fail "/usr/bin/sysdig-c -r differs from the build tree's"
fi
/usr/bin/sysdig-c -cl 2>&1 | grep -q '^topprocs_net ' && pass "/usr/bin/sysdig-c finds /usr/share/sysdig-c/chisels" ||
	fail "/usr/bin/sysdig-c lists no chisels"
pkg-config --modversion sysdigc-sinsp 2>/dev/null | grep -qx "$VER" && pass "pkg-config sysdigc-sinsp $VER" ||
	fail "pkg-config sysdigc-sinsp"
ST=$(dkms status -m sysdigc -v "$VER" -k "$KVER" 2>&1)
echo "dkms status: $ST"
echo "$ST" | grep -q "sysdigc/$VER, $KVER, x86_64: installed" && pass "dkms built and installed sysdigc for $KVER" ||
	fail "dkms status for $KVER: $ST"
KO=$(find "/lib/modules/$KVER/updates" -name 'sysdigc.ko*' 2>/dev/null | head -1)
[ -n "$KO" ] && pass "module installed: $KO" || fail "no sysdigc.ko under /lib/modules/$KVER/updates"

# 3. the packaged module and program in the VM
if [ -n "$KO" ]; then
	ROOT=$WORK/root
	vm_make_root "$ROOT" "$KVER" || exit 1
	case $KO in
	*.xz) xz -dc "$KO" >"$ROOT/sysdigc.ko" ;;
	*.zst) zstd -qdc "$KO" >"$ROOT/sysdigc.ko" ;;
	*) cp "$KO" "$ROOT/sysdigc.ko" ;;
	esac
	vm_copy_bin "$ROOT" /usr/bin/sysdig-c /usr/bin/sysdig-c
	cat >"$ROOT/guest.sh" <<'GUEST'
OUT=$1
insmod /sysdigc.ko; echo "insmod $?" >"$OUT/checks"
ls -l /dev/sysdigc0 >"$OUT/devs" 2>&1
: >/tmp/marker
sysdig-c --kmod -n 1 -p '%evt.type %fd.name (%proc.name)' \
	'evt.type in (open, openat) and evt.dir=< and fd.name=/tmp/marker' >"$OUT/live.txt" 2>&1 &
pid=$!
i=0
while kill -0 $pid 2>/dev/null && [ $i -lt 600 ]; do cat /tmp/marker; sleep 0.2; i=$((i + 1)); done
wait $pid; echo "capture $?" >>"$OUT/checks"
rmmod sysdigc; echo "rmmod $?" >>"$OUT/checks"
GUEST
	KERNEL=$(vm_kernel_image "$KVER" "$WORK")
	T0=$(date +%s)
	if vm_boot "$ROOT" "$KERNEL" "$WORK" "pkgtest=1"; then
		R=$WORK/result
		echo "qemu $(($(date +%s) - T0)) s; guest: $(tr '\n' ' ' <"$R/checks")"
		for c in insmod capture rmmod; do
			grep -qx "$c 0" "$R/checks" && pass "guest: $c of the packaged module" || fail "guest: $c"
		done
		grep -q "^openat /tmp/marker (" "$R/live.txt" &&
			pass "guest: packaged sysdig-c --kmod captured: $(cat "$R/live.txt")" ||
			fail "guest: capture said: $(head -3 "$R/live.txt")"
		grep -E "BUG|Oops|WARNING" "$R/dmesg.txt" && fail "guest dmesg has a kernel warning"
	else
		fail "guest run"
	fi
fi

# 4. removal
# shellcheck disable=SC2086
dpkg_wait -r $PKGS >"$WORK/dpkg-r.log" 2>&1 || { cat "$WORK/dpkg-r.log"; fail "dpkg -r"; }
for p in $PKGS; do installed "$p" && fail "$p still installed"; done
left=""
for f in /usr/bin/sysdig-c /usr/share/sysdig-c /usr/share/man/man8/sysdig-c.8.gz /usr/include/sysdig-c \
	/usr/src/sysdigc-"$VER" /var/lib/dkms/sysdigc; do
	[ -e "$f" ] && left="$left $f"
done
left="$left $(find /lib/modules/*/updates -name 'sysdigc.ko*' 2>/dev/null | tr '\n' ' ')"
[ -z "${left// /}" ] && pass "dpkg -r removed every file, the DKMS registration and the built modules" ||
	fail "left after dpkg -r:$left"
dkms status -m sysdigc 2>/dev/null | grep -q . && fail "dkms still knows sysdigc: $(dkms status -m sysdigc)"
[ "$(md5sum /usr/bin/sysdig 2>/dev/null)" = "$REF_BEFORE" ] || fail "/usr/bin/sysdig changed by dpkg -r"
trap - EXIT
dpkg_wait --purge $PKGS >/dev/null 2>&1	# forget the removed packages
[ $FAILS -eq 0 ] && echo "deb test: all passed" && exit 0
echo "deb test: $FAILS failed"
exit 1
