#!/bin/sh
# thread_filter.sh SYSDIG TESTDIR - how sysdig.get_thread_table(FILTER) and
# its variants evaluate a filter per thread and per fd (lua/thread_filter.lua
# at the end of the capture), ours against the reference sysdig 0.29.3, for
# every filter of thread_filters.txt on every trace: stdout, stderr and exit
# status identical.
ours=$1 dir=$2 ref=/usr/bin/sysdig here=$(cd "$(dirname "$0")" && pwd) fail=0 n=0
[ -x "$ref" ] || { echo "SKIPPED: $ref missing"; exit 77; }
export SYSDIG_CHISEL_DIR="$here/lua" TZ=UTC
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
grep -v '^#' "$here/thread_filters.txt" > "$tmp/filters"
while IFS= read -r f; do
	[ -n "$f" ] || continue
	for t in "$dir"/traces/*.scap; do
		"$ref" -r "$t" -c thread_filter "$f" > "$tmp/ref" 2>&1; echo "rc=$?" >> "$tmp/ref"
		"$ours" -r "$t" -c thread_filter "$f" > "$tmp/ours" 2>&1; echo "rc=$?" >> "$tmp/ours"
		n=$((n + 1))
		if ! cmp -s "$tmp/ref" "$tmp/ours"; then
			echo "FAIL $(basename "$t") '$f':"
			diff "$tmp/ref" "$tmp/ours" | head -5
			fail=$((fail + 1))
		fi
	done
done < "$tmp/filters"
echo "thread table filters: $((n - fail))/$n cases as the reference"
[ "$fail" -eq 0 ]
