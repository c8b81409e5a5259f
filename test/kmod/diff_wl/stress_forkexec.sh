# stress-ng, forkexec class
cd /tmp/wl && exec /usr/bin/stress-ng --fork 1 --fork-ops 10 --exec 1 --exec-ops 5 -t 10 --temp-path /tmp/wl --metrics-brief
