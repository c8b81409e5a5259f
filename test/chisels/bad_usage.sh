#!/bin/sh
# bad_usage.sh SYSDIG TRACE - chisel misuse must give a clear message on
# stderr and a non-zero exit, never a crash (exit >= 128) or a hang.
SYSDIG=$1
TRACE=$2
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
pass=0
fail=0

cat > "$TMP/syntax.lua" <<'LUA'
description = "x" short_description = "x" category = "Test" args = {}
function on_init( return true end
LUA
cat > "$TMP/runtime.lua" <<'LUA'
description = "x" short_description = "x" category = "Test" args = {}
function on_init() return true end
function on_event() local t = nil; return t.field end
LUA
cat > "$TMP/noargs.lua" <<'LUA'
description = "x" short_description = "x" category = "Test"
LUA
cat > "$TMP/badfield.lua" <<'LUA'
description = "x" short_description = "x" category = "Test" args = {}
function on_init() chisel.request_field("no.such.field") return true end
LUA
cat > "$TMP/initfalse.lua" <<'LUA'
description = "x" short_description = "x" category = "Test" args = {}
function on_init() return false end
LUA

# expect NAME EXPECTED_STDERR_SUBSTRING ARGS...
expect() {
	name=$1 want=$2
	shift 2
	timeout 60 "$SYSDIG" "$@" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	if [ $rc -ne 0 ] && [ $rc -lt 124 ] && grep -qF -- "$want" "$TMP/err"; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL $name: exit $rc, stderr: $(head -c 300 "$TMP/err")"
	fi
}

expect unknown_chisel "can't open file nosuchchisel" -r "$TRACE" -c nosuchchisel
expect missing_args "missing arguments for chisel fdcount_by" -r "$TRACE" -c fdcount_by
expect too_many_args "too many parameters for chisel fdcount_by, 1 required, 0 optional, 2 given" \
	-r "$TRACE" -c fdcount_by "a b"
expect bad_quote "corrupted parameters for chisel fdcount_by" -r "$TRACE" -c fdcount_by "'a"
expect syntax_error "syntax.lua:2:" -r "$TRACE" -c "$TMP/syntax.lua"
expect runtime_error "runtime.lua:3:" -r "$TRACE" -c "$TMP/runtime.lua"
expect args_missing "args table missing" -r "$TRACE" -c "$TMP/noargs.lua"
expect bad_field "chisel requesting nonexistent field no.such.field" -r "$TRACE" -c "$TMP/badfield.lua"
expect init_false "init() for chisel" -r "$TRACE" -c "$TMP/initfalse.lua"
expect info_unknown "chisel nosuchchisel not found - use -cl to list them." -i nosuchchisel

echo "chisel bad usage: $pass passed, $fail failed"
[ $fail -eq 0 ]
