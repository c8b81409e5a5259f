#!/bin/bash
# run_bench.sh - sysdig --bench 3 -r TRACE with three chisels and a filter:
# the table has exactly the header and the rows parse, filter and one per
# chisel, 3 runs each, the trace's event count (the reference's last
# evt.num), CPU mean > 0, variance >= 0, ns/event > 0, parse at x1.00.
# usage: run_bench.sh SYSDIG TRACE
set -u
SYSDIG=$1 TRACE=$2
REF=/usr/bin/sysdig
fail() { echo "FAIL: $*"; exit 1; }
out=$("$SYSDIG" --bench 3 -r "$TRACE" -c topprocs_cpu -c topfiles_bytes -c spy_users 'proc.name!=sshd') ||
	fail "exit code $?"
echo "$out"
header=$(echo "$out" | head -n 1 | tr -s ' ')
[ "$header" = "run runs events cpu_s_mean cpu_s_var ns/event x_parse" ] || fail "header: $header"
rows=$(echo "$out" | tail -n +2 | awk '{ n = NF - 6; r = $1; for (i = 2; i <= n; i++) r = r " " $i; print r }' | paste -sd,)
[ "$rows" = "parse,filter,chisel topprocs_cpu,chisel topfiles_bytes,chisel spy_users" ] || fail "rows: $rows"
events=
[ -x "$REF" ] && events=$("$REF" -r "$TRACE" -p '*%evt.num' | tail -n 1)
echo "$out" | tail -n +2 | awk -v ev="$events" '
	{ runs = $(NF - 5); e = $(NF - 4); mean = $(NF - 3); v = $(NF - 2); ns = $(NF - 1); x = $NF
	  if (runs != 3 || e <= 0 || (ev != "" && e != ev) || mean <= 0 || v < 0 || ns <= 0 || x <= 0) {
		print "bad row: " $0; bad = 1 }
	  if (NR == 1 && x != "1.00") { print "parse is not x1.00"; bad = 1 } }
	END { exit bad }' || fail "numbers"
exit 0
