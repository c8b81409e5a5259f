#!/bin/sh
# man_test.sh - the configured man pages render without a warning
# (man --warnings -l), have their sections, and sysdig's page documents
# every option its --help lists.
# usage: man_test.sh BUILD   (exit 0 pass, 1 fail, 77 skip without man)
BUILD=$1
command -v man >/dev/null || { echo "SKIP: man (package man-db) missing"; exit 77; }
FAILS=0
fail() { echo "FAIL: $*"; FAILS=$((FAILS + 1)); }
for page in "$BUILD"/packaging/man/*.8; do
	name=$(basename "$page")
	out=$(MANWIDTH=80 man --warnings -l "$page" 2>&1 >/dev/null)
	if [ -n "$out" ]; then fail "$name: $out"; else echo "ok: $name renders without warnings"; fi
	text=$(MANWIDTH=80 man -l "$page" 2>/dev/null | col -b)
	for s in NAME SYNOPSIS DESCRIPTION OPTIONS EXAMPLES "SEE ALSO"; do
		echo "$text" | grep -q "^$s" || fail "$name: no section $s"
	done
done
[ -e "$BUILD/packaging/man/csysdig-c.8" ] || [ -e "$BUILD/packaging/man/csysdig.8" ] || fail "no csysdig page"
page=$(ls "$BUILD"/packaging/man/sysdig*.8 | head -1)
text=$(MANWIDTH=200 man -l "$page" 2>/dev/null | col -b)
n=0
for o in $("$BUILD/userspace/sysdig/sysdig" --help | awk '/^ +-/ {
	for (i = 1; i <= NF && $i ~ /^-/; i++) { o = $i; sub(/[,=].*/, "", o); print o } }'); do
	n=$((n + 1))
	echo "$text" | grep -qe "^ *$o\b\|, $o\b\| $o\b" || fail "$(basename "$page") does not document $o (sysdig --help lists it)"
done
echo "$n options of sysdig --help checked"
[ $FAILS -eq 0 ] && echo "man pages: all passed" && exit 0
exit 1
