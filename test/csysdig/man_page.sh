#!/bin/sh
# man_page.sh PAGE: the man page renders with no groff/man warnings and
# shows its key sections.  Exit 77 (skip) without man.
page=$1
command -v man >/dev/null || { echo "SKIP: man is not installed"; exit 77; }
warn=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$page" 2>&1 >/dev/null)
[ -z "$warn" ] || { echo "warnings: $warn"; exit 1; }
text=$(LC_ALL=C.UTF-8 MANWIDTH=80 man -l "$page" 2>/dev/null)
for s in NAME SYNOPSIS OPTIONS KEYS "Drill down into the selected row" "--raw"; do
	printf '%s\n' "$text" | grep -qF -- "$s" || { echo "missing in the rendered page: $s"; exit 1; }
done
echo "man page ok"
