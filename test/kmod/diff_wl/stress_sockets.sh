# stress-ng, sockets class
cd /tmp/wl && exec /usr/bin/stress-ng --sock 1 --sock-ops 20 -t 10 --temp-path /tmp/wl --metrics-brief
