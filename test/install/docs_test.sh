#!/bin/bash
# docs_test.sh - the documentation stays true: docs/fields.md is what
# scripts/gen-docs generates from the field table now; the worked example
# chisel of docs/chisel_api.md counts what an independent -p listing counts,
# on every trace, and prints what the reference sysdig prints with it; every
# relative link of README.md and docs/*.md points at a file that exists.
# usage: docs_test.sh SRC BUILD
SRC=$1
BUILD=$2
SYSDIG=$BUILD/userspace/sysdig/sysdig
W=$(mktemp -d /tmp/sysdigc-docs.XXXXXX)
trap 'rm -rf "$W"' EXIT
FAILS=0
fail() { echo "FAIL: $*"; FAILS=$((FAILS + 1)); }

# 1. generated field reference
mkdir -p "$W/tree/docs" "$W/tree/scripts"
cp "$SRC/scripts/gen-docs" "$W/tree/scripts/"
"$W/tree/scripts/gen-docs" "$SYSDIG"
if cmp -s "$W/tree/docs/fields.md" "$SRC/docs/fields.md"; then
	echo "ok: docs/fields.md is current ($(grep -c '^`' "$SRC/docs/fields.md") fields)"
else
	fail "docs/fields.md is stale: run scripts/gen-docs and commit docs/fields.md"
	diff "$SRC/docs/fields.md" "$W/tree/docs/fields.md" | head -5
fi

# 2. the example chisel
EX=$SRC/docs/examples/opens_by_file.lua
FLT='evt.type in (open, openat, openat2) and evt.dir=< and evt.failed=false'
n=0
for t in "$SRC"/test/traces/*.scap; do
	b=$(basename "$t")
	"$SYSDIG" -r "$t" -c "$EX" 1000 >"$W/got.txt" 2>&1 || fail "$b: the example chisel failed: $(head -2 "$W/got.txt")"
	"$SYSDIG" -r "$t" -p '%fd.name' "$FLT" | sort | uniq -c | sort -k1,1nr -k2 |
		awk '{ n = $1; $1 = ""; sub(/^ /, ""); printf "%-8d %s\n", n, $0 }' >"$W/want.txt"
	if cmp -s "$W/got.txt" "$W/want.txt"; then n=$((n + $(wc -l <"$W/want.txt")))
	else fail "$b: example chisel differs from the -p count"; diff "$W/want.txt" "$W/got.txt" | head -4; fi
	if [ -x /usr/bin/sysdig ]; then
		for a in 1000 "2 1"; do
			cmp -s <("$SYSDIG" -r "$t" -c "$EX" "$a" 2>&1) <(/usr/bin/sysdig -r "$t" -c "$EX" "$a" 2>&1) ||
				fail "$b: example chisel '$a' differs from sysdig 0.29.3's run"
		done
	fi
done
echo "ok: example chisel: $n file counts checked$([ -x /usr/bin/sysdig ] && echo ', same output as sysdig 0.29.3')"
"$SYSDIG" -r "$SRC/test/traces/cat_write.scap" -c "$EX" "x" >/dev/null 2>&1 && fail "a bad argument is accepted"

# 3. links
for md in "$SRC/README.md" "$SRC"/docs/*.md; do
	dir=$(dirname "$md")
	for l in $(grep -o '](\([^)#:]*\))' "$md" | sed 's/^](//; s/)$//'); do
		[ -e "$dir/$l" ] || fail "$(basename "$md"): link to $l: no such file"
	done
done
[ $FAILS -eq 0 ] && echo "docs: all passed" && exit 0
exit 1
