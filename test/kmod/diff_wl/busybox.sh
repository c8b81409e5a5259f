# busybox applets (the host's dynamic busybox)
B=/usr/bin/busybox
$B seq 1 300 >/tmp/wl/bb.txt
$B sort -r /tmp/wl/bb.txt | $B head -5
$B wc -l /tmp/wl/bb.txt
$B sed -n '/9$/p' /tmp/wl/bb.txt | $B md5sum
$B find /tmp/wl -name '*.sh' | $B sort
$B cp /tmp/wl/bb.txt /tmp/wl/bb2.txt && $B rm /tmp/wl/bb2.txt
$B ls -la /tmp/wl >/dev/null
