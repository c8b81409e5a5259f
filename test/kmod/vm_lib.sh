#!/bin/bash
# vm_lib.sh - shared helpers of the qemu rig (run_vm_test.sh, scripts/bench/kmod-vm):
# install prerequisites, build the sysdigc module against Debian's headers,
# cut the PVH vmlinux, pack an initramfs and boot it (kmod_qemu.md recipe).
# Source it; every function reports problems on stderr and returns non-zero.

VM_SKIP=77

vm_log() { echo "[kmod-vm] $*" >&2; }

# installed kernels of a series: "6.1", "6.12" (Debian's generic flavour),
# "6.12-rt" (PREEMPT_RT), newest first
vm_series_kernels() {
	local series=${1%-rt} flavour=amd64
	case $1 in *-rt) flavour=rt-amd64 ;; esac
	ls -1 /lib/modules 2>/dev/null | sort -rV |
		grep -E "^${series//./\\.}\.[0-9.]+(-[0-9]+|\+deb[0-9]+)-$flavour\$"
}

# the guest kernel with image and headers: $VM_KVER when set, else the newest
# of the series $VM_SERIES when set, else the newest 6.1 (the reference's
# scap.ko builds only there), else the newest other one
vm_pick_kernel() {
	local k list
	if [ -n "${VM_KVER:-}" ]; then
		list=$VM_KVER
	elif [ -n "${VM_SERIES:-}" ]; then
		list=$(vm_series_kernels "$VM_SERIES")
	else
		list="$(vm_series_kernels 6.1) $(ls -1 /lib/modules 2>/dev/null | sort -rV)"
	fi
	for k in $list; do
		if [ -e "/boot/vmlinuz-$k" ] && [ -e "/lib/modules/$k/build/Makefile" ] &&
		   [ -e "/lib/modules/$k/modules.dep" ]; then
			echo "$k"
			return 0
		fi
	done
	return 1
}

# install qemu, kernel image+headers, busybox-static when missing (root only)
vm_install_deps() {
	local need=()
	command -v qemu-system-x86_64 >/dev/null || need+=(qemu-system-x86)
	[ -x /bin/busybox ] && file -L /bin/busybox 2>/dev/null | grep -q static || need+=(busybox-static)
	vm_pick_kernel >/dev/null || need+=(linux-image-amd64 linux-headers-amd64)
	command -v cpio >/dev/null || need+=(cpio)
	command -v modprobe >/dev/null || need+=(kmod)
	command -v xz >/dev/null || need+=(xz-utils)
	[ ${#need[@]} -eq 0 ] && return 0
	if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
		vm_log "missing ${need[*]} and cannot apt-get install them"
		return 1
	fi
	vm_log "installing ${need[*]}"
	DEBIAN_FRONTEND=noninteractive timeout 600 apt-get install -y --no-install-recommends \
		"${need[@]}" >"${VM_WORK:-/tmp}/apt.log" 2>&1 || {
		vm_log "apt-get install ${need[*]} failed (see ${VM_WORK:-/tmp}/apt.log)"
		return 1
	}
}

# vm_build_module SRC_ROOT KVER OUTDIR -> OUTDIR/sysdigc.ko (+ OUTDIR/src)
vm_build_module() {
	local src=$1 kver=$2 out=$3
	rm -rf "$out/src" && mkdir -p "$out/src"
	make -s -C "$src/driver/kmod" dkms-src DEST="$out/src" KVER="$kver" >"$out/gen.log" 2>&1 ||
		{ vm_log "module source generation failed:"; cat "$out/gen.log" >&2; return 1; }
	nice -n 19 make -C "$out/src" KVER="$kver" -j2 >"$out/build.log" 2>&1 ||
		{ vm_log "module build failed:"; tail -30 "$out/build.log" >&2; return 1; }
	if grep -E "warning:" "$out/build.log" >&2; then
		vm_log "module build has warnings"
		return 1
	fi
	cp "$out/src/sysdigc.ko" "$out/sysdigc.ko"
	modinfo -F vermagic "$out/sysdigc.ko" | grep -q "^$kver " ||
		{ vm_log "vermagic of sysdigc.ko does not match $kver"; return 1; }
}

# uncompressed vmlinux with a PVH note (faster TCG boot), else the bzImage
vm_kernel_image() {
	local kver=$1 out=$2 img=/boot/vmlinuz-$1 off
	if [ ! -s "$out/vmlinux-$kver" ]; then
		off=$(LC_ALL=C grep -abo $'\xfd7zXZ\x00' "$img" 2>/dev/null | head -1 | cut -d: -f1)
		if [ -n "$off" ]; then
			tail -c +$((off + 1)) "$img" | xz -dc >"$out/vmlinux-$kver.tmp" 2>/dev/null
			if readelf -n "$out/vmlinux-$kver.tmp" 2>/dev/null | grep -q "0x00000012"; then
				mv "$out/vmlinux-$kver.tmp" "$out/vmlinux-$kver"
			fi
			rm -f "$out/vmlinux-$kver.tmp"
		fi
	fi
	if [ -s "$out/vmlinux-$kver" ]; then echo "$out/vmlinux-$kver"; else echo "$img"; fi
}

# copy a dynamic binary and its ldd closure into ROOT
vm_copy_bin() {
	local root=$1 bin=$2 dest=${3:-$2} lib
	mkdir -p "$root/$(dirname "$dest")" "$root/lib/x86_64-linux-gnu" "$root/lib64"
	cp -L "$bin" "$root/$dest"
	for lib in $(ldd "$bin" 2>/dev/null | grep -o '/[^ ]*' | sort -u); do
		case $lib in
		*/ld-linux-x86-64.so.2) cp -L "$lib" "$root/lib64/ld-linux-x86-64.so.2" ;;
		*) cp -L "$lib" "$root/lib/x86_64-linux-gnu/" ;;
		esac
	done
}

# virtio block chain in load order for KVER (VM_9P=1: also 9p over virtio)
vm_virtio_modules() {
	local kver=$1 m f seen=" "
	for m in virtio_pci virtio_blk ${VM_9P:+9pnet_virtio 9p}; do
		for f in $(modprobe -S "$kver" --show-depends "$m" 2>/dev/null | awk '$1=="insmod"{print $2}'); do
			case $seen in *" $f "*) ;; *) seen="$seen$f "; echo "$f" ;; esac
		done
	done
}

# vm_make_root ROOT KVER : busybox, /etc files, virtio modules, /init
vm_make_root() {
	local root=$1 kver=$2 f
	rm -rf "$root" && mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,etc,proc,sys,dev,tmp,out,root,mods,lib64,lib/x86_64-linux-gnu}
	cp /bin/busybox "$root/bin/busybox"
	printf 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/:/bin/false\n' >"$root/etc/passwd"
	printf 'root:x:0:\nnogroup:x:65534:\n' >"$root/etc/group"
	: >"$root/mods/list"
	for f in $(vm_virtio_modules "$kver"); do
		cp "$f" "$root/mods/" && basename "$f" >>"$root/mods/list"
	done
	cp "$VM_LIB_DIR/vm_init.sh" "$root/init"
	chmod +x "$root/init"
}

# vm_boot ROOT KERNEL OUTDIR "cmdline words" [smp] : runs the guest, extracts OUTDIR
# (VM_QEMU_EXTRA: more qemu options, e.g. "-icount shift=0,sleep=off";
# VM_MEM: guest MiB, default 1024)
vm_boot() {
	local root=$1 kernel=$2 out=$3 words=$4 smp=${5:-1} cpio
	cpio=$out/initramfs.cpio
	(cd "$root" && find . | cpio -o -H newc --quiet) >"$cpio" || return 1
	rm -f "$out/disk.img" && truncate -s 1G "$out/disk.img"
	# shellcheck disable=SC2086
	timeout "${VM_TIMEOUT:-300}" qemu-system-x86_64 -accel tcg -cpu qemu64 -m "${VM_MEM:-1024}" -smp "$smp" \
		${VM_QEMU_EXTRA:-} \
		-kernel "$kernel" -initrd "$cpio" \
		-append "console=ttyS0 quiet panic=-1 $words" \
		-drive file="$out/disk.img",format=raw,if=virtio,cache=unsafe \
		-nic none -nographic -monitor none -serial stdio -no-reboot >"$out/console.log" 2>&1
	mkdir -p "$out/result" && (cd "$out/result" && tar -xf "$out/disk.img" 2>/dev/null)
	rm -f "$out/disk.img"
	[ -e "$out/result/done" ] || { vm_log "guest did not finish (see $out/console.log)"; tail -20 "$out/console.log" >&2; return 1; }
}
