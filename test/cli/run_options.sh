#!/bin/bash
# run_options.sh - no option is silently ignored.  The option list is read
# from the reference's `sysdig -h` at test time (every -X and --xxx of its
# Options section); each one must have a check in options.tsv, and every
# check must pass.  A check is one shell line using the helpers below:
# the same output as the reference on a trace, an exact expectation, or a
# refusal / warning in exactly one clear line.  Without OPTION the script
# checks that every option of the reference has a check (so none can slip
# through); with OPTION it runs that option's checks (one ctest each).
# usage: run_options.sh SYSDIG DATA_DIR TABLE [OPTION]  (77 = skipped)
set -u
OURS=$(realpath "$1") DATA=$(realpath "$2") TABLE=$(realpath "$3") ONLY=${4:-}
REF=${SYSDIG_REF:-/usr/bin/sysdig}
[ -x "$REF" ] || { echo "SKIPPED: the reference $REF is missing"; exit 77; }
cd "$DATA" || exit 1
export TZ=UTC
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
T=$DATA/traces/ref029_light.scap T2=$DATA/traces/ref029_net_small.scap C=$DATA/traces/cat_write.scap N=$DATA/traces/connect_localhost.scap
IS_ROOT=0
[ "$(id -u)" = 0 ] && [ -e /sys/kernel/btf/vmlinux ] && IS_ROOT=1

fail() { echo "  $*"; return 1; }
# same ARGS: stdout and exit status equal the reference's
same() {
	timeout 60 "$OURS" "$@" >"$TMP/o" 2>/dev/null; local ro=$?
	"$REF" "$@" >"$TMP/r" 2>/dev/null; local rr=$?
	[ "$ro" = "$rr" ] || fail "exit $ro, reference $rr"  || return 1
	cmp -s "$TMP/o" "$TMP/r" || { diff "$TMP/o" "$TMP/r" | head -5; fail "output differs from the reference's"; }
}
# events ARGS: our event list is the reference's plus the events it does not
# have (run_eventlist.sh)
events() {
	"$REF" "$@" >"$TMP/r" 2>/dev/null || fail "reference: exit $?" || return 1
	"$(dirname "$(realpath "$0")")/run_eventlist.sh" "$OURS" "$TMP/r" "$@" >"$TMP/o" || fail "$(cat "$TMP/o")"
}
# has TEXT ARGS: exit 0 and TEXT in our stdout
has() {
	local want=$1; shift
	timeout 20 "$OURS" "$@" >"$TMP/o" 2>"$TMP/e" || fail "exit $?: $(head -2 "$TMP/e")" || return 1
	grep -qF -- "$want" "$TMP/o" || fail "stdout lacks '$want'"
}
# one_line TEXT FILE: FILE is exactly one line containing TEXT
one_line() {
	[ "$(wc -l <"$2")" = 1 ] || fail "stderr is not one line: $(head -3 "$2")" || return 1
	grep -qF -- "$1" "$2" || fail "stderr '$(cat "$2")' lacks '$1'"
}
# refused TEXT ARGS: non-zero exit, nothing on stdout, one line on stderr
refused() {
	local want=$1; shift
	timeout 20 "$OURS" "$@" >"$TMP/o" 2>"$TMP/e" && fail "accepted" && return 1
	[ -s "$TMP/o" ] && fail "stdout: $(head -2 "$TMP/o")" && return 1
	one_line "$want" "$TMP/e"
}
# warns TEXT ARGS: runs like the reference (same stdout) and says once on
# stderr that the option has no effect here
warns() {
	local want=$1; shift
	"$OURS" "$@" >"$TMP/o" 2>"$TMP/e" || fail "exit $?: $(head -2 "$TMP/e")" || return 1
	"$REF" "$@" >"$TMP/r" 2>/dev/null
	cmp -s "$TMP/o" "$TMP/r" || fail "output differs from the reference's" || return 1
	one_line "$want" "$TMP/e"
}
# warns_alone TEXT ARGS: ours runs (exit 0, events printed) and says once
# on stderr that the option has no effect (where the reference fails)
warns_alone() {
	local want=$1; shift
	"$OURS" "$@" >"$TMP/o" 2>"$TMP/e" || fail "exit $?: $(head -2 "$TMP/e")" || return 1
	[ -s "$TMP/o" ] || fail "no output" || return 1
	one_line "$want" "$TMP/e"
}
# same_sorted ARGS: the same lines as the reference, in any order (ties
# of -S counts)
same_sorted() {
	"$OURS" "$@" 2>/dev/null | sort >"$TMP/o"
	"$REF" "$@" 2>/dev/null | sort >"$TMP/r"
	cmp -s "$TMP/o" "$TMP/r" || { diff "$TMP/o" "$TMP/r" | head -5; fail "output differs from the reference's"; }
}
# written ARGS: the files both write with ARGS (-w $TMP/{o,r}.scap added,
# or --writefile= when WLONG=1) read back by the reference give the same output
written() {
	local w=-w; [ "${WLONG:-0}" = 1 ] && w=--writefile
	rm -f "$TMP"/o.scap* "$TMP"/r.scap*
	"$OURS" "$@" $w "$TMP/o.scap" >/dev/null 2>&1 || fail "ours failed" || return 1
	"$REF" "$@" $w "$TMP/r.scap" >/dev/null 2>&1
	"$REF" -r "$TMP/o.scap" >"$TMP/o" 2>&1
	"$REF" -r "$TMP/r.scap" >"$TMP/r" 2>&1
	cmp -s "$TMP/o" "$TMP/r" || { diff "$TMP/o" "$TMP/r" | head -5; fail "files read back differ"; }
}
# live ARGS: as root with BPF, a live capture with ARGS prints events of a
# command we run (skipped, not failed, elsewhere)
live() {
	[ $IS_ROOT = 1 ] || { echo "  SKIPPED: a live capture needs root and BTF"; SKIPS=$((SKIPS + 1)); return 0; }
	timeout 20 "$OURS" "$@" >"$TMP/o" 2>"$TMP/e" &
	local pid=$!
	# cat runs until the capture has its events (-n) or its timeout: no
	# guess of how long the driver takes to attach on a busy machine
	while kill -0 $pid 2>/dev/null; do cat /dev/null; sleep 0.2; done
	wait $pid
	[ -s "$TMP/o" ] || fail "no events: $(head -2 "$TMP/e")"
}
# large_env [OPTION]: live, the proc.env of a process started with a 6000
# byte variable; longer than the driver's 4096 bytes only with OPTION
large_env() {
	[ $IS_ROOT = 1 ] || { echo "  SKIPPED: a live capture needs root and BTF"; SKIPS=$((SKIPS + 1)); return 0; }
	cp /bin/sleep "$TMP/lenvslp"	# a comm of our own
	timeout 15 "$OURS" "$@" -n 1 -p '%proc.env' 'evt.type=execve and evt.dir=< and proc.name=lenvslp' >"$TMP/o" 2>"$TMP/e" &
	local pid=$! big
	big=$(head -c 6000 /dev/zero | tr '\0' x)
	local i
	for i in 1 2 3 4 5 6 7 8 9 10; do	# until the capture, once attached, saw one
		sleep 1
		env BIGVAR="$big" "$TMP/lenvslp" 0.5
		kill -0 $pid 2>/dev/null || break
	done
	wait $pid
	local n=$(wc -c <"$TMP/o")
	if [ $# -gt 0 ]; then [ "$n" -gt 6000 ] || fail "proc.env has $n bytes"
	else [ "$n" -gt 100 ] && [ "$n" -le 4200 ] || fail "proc.env has $n bytes without the option"; fi
}
# live_suppress OPTION: live, OPTION supcat leaves out every event of a
# process named supcat while supkeep is seen, and -v
# counts what was suppressed
live_suppress() {
	[ $IS_ROOT = 1 ] || { echo "  SKIPPED: a live capture needs root and BTF"; SKIPS=$((SKIPS + 1)); return 0; }
	cp /bin/cat "$TMP/supcat"; cp /bin/cat "$TMP/supkeep"
	timeout 20 "$OURS" -v "$1" supcat -p '%proc.name' 'proc.name in (supcat, supkeep)' >"$TMP/o" 2>"$TMP/e" &
	local pid=$! i
	for i in 1 2 3 4 5 6 7 8; do
		sleep 1
		"$TMP/supcat" /dev/null; "$TMP/supkeep" /dev/null
		grep -q supkeep "$TMP/o" && break
	done
	sleep 0.5; kill -TERM $pid; wait $pid
	grep -q '^supkeep$' "$TMP/o" || fail "supkeep not seen: $(head -3 "$TMP/e")" || return 1
	grep -q '^supcat$' "$TMP/o" && fail "supcat events were printed" && return 1
	[ "$(sed -n 's/^Suppressed by Comm:\([0-9]*\)$/\1/p' "$TMP/e")" -gt 0 ] || fail "-v counts no suppressed events: $(cat "$TMP/e")"
}
# rotated CHECK ARGS: ours writes $TMP/f with ARGS; CHECK runs in $TMP
rotated() {
	local check=$1; shift
	rm -rf "$TMP/rot"; mkdir "$TMP/rot"
	"$OURS" "$@" -w "$TMP/rot/f" >/dev/null 2>"$TMP/e" || fail "exit $?: $(head -2 "$TMP/e")" || return 1
	(cd "$TMP/rot" && eval "$check") || fail "check failed: $check ($(cd "$TMP/rot" && ls -l | tail -n +2 | awk '{print $5, $9}' | tr '\n' ' '))"
}
# help_names_all: our --help documents every option of the reference's,
# and has its sections (output format, filters, examples)
help_names_all() {
	"$OURS" --help >"$TMP/h" || fail "exit $?" || return 1
	local o missing=""
	for o in "${OPTS[@]}"; do
		grep -qE -- "(^|[ ,\[])$o([ ,=<\[]|\$)" "$TMP/h" || missing="$missing $o"
	done
	[ -z "$missing" ] || fail "--help lacks$missing" || return 1
	for o in "Output format:" "Filters:" "Examples:"; do
		grep -qx -- "$o" "$TMP/h" || fail "--help lacks the section $o" || return 1
	done
	[ "$(wc -l <"$TMP/h")" -ge 200 ] || fail "--help has only $(wc -l <"$TMP/h") lines"
}
# rotated_like_ref ARGS: both write rotated files with ARGS (-w DIR/f);
# the same file names, each read back by the reference the same
rotated_like_ref() {
	rm -rf "$TMP/ro" "$TMP/rr"; mkdir "$TMP/ro" "$TMP/rr"
	"$OURS" "$@" -w "$TMP/ro/f" -q >/dev/null 2>&1 || fail "ours failed" || return 1
	"$REF" "$@" -w "$TMP/rr/f" -q >/dev/null 2>&1
	[ "$(ls "$TMP/ro")" = "$(ls "$TMP/rr")" ] || fail "files $(ls "$TMP/ro" | tr '\n' ' ')/ reference $(ls "$TMP/rr" | tr '\n' ' ')" || return 1
	local f
	for f in $(ls "$TMP/rr"); do
		cmp -s <("$REF" -r "$TMP/ro/$f" 2>&1) <("$REF" -r "$TMP/rr/$f" 2>&1) || fail "$f differs" || return 1
	done
}
# events FILE: events the reference reads from FILE
events() { "$REF" -r "$1" 2>/dev/null | wc -l; }

mapfile -t OPTS < <("$REF" -h 2>/dev/null | awk '/^Output format:/{exit} /^ -/' |
	grep -oE '(^ |, | \| )--?[A-Za-z][A-Za-z0-9-]*' | sed -E 's/^(, | \| | )//')
[ ${#OPTS[@]} -gt 50 ] || { echo "could not read the options of $REF -h (${#OPTS[@]})"; exit 1; }
bad=0 n=0 SKIPS=0
if [ -z "$ONLY" ]; then
	for opt in "${OPTS[@]}"; do
		awk -F'\t' -v o="$opt" '$1 == o { f = 1 } END { exit !f }' "$TABLE" && continue
		echo "FAIL $opt: no check in $(basename "$TABLE")"; bad=$((bad + 1))
	done
	echo "${#OPTS[@]} options of the reference, $bad without a check"
	[ $bad = 0 ]
	exit
fi
printf '%s\n' "${OPTS[@]}" | grep -qxF -- "$ONLY" || { echo "$ONLY is not an option of $REF -h"; exit 1; }
while IFS= read -r chk; do
	n=$((n + 1))
	if eval "$chk"; then echo "ok   $ONLY: $chk"; else echo "FAIL $ONLY: $chk"; bad=$((bad + 1)); fi
done < <(awk -F'\t' -v o="$ONLY" '$1 == o { print $2 }' "$TABLE")
echo "$ONLY: $n checks, $bad failed, $SKIPS skipped"
[ $bad = 0 ] && [ $n -gt 0 ] && [ $SKIPS = $n ] && exit 77
[ $n -gt 0 ] && [ $bad = 0 ]
