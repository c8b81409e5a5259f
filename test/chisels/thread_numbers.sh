#!/bin/sh
# thread_numbers.sh SYSDIG TESTDIR - the numbers of sysdig.get_thread_table()
# (lua/thread_numbers.lua) on every trace, ours against the reference
# sysdig 0.29.3: tid, pid, ptid, flags, fdlimit, uid, gid, nchilds, vm and
# page fault counters as the reference gives them (uint32: -1 is 4294967295).
ours=$1 dir=$2 ref=/usr/bin/sysdig fail=0 n=0
[ -x "$ref" ] || { echo "SKIPPED: $ref missing"; exit 77; }
export SYSDIG_CHISEL_DIR="$(dirname "$0")/lua" TZ=UTC
for t in "$dir"/traces/*.scap; do
	a=$("$ref" -r "$t" -c thread_numbers 2>&1)
	b=$("$ours" -r "$t" -c thread_numbers 2>&1)
	n=$((n + 1))
	if [ "$a" != "$b" ]; then
		echo "FAIL $(basename "$t"):"
		printf '%s\n' "$a" >/tmp/thread_numbers.$$.ref
		printf '%s\n' "$b" | diff /tmp/thread_numbers.$$.ref - | head -5
		rm -f /tmp/thread_numbers.$$.ref
		fail=$((fail + 1))
	fi
done
echo "thread table numbers: $((n - fail))/$n traces as the reference"
[ "$fail" -eq 0 ]
