#!/bin/bash
# run_error.sh - bad input must give exit status 1 and exactly one line on
# stderr (containing EXPECTED when given), nothing on stdout.
# usage: run_error.sh SYSDIG DATA_DIR EXPECTED ARGS...
set -u
sysdig=$1 data=$2 want=$3
shift 3
cd "$data" || exit 1
out=$(TZ=UTC timeout 20 "$sysdig" "$@" 2>/tmp/err.$$)
rc=$?
err=$(cat /tmp/err.$$); rm -f /tmp/err.$$
[ "$rc" = 1 ] || { echo "exit code $rc, expected 1"; exit 1; }
[ -z "$out" ] || { echo "unexpected stdout: $out"; exit 1; }
[ "$(printf '%s\n' "$err" | wc -l)" = 1 ] || { echo "stderr is not one line: $err"; exit 1; }
case "$err" in *"$want"*) ;; *) echo "stderr '$err' lacks '$want'"; exit 1 ;; esac
exit 0
