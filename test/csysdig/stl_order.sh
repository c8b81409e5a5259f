#!/bin/sh
# stl_order.sh TEST_STL_ORDER: csysdig's copies of libstdc++'s orders
# (stl_hash: std::unordered_map iteration, stl_sort: std::sort with ties)
# against libstdc++ itself: the oracle stl_order_oracle.cpp, built here with
# g++, replays the same random cases (inserts, erases, clears, sorts of
# values with many ties) and both must print the same orders.
# Exit 0 identical, 1 a difference, 77 (skip) without g++.
ours=$1
here=$(cd "$(dirname "$0")" && pwd)
command -v g++ >/dev/null || { echo "SKIP: no g++ to build the libstdc++ oracle"; exit 77; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
g++ -O1 -o "$tmp/oracle" "$here/stl_order_oracle.cpp" || exit 1
fail=0; cases=0
for seed in 1 2 3; do
	"$ours" gen $seed > "$tmp/cases" || exit 1
	"$tmp/oracle" < "$tmp/cases" > "$tmp/expected" || exit 1
	"$ours" run < "$tmp/cases" > "$tmp/got" || exit 1
	n=$(wc -l < "$tmp/expected")
	if [ "$n" -gt 0 ] && cmp -s "$tmp/expected" "$tmp/got"; then
		echo "ok   seed $seed: $n orders identical to libstdc++'s"
	else
		echo "FAIL seed $seed: differs from libstdc++ (< libstdc++, > ours):"
		diff "$tmp/expected" "$tmp/got" | cut -c1-200 | head -10
		fail=1
	fi
	cases=$((cases + n))
done
echo "stl order: $cases orders compared"
exit $fail
