#!/bin/bash
# recover.sh SYSDIG SCAPMANGLE DATA: one event block with a damaged header
# and three blocks overwritten in the middle of ref029_net_small.scap.
# Without --recover: what comes before the damage, then one error line
# with the offset, exit 1.  With --recover: every event but the 4 damaged
# ones, in order, a line per skipped region (offsets, bytes), a count at
# the end, exit 1.
. "$(dirname "$0")/lib.sh"
sysdig=$1 data=$2 mangle=$3
trace=$data/traces/ref029_net_small.scap
"$mangle" boundaries "$trace" >"$TMP/b" || fail "scapmangle failed"
python3 - "$trace" "$TMP/b" "$TMP/d.scap" <<'PY'
import sys
d = bytearray(open(sys.argv[1], 'rb').read())
b = [int(x) for x in open(sys.argv[2])]
d[b[10000]:b[10000] + 4] = b'\xde\xad\xbe\xef'		# block type
for i in range(b[15000] + 10, b[15003] - 10):		# three blocks
    d[i] = 0x55
open(sys.argv[3], 'wb').write(d)
PY
off=$(sed -n 10001p "$TMP/b")
fmt="%evt.time %evt.cpu %proc.name %thread.tid %evt.dir %evt.type %evt.info"
"$sysdig" -r "$trace" -p "$fmt" >"$TMP/intact" || fail "intact trace"
"$sysdig" -r "$TMP/d.scap" -p "$fmt" >"$TMP/out" 2>"$TMP/err"
one_line_error $? "$TMP/err" "at offset $off"
cmp -s "$TMP/out" <(head -n "$(wc -l <"$TMP/out")" "$TMP/intact") || fail "output before the damage differs"
echo "without --recover: $(wc -l <"$TMP/out") lines, then: $(cat "$TMP/err")"
"$sysdig" --recover -r "$TMP/d.scap" -p "$fmt" >"$TMP/out" 2>"$TMP/err"
rc=$?
[ "$rc" = 1 ] || fail "--recover: exit $rc"
[ "$(wc -l <"$TMP/err")" = 3 ] || fail "--recover: stderr: $(cat "$TMP/err")"
grep -q "^skipped 52 damaged bytes at offset $off " "$TMP/err" || fail "--recover: first skip: $(head -1 "$TMP/err")"
grep -q "^--recover: skipped 2 damaged regions" "$TMP/err" || fail "--recover: no count: $(tail -1 "$TMP/err")"
lost=$(diff "$TMP/intact" "$TMP/out" | grep -c '^<')
added=$(diff "$TMP/intact" "$TMP/out" | grep -c '^>')
[ "$lost" = 4 ] && [ "$added" = 0 ] || fail "--recover: $lost lines lost, $added changed (want 4 and 0)"
echo "--recover: $(wc -l <"$TMP/out") of $(wc -l <"$TMP/intact") lines (the 4 damaged events missing):"
cat "$TMP/err"
