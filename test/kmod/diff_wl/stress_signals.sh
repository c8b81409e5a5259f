# stress-ng, signals class
cd /tmp/wl && exec /usr/bin/stress-ng --kill 1 --kill-ops 40 -t 10 --temp-path /tmp/wl --metrics-brief
