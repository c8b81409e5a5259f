#!/bin/bash
# install_test.sh - "cmake --install" into a DESTDIR, then the installed
# programs run with the source and build trees hidden (a private mount
# namespace mounts empty directories over them): on a trace file, with a
# chisel found where the program is installed, through the installed
# libraries (pkg-config, count_matches.c) and live with the eBPF driver
# (root + BTF). Outputs must equal those of the build tree's sysdig.
# Exit 0 pass, 1 fail, 77 skip (no mount namespace).
# usage: install_test.sh SRC BUILD
set -u
SRC=$(cd "$1" && pwd)
BUILD=$(cd "$2" && pwd)
SYSDIG=$BUILD/userspace/sysdig/sysdig
W=$(mktemp -d /tmp/sysdigc-install.XXXXXX)
trap 'rm -rf "$W"' EXIT
FAILS=0
fail() { echo "FAIL: $*"; FAILS=$((FAILS + 1)); }
pass() { echo "ok: $*"; }
unshare -m true 2>/dev/null || { echo "SKIP: cannot make a mount namespace (unshare -m, root)"; exit 77; }

DESTDIR=$W/root cmake --install "$BUILD" --prefix /usr >"$W/install.log" 2>&1 ||
	{ cat "$W/install.log"; echo "FAIL: cmake --install"; exit 1; }
P=$W/root/usr
VER=$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$BUILD/CMakeCache.txt")
SD=$P/bin/sysdig-c
CS=""
grep -q "/bin/csysdig-c$" "$W/install.log" && CS="bin/csysdig-c share/man/man8/csysdig-c.8.gz"
for f in bin/sysdig-c $CS share/sysdig-c/chisels/topprocs_net.lua share/man/man8/sysdig-c.8.gz \
	share/bash-completion/completions/sysdig-c \
	share/zsh/vendor-completions/_sysdig-c include/sysdig-c/sinsp.h include/sysdig-c/scap.h \
	include/sysdig-c/event_ids.h lib/pkgconfig/sysdigc-sinsp.pc lib/libsysdigc-sinsp.so.0 \
	src/sysdigc-$VER/dkms.conf src/sysdigc-$VER/gen/fill_table.h src/sysdigc-$VER/main.c; do
	[ -e "$P/$f" ] && pass "installed /usr/$f" || fail "missing /usr/$f"
done
grep -q "^PACKAGE_VERSION=\"$VER\"$" "$P/src/sysdigc-$VER/dkms.conf" &&
	pass "dkms.conf carries version $VER" || fail "dkms.conf version: $(grep VERSION "$P/src/sysdigc-$VER/dkms.conf")"
cmp -s "$P/src/sysdigc-$VER/gen/event_ids.h" "$BUILD/gen/event_ids.h" &&
	pass "DKMS tree's event_ids.h is the one userspace was built with" || fail "DKMS gen/event_ids.h differs from the build's"
# no path of the source or build tree in the program's data (debug info
# aside; sanitizer builds keep source file names for their reports, so there
# only the chisel directories are looked for)
objcopy -O binary --only-section=.rodata "$SD" "$W/rodata"
if grep -q '^CMAKE_BUILD_TYPE:STRING=Asan$' "$BUILD/CMakeCache.txt"; then
	set -- -e "$SRC/chisels" -e "$BUILD/userspace/share"
else
	set -- -e "$SRC" -e "$BUILD"
fi
if grep -qaF "$@" "$W/rodata"; then fail "a source/build path is compiled into sysdig-c"
else pass "no source or build path in sysdig-c's .rodata"; fi

# expected outputs, from the build tree
cp "$SRC/test/traces/cat_write.scap" "$SRC/test/traces/ref029_net_small.scap" "$W/"
FMT='%evt.num %proc.name %evt.type %fd.name'
FLT='evt.dir=< and not evt.type in (procinfo, switch)'
run_all() {	# run_all SYSDIG OUTDIR : the commands compared
	mkdir -p "$2"
	(cd / && "$1" -cl) >"$2/cl.txt" 2>&1
	(cd / && "$1" -r "$W/cat_write.scap") >"$2/plain.txt" 2>&1
	(cd / && "$1" -r "$W/ref029_net_small.scap" -c topfiles_bytes) >"$2/chisel.txt" 2>&1
	(cd / && "$1" -r "$W/cat_write.scap" -c echo_fds) >"$2/chisel2.txt" 2>&1
	(cd / && "$1" -r "$W/ref029_net_small.scap" -p "$FMT" "$FLT") >"$2/filter.txt" 2>&1
}
run_all "$SYSDIG" "$W/want"

# a program built against the installed libraries
CM=$W/count_matches
SAN=""	# the ASan build's libraries need the sanitizer runtime
grep -q '^CMAKE_BUILD_TYPE:STRING=Asan$' "$BUILD/CMakeCache.txt" && SAN="-fsanitize=address,undefined"
# shellcheck disable=SC2046
if cc $SAN -Wall -Wextra -Werror -o "$CM" "$SRC/test/install/count_matches.c" \
	$(PKG_CONFIG_LIBDIR=$P/lib/pkgconfig pkg-config --cflags --libs sysdigc-sinsp) 2>"$W/cc.log"; then
	pass "count_matches builds with pkg-config sysdigc-sinsp from the DESTDIR"
else
	cat "$W/cc.log"; fail "count_matches does not build against the installed libraries"
fi

# the installed programs, with the trees hidden
cat >"$W/inner.sh" <<INNER
mount -t tmpfs none "$BUILD" && mount -t tmpfs none "$SRC" 2>/dev/null
[ -e "$SRC/chisels" ] || [ -e "$BUILD/userspace" ] && { echo "trees still visible"; exit 1; }
echo hidden >"$W/hidden"
W=$W P=$P FMT='$FMT' FLT='$FLT'
$(declare -f run_all)
run_all "$SD" "$W/got"
LD_LIBRARY_PATH=$P/lib "$CM" "$W/ref029_net_small.scap" "$FMT" "$FLT" >"$W/got/libs.txt" 2>&1
if [ "\$(id -u)" = 0 ] && [ -e /sys/kernel/btf/vmlinux ]; then
	: >"$W/marker"
	timeout 60 "$SD" --bpf -n 5 -p '%proc.name %evt.type %fd.name' \
		"evt.type in (open, openat) and evt.dir=< and fd.name=$W/marker" >"$W/got/live.txt" 2>&1 &
	pid=\$!
	i=0
	while kill -0 \$pid 2>/dev/null && [ \$i -lt 250 ]; do cat "$W/marker"; sleep 0.2; i=\$((i + 1)); done
	wait \$pid
	echo \$? >"$W/got/live.rc"
fi
INNER
unshare -m --propagation private sh "$W/inner.sh" || fail "hidden run: $(cat "$W/got/"*.txt 2>/dev/null | head -3)"
[ -e "$W/hidden" ] && pass "source and build trees hidden from the installed programs"
for t in cl plain chisel chisel2 filter; do
	if [ -s "$W/want/$t.txt" ] && cmp -s "$W/want/$t.txt" "$W/got/$t.txt"; then
		pass "installed sysdig-c: $t output equals the build tree's ($(wc -l <"$W/want/$t.txt") lines)"
	else
		fail "installed sysdig-c: $t output differs"; diff "$W/want/$t.txt" "$W/got/$t.txt" | head -5
	fi
done
grep -q '^topprocs_net ' "$W/got/cl.txt" && pass "installed chisels listed" || fail "no chisel listed"
if cmp -s "$W/want/filter.txt" "$W/got/libs.txt"; then
	pass "installed libraries: count_matches equals sysdig -p/filter ($(wc -l <"$W/got/libs.txt") events)"
else
	fail "installed libraries: count_matches differs"; diff "$W/want/filter.txt" "$W/got/libs.txt" | head -5
fi
if [ -e "$W/got/live.rc" ]; then
	# five opens: the first may come from a cat forked before the capture
	# started (its exec unseen, still named sh); the later ones are named cat
	if [ "$(cat "$W/got/live.rc")" = 0 ] && grep -qx "cat openat $W/marker" "$W/got/live.txt"; then
		pass "installed sysdig-c captures live (eBPF): $(grep -cx "cat openat $W/marker" "$W/got/live.txt") x 'cat openat marker' of 5 $(grep -nvx "cat openat $W/marker" "$W/got/live.txt" | tr '\n' ' ')"
	else
		fail "live capture by the installed sysdig-c: rc $(cat "$W/got/live.rc"): $(head -3 "$W/got/live.txt")"
	fi
else
	echo "note: live part not run (needs root and /sys/kernel/btf/vmlinux)"
fi
[ $FAILS -eq 0 ] && echo "install test: all passed" && exit 0
echo "install test: $FAILS failed"
exit 1
