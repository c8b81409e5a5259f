#!/bin/sh
# compare_raw.sh CSYSDIG REF TRACE VIEW [extra args]: runs `--raw -v VIEW` on
# TRACE with our csysdig and the reference's, compares the rows as a multiset
# (the reference sorts with an unstable sort, so rows with equal sort keys
# come in any order).  Exit 0 same, 1 different (diff on stdout).
ours=$1; ref=$2; trace=$3; view=$4; shift 4
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
# the reference also reads views from ./chisels: run where there is none
case $ours in /*) ;; *) ours=$PWD/$ours ;; esac
case $trace in /*) ;; *) trace=$PWD/$trace ;; esac
cd "$tmp" || exit 2
"$ours" -r "$trace" --raw -v "$view" "$@" > "$tmp/ours" 2>&1
echo "rc=$?" >> "$tmp/ours"
"$ref" -r "$trace" --raw -v "$view" "$@" > "$tmp/ref" 2>&1
echo "rc=$?" >> "$tmp/ref"
LC_ALL=C sort "$tmp/ours" > "$tmp/ours.s"
LC_ALL=C sort "$tmp/ref" > "$tmp/ref.s"
if cmp -s "$tmp/ours.s" "$tmp/ref.s"; then
	exit 0
fi
diff "$tmp/ref.s" "$tmp/ours.s" | head -${CSYSDIG_DIFF_LINES:-20}
exit 1
