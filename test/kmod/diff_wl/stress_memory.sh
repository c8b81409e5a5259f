# stress-ng, memory class
cd /tmp/wl && exec /usr/bin/stress-ng --vm 1 --vm-ops 4 --vm-bytes 4m --mmap 1 --mmap-ops 4 --mmap-bytes 1m -t 10 --temp-path /tmp/wl --metrics-brief
