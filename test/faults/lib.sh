# lib.sh - helpers of the fault tests (sourced): fail, one_line_error.
set -u
fail() { echo "FAIL: $*"; exit 1; }
skip() { echo "SKIPPED: $*"; exit 77; }
# one_line_error RC ERRFILE WANT: exit status 1... (non-zero), exactly one
# line on stderr containing WANT
one_line_error() {
	[ "$1" != 0 ] || fail "exit status 0, expected an error"
	[ "$1" -lt 128 ] || fail "killed by signal $(($1 - 128))"
	[ "$(wc -l <"$2")" = 1 ] || fail "stderr is not one line: $(cat "$2")"
	grep -qF -- "$3" "$2" || fail "stderr '$(cat "$2")' lacks '$3'"
}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
