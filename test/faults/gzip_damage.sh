#!/bin/bash
# gzip_damage.sh SYSDIG DATA: a gzip'd capture cut by 1-11 bytes or in the
# middle, or with one flipped bit, prints what it decoded before the damage
# (a prefix of the intact output), then one error line and exit 1; it used
# to say "empty file" (flips) or exit 0 silently (cuts in the trailer).
. "$(dirname "$0")/lib.sh"
sysdig=$1 data=$2
gzip -c "$data/traces/ref029_net_small.scap" >"$TMP/t.scap.gz"
"$sysdig" -r "$TMP/t.scap.gz" >"$TMP/intact" 2>"$TMP/err" || fail "intact file: $(cat "$TMP/err")"
total=$(wc -l <"$TMP/intact")
[ "$total" -gt 1000 ] || fail "intact output has $total lines"
size=$(stat -c %s "$TMP/t.scap.gz")
is_prefix() { cmp -s "$1" <(head -c "$(stat -c %s "$1")" "$TMP/intact"); }
for cut in 1 2 3 4 5 6 7 8 9 10 11 $((size / 2)); do
	head -c $((size - cut)) "$TMP/t.scap.gz" >"$TMP/c.gz"
	"$sysdig" -r "$TMP/c.gz" >"$TMP/out" 2>"$TMP/err"
	one_line_error $? "$TMP/err" "Is the file truncated?"
	is_prefix "$TMP/out" || fail "cut $cut: output is not a prefix of the intact output"
	n=$(wc -l <"$TMP/out")
	[ "$n" -gt 0 ] || fail "cut $cut: nothing printed before the error"
	echo "cut $cut bytes: $n of $total lines, then: $(cat "$TMP/err")"
done
for pct in 50 75 90; do
	python3 - "$TMP/t.scap.gz" "$TMP/f.gz" "$pct" <<'PY'
import sys
d = bytearray(open(sys.argv[1], 'rb').read())
d[len(d) * int(sys.argv[3]) // 100] ^= 0x10
open(sys.argv[2], 'wb').write(d)
PY
	"$sysdig" -r "$TMP/f.gz" >"$TMP/out" 2>"$TMP/err"
	one_line_error $? "$TMP/err" " at offset "
	n=$(wc -l <"$TMP/out")
	[ "$n" -gt 0 ] || fail "flip at $pct%: nothing printed before the error"
	[ "$(head -1 "$TMP/out")" = "$(head -1 "$TMP/intact")" ] || fail "flip at $pct%: first line differs"
	echo "flip at $pct%: $n of $total lines, then: $(cat "$TMP/err")"
done
