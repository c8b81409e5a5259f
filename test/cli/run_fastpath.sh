#!/bin/bash
# run_fastpath.sh - the shortcuts of the capture path change nothing: a -w
# capture with `proc.name=X` (in-place comm check, and the state engine
# skipping the fd work nothing reads then) writes the same file as with the
# generic `proc.name glob X`; `fd.type=T` / `in` (in-place fd type check)
# the same as `fd.type glob T`.  X: the busiest process names of the trace.
# usage: run_fastpath.sh SYSDIG TRACE
set -u
sysdig=$1 trace=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

# same_file FAST GENERIC: both filters must write identical captures
same_file() {
	"$sysdig" -r "$trace" -w "$tmp/a.scap" "$1" 2>"$tmp/ea" || { echo "failed: $1"; cat "$tmp/ea"; fail=1; return; }
	"$sysdig" -r "$trace" -w "$tmp/b.scap" "$2" 2>"$tmp/eb" || { echo "failed: $2"; cat "$tmp/eb"; fail=1; return; }
	if ! cmp -s "$tmp/a.scap" "$tmp/b.scap"; then
		echo "'$1' and '$2' write different files"
		fail=1
	fi
}

names=$("$sysdig" -r "$trace" -p '%proc.name' 2>/dev/null | sort | uniq -c | sort -rn |
	awk '$2 !~ /[][*?<>() ]/ {print $2}' | head -3)
for x in $names; do
	same_file "proc.name=$x" "proc.name glob $x"
	same_file "proc.name=${x%?}" "proc.name glob ${x%?}"	# a prefix is not equal
	same_file "proc.name=${x:0:1}zz" "proc.name glob ${x:0:1}zz"
	same_file "proc.name in ($x, nosuchproc)" "proc.name glob $x or proc.name glob nosuchproc"
	same_file "proc.name!=$x" "proc.name!=$x and evt.num>0"
done
for t in ipv4 unix file; do
	same_file "fd.type=$t" "fd.type glob $t"
	same_file "fd.type!=$t" "fd.type!=$t and evt.num>0"
done
same_file "fd.type in (ipv4, ipv6)" "fd.type glob ipv4 or fd.type glob ipv6"
same_file "fd.type in (ipv6, unixx, fil)" "fd.type glob ipv6 or fd.type glob unixx or fd.type glob fil"
# the chisels' fd.type filters: same output as the generic check
"$sysdig" -r "$trace" -p '%evt.num %fd.type %fd.name' "fd.type in (ipv4, ipv6, unix)" >"$tmp/p1" 2>&1
"$sysdig" -r "$trace" -p '%evt.num %fd.type %fd.name' \
	"fd.type glob ipv4 or fd.type glob ipv6 or fd.type glob unix" >"$tmp/p2" 2>&1
cmp -s "$tmp/p1" "$tmp/p2" || { echo "fd.type in (...) prints differently"; fail=1; }
[ -n "$names" ] || echo "no process names in this trace: proc.name checks skipped"
exit $fail
