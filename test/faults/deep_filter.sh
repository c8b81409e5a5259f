#!/bin/bash
# deep_filter.sh SYSDIG DATA: a filter nested 20,000 levels deep (the most
# an argument can hold) is one clear error, not a stack overflow; the
# deepest accepted nesting (1000) runs and matches what the plain check does
# (the 100,000-deep case is in test/filter/test_filter.c: too long for argv).
. "$(dirname "$0")/lib.sh"
sysdig=$1 data=$2
deep() { python3 -c "import sys; n=int(sys.argv[1]); print(sys.argv[2]*n + sys.argv[3] + ')'*n)" "$@"; }
"$sysdig" -r "$data/traces/cat_write.scap" "$(deep 20000 '(' proc.name=x)" >"$TMP/out" 2>"$TMP/err"
one_line_error $? "$TMP/err" "filter nested too deeply"
[ ! -s "$TMP/out" ] || fail "stdout not empty"
"$sysdig" -r "$data/traces/cat_write.scap" "$(deep 10000 'not (' proc.name=x)" >"$TMP/out" 2>"$TMP/err"
one_line_error $? "$TMP/err" "filter nested too deeply"
want=$("$sysdig" -r "$data/traces/cat_write.scap" evt.type=open | wc -l)
[ "$want" -gt 0 ] || fail "no open events in cat_write.scap"
got=$("$sysdig" -r "$data/traces/cat_write.scap" "$(deep 1000 'not (' evt.type=open)" | wc -l)
[ "$got" = "$want" ] || fail "1000-deep filter: $got lines, the plain filter $want"
echo "ok: 20,000 and 10,000 deep rejected, 1000 deep gives the $want lines of the plain filter"
