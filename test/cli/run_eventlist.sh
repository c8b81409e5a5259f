#!/bin/bash
# run_eventlist.sh - our -L lists the reference's events exactly as sysdig
# 0.29.3 does (the same lines in the same order), plus our own events that
# it does not have (e.g. statx), each as its enter and exit line.
# usage: run_eventlist.sh SYSDIG GOLDEN [OPTION]   (OPTION: -L, the default, or --list-events)
set -u
sysdig=$1 golden=$2 opt=${3:--L}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$sysdig" "$opt" >"$tmp/ours" 2>&1 || { echo "FAIL: $opt exit code $?"; exit 1; }
name() { sed -E 's/^[<>] ([^(]*)\(.*/\1/'; }
name <"$golden" | sort -u >"$tmp/ref_names"
# our own events: names the reference does not list
grep -E '^[<>] ' "$tmp/ours" | name | sort -u | comm -23 - "$tmp/ref_names" >"$tmp/own"
grep -vE "^[<>] ($(paste -sd'|' "$tmp/own"))\(" "$tmp/ours" >"$tmp/ours_ref"
diff "$tmp/ours_ref" "$golden" >"$tmp/diff" || { echo "FAIL: the reference's events differ:"; head -10 "$tmp/diff"; exit 1; }
for e in $(cat "$tmp/own"); do
	[ "$(grep -cE "^[<>] $e\(" "$tmp/ours")" = 2 ] || { echo "FAIL: $e: not one enter and one exit line"; exit 1; }
done
echo "ok: $(wc -l <"$golden") reference lines, own events: $(paste -sd' ' "$tmp/own")"
