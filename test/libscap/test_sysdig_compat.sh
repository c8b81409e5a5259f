#!/bin/sh
# test_sysdig_compat.sh - the writer's output is what sysdig 0.29.3 reads:
# every trace is re-written by scaprewrite (libscap reader + writer, plain
# and gzip) and `sysdig -r` must print exactly the golden default output of
# the original trace.  Skipped (77) when the reference sysdig is missing.
#
#   test_sysdig_compat.sh SCAPREWRITE TRACES_DIR GOLDEN_DIR
set -u
rewrite=$1 traces=$2 golden=$3
sysdig=${SYSDIG_REF:-/usr/bin/sysdig}
if [ ! -x "$sysdig" ]; then
	echo "SKIP: reference sysdig not found at $sysdig"
	exit 77
fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
for t in "$traces"/*.scap; do
	name=$(basename "$t" .scap)
	exp="$golden/$name/default.txt"
	[ -f "$exp" ] || continue
	for gz in "" gz; do
		out="$tmp/$name$gz.scap"
		if ! "$rewrite" "$t" "$out" $gz; then
			echo "FAIL $name $gz: scaprewrite failed"; fail=1; continue
		fi
		if ! TZ=UTC "$sysdig" -r "$out" > "$tmp/out.txt" 2> "$tmp/err.txt"; then
			echo "FAIL $name $gz: sysdig: $(head -1 "$tmp/err.txt")"; fail=1; continue
		fi
		if cmp -s "$tmp/out.txt" "$exp"; then
			echo "ok   $name $gz"
		else
			echo "FAIL $name $gz: output differs from $exp"; fail=1
		fi
	done
done
exit $fail
