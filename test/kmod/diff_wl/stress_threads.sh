# stress-ng, threads class
cd /tmp/wl && exec /usr/bin/stress-ng --pthread 1 --pthread-ops 16 --pthread-max 4 -t 10 --temp-path /tmp/wl --metrics-brief
