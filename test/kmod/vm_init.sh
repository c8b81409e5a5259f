#!/bin/busybox sh
# vm_init.sh - /init of the kmod test guest: mount the basics, load the virtio
# disk chain, run /guest.sh (test or benchmark script) with /out as $1, then
# write /out as a tar archive onto /dev/vda for the host and power off.
/bin/busybox --install -s
export PATH=/bin:/sbin:/usr/bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
mount -t tmpfs tmp /tmp
mount -t tmpfs -o size=700m out /out
mkdir -p /sys/kernel/debug && mount -t debugfs debug /sys/kernel/debug
for m in $(cat /mods/list); do insmod "/mods/$m"; done
ifconfig lo 127.0.0.1 up
i=0
while [ ! -b /dev/vda ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
/bin/sh /guest.sh /out >/out/guest.log 2>&1
echo $? >/out/guest.rc
dmesg >/out/dmesg.txt
touch /out/done
if [ -b /dev/vda ]; then
	cd /out && tar -cf /dev/vda . && sync
else
	echo "KMOD-VM: no /dev/vda, results lost"
fi
poweroff -f
