#!/bin/bash
# run_golden.sh - run our sysdig like one row of golden/index.tsv and compare
# with the reference output (stdout byte for byte, exit code, stderr when
# deterministic; -S tables compared as a multiset, see golden/README.md).
# usage: run_golden.sh SYSDIG DATA_DIR MODE EXPECTED_RC GOLDEN_STDOUT GOLDEN_STDERR|- ARGS...
# MODE: exact | summary | nostderr
set -u
sysdig=$1 data=$2 mode=$3 rc_want=$4 out_want=$5 err_want=$6
shift 6
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$data" || exit 1
eval "TZ=UTC \"$sysdig\" $*" >"$tmp/out" 2>"$tmp/err"
rc=$?
fail=0
if [ "$rc" != "$rc_want" ]; then
	echo "exit code $rc, expected $rc_want"; fail=1
fi
case "$mode" in
summary)
	# events part exactly, then the table header exactly, rows as a multiset
	split() { awk -v p="$2" 'BEGIN{t=0} /^----------------------$/ && !t {t=1} {print > (t ? p ".tab" : p ".evt")}' "$1"; }
	split "$tmp/out" "$tmp/o"; split "$out_want" "$tmp/g"
	touch "$tmp/o.evt" "$tmp/g.evt" "$tmp/o.tab" "$tmp/g.tab"
	cmp -s "$tmp/o.evt" "$tmp/g.evt" || { echo "event lines differ"; diff "$tmp/o.evt" "$tmp/g.evt" | head -5; fail=1; }
	head -3 "$tmp/o.tab" | cmp -s - <(head -3 "$tmp/g.tab") || { echo "summary header differs"; fail=1; }
	cmp -s <(tail -n +4 "$tmp/o.tab" | sort) <(tail -n +4 "$tmp/g.tab" | sort) || { echo "summary rows differ"; diff <(tail -n +4 "$tmp/o.tab" | sort) <(tail -n +4 "$tmp/g.tab" | sort) | head -10; fail=1; }
	# counts non-increasing
	tail -n +4 "$tmp/o.tab" | awk '{n=$NF} NR>1 && n>p {exit 1} {p=n}' || { echo "summary not sorted"; fail=1; }
	;;
*)
	cmp -s "$tmp/out" "$out_want" || { echo "stdout differs"; diff "$tmp/out" "$out_want" | head -10; fail=1; }
	;;
esac
if [ "$mode" != nostderr ]; then
	if [ "$err_want" = - ]; then
		[ -s "$tmp/err" ] && { echo "unexpected stderr:"; head -3 "$tmp/err"; fail=1; }
	else
		cmp -s "$tmp/err" "$err_want" || { echo "stderr differs"; diff "$tmp/err" "$err_want" | head -5; fail=1; }
	fi
fi
exit $fail
