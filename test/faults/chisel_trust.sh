#!/bin/bash
# chisel_trust.sh SYSDIG DATA: chisels and Lua modules are not taken from
# the current directory (-c NAME, require, -cl), only from a path naming
# them or SYSDIG_CHISEL_DIR; a chisel file or directory that another user
# owns or may write is refused with one error line.
. "$(dirname "$0")/lib.sh"
sysdig=$1 data=$2
trace=$data/traces/cat_write.scap
work=$TMP/work
mkdir -p "$work/chisels"
chmod 755 "$TMP" "$work" "$work/chisels"
evil() {	# evil FILE: Lua that leaves a mark when it runs
	cat >"$1" <<LUA
local f = io.open("$TMP/ran", "w") f:write("$1") f:close()
description = "x" short_description = "x" category = "x" args = {}
function on_init() return true end
LUA
}
evil "$work/evil.lua"
evil "$work/chisels/evil.lua"
evil "$work/top_table.lua"
evil "$work/chisels/top_table.lua"
ran() { [ -e "$TMP/ran" ] && { cat "$TMP/ran"; rm -f "$TMP/ran"; }; }

cd "$work"
"$sysdig" -r "$trace" -c evil >/dev/null 2>"$TMP/err"
one_line_error $? "$TMP/err" "can't open file evil"
[ -z "$(ran)" ] || fail "-c evil ran a chisel of the current directory"
"$sysdig" -cl >"$TMP/out" 2>&1 || fail "-cl failed: $(cat "$TMP/out")"
[ -z "$(ran)" ] || fail "-cl ran a chisel of the current directory"
grep -q "^evil" "$TMP/out" && fail "-cl lists ./chisels/evil"
"$sysdig" -r "$trace" -c topprocs_net >"$TMP/out" 2>"$TMP/err" || fail "topprocs_net: $(cat "$TMP/err")"
[ -z "$(ran)" ] || fail "require took top_table from the current directory"
grep -q "Process" "$TMP/out" || fail "topprocs_net printed no table"
echo "current directory: -c evil not found, -cl and require do not look there"

"$sysdig" -r "$trace" -c ./chisels/evil.lua >/dev/null 2>"$TMP/err" || fail "explicit path: $(cat "$TMP/err")"
[ "$(ran)" = "$work/chisels/evil.lua" ] || fail "an explicit path did not run"
SYSDIG_CHISEL_DIR=$work/chisels "$sysdig" -r "$trace" -c evil >/dev/null 2>"$TMP/err" ||
	fail "SYSDIG_CHISEL_DIR: $(cat "$TMP/err")"
[ "$(ran)" = "$work/chisels/evil.lua" ] || fail "SYSDIG_CHISEL_DIR did not run"
echo "asked for: an explicit path and SYSDIG_CHISEL_DIR run"

chmod 777 "$work/chisels"
"$sysdig" -r "$trace" -c ./chisels/evil.lua >/dev/null 2>"$TMP/err"
one_line_error $? "$TMP/err" "every user may write it"
SYSDIG_CHISEL_DIR=$work/chisels "$sysdig" -r "$trace" -c evil >/dev/null 2>"$TMP/err"
one_line_error $? "$TMP/err" "every user may write it"
[ -z "$(ran)" ] || fail "a chisel in a world-writable directory ran"
chmod 755 "$work/chisels"
chmod 666 "$work/chisels/evil.lua"
"$sysdig" -r "$trace" -c ./chisels/evil.lua >/dev/null 2>"$TMP/err"
one_line_error $? "$TMP/err" "every user may write it"
[ -z "$(ran)" ] || fail "a world-writable chisel ran"
chmod 644 "$work/chisels/evil.lua"
echo "refused: $(cat "$TMP/err")"
if [ "$(id -u)" = 0 ]; then
	chown nobody "$work/chisels/evil.lua"
	"$sysdig" -r "$trace" -c ./chisels/evil.lua >/dev/null 2>"$TMP/err"
	one_line_error $? "$TMP/err" "it belongs to another user"
	[ -z "$(ran)" ] || fail "another user's chisel ran as root"
	echo "refused: $(cat "$TMP/err")"
fi
