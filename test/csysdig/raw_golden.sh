#!/bin/sh
# raw_golden.sh CSYSDIG VIEWDIR: `CSYSDIG -r TRACE --raw -v VIEW` with the
# views of VIEWDIR, for every golden/<trace>/<view>.txt (the reference's
# output, rows sorted), compared as a multiset of rows.  Pairs listed in
# raw_known_diffs.txt must differ (and are reported as such).
# Exit 0 all match, 1 a difference, 77 (skip) when VIEWDIR is missing.
ours=$1; viewdir=$2
here=$(cd "$(dirname "$0")" && pwd)
traces=$here/../traces
if [ ! -d "$viewdir" ]; then
	echo "SKIP: no view directory $viewdir (the reference's stock views are not installed)"
	exit 77
fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
pass=0; fail=0; known=0
for g in "$here"/golden/*/*.txt; do
	tn=$(basename "$(dirname "$g")"); v=$(basename "$g" .txt)
	[ -f "$viewdir/v_$v.lua" ] || continue
	{ SYSDIG_CHISEL_DIR=$viewdir "$ours" -r "$traces/$tn.scap" --raw -v "$v" 2>&1 </dev/null; echo "rc=$?"; } |
		LC_ALL=C sort > out.txt
	if grep -q "^$tn $v " "$here/raw_known_diffs.txt"; then
		if cmp -s out.txt "$g"; then
			echo "UNEXPECTED MATCH $tn $v (remove it from raw_known_diffs.txt)"
			fail=$((fail + 1))
		else
			known=$((known + 1))
		fi
		continue
	fi
	if cmp -s out.txt "$g"; then
		pass=$((pass + 1))
	else
		echo "DIFF $tn $v (< reference, > ours):"
		diff "$g" out.txt | head -10
		fail=$((fail + 1))
	fi
done
echo "csysdig raw vs reference: $pass equal, $known known differences, $fail failures"
[ "$pass" -gt 0 ] && [ "$fail" -eq 0 ]
