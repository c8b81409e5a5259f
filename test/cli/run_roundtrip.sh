#!/bin/bash
# run_roundtrip.sh - `sysdig -r T -w out.scap [-z]`, then both our reader
# and the reference sysdig (when installed) must print for out.scap exactly
# what they print for T.  usage: run_roundtrip.sh SYSDIG TRACE [-z]
set -u
sysdig=$1 trace=$2 z=${3:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
TZ=UTC "$sysdig" -r "$trace" -w "$tmp/out.scap" $z 2>/dev/null || { echo "writing failed"; exit 1; }
TZ=UTC "$sysdig" -r "$trace" >"$tmp/a" 2>&1
TZ=UTC "$sysdig" -r "$tmp/out.scap" >"$tmp/b" 2>&1
cmp -s "$tmp/a" "$tmp/b" || { echo "our reader: output differs after round trip"; diff "$tmp/a" "$tmp/b" | head; exit 1; }
if [ -x /usr/bin/sysdig ]; then
	TZ=UTC /usr/bin/sysdig -r "$trace" >"$tmp/c" 2>&1
	TZ=UTC /usr/bin/sysdig -r "$tmp/out.scap" >"$tmp/d" 2>&1
	cmp -s "$tmp/c" "$tmp/d" || { echo "reference: output differs after round trip"; diff "$tmp/c" "$tmp/d" | head; exit 1; }
else
	echo "reference sysdig not installed: only our reader checked"
fi
exit 0
