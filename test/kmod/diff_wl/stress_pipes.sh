# stress-ng, pipes class
cd /tmp/wl && exec /usr/bin/stress-ng --pipe 1 --pipe-ops 200 -t 10 --temp-path /tmp/wl --metrics-brief
