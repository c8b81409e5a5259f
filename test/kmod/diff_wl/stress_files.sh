# stress-ng, files class
cd /tmp/wl && exec /usr/bin/stress-ng --hdd 1 --hdd-ops 8 --hdd-bytes 1m -t 10 --temp-path /tmp/wl --metrics-brief
