#!/bin/bash
# run_plugins.sh - the plugin system against exact expectations and, when
# the reference is installed, against sysdig 0.29.3 loading the same test
# plugins (testsrc.c: a source of known events, testext.c: an extractor).
# usage: run_plugins.sh TEST SYSDIG PLUGIN_BUILD_DIR   (77 = skipped)
set -u
t=$1 OURS=$(realpath "$2") PDIR=$(realpath "$3")
REF=${SYSDIG_REF:-/usr/bin/sysdig}
export TZ=UTC
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
# a directory holding only the two plugins (both tools load every plugin
# of SYSDIG_PLUGIN_DIR)
mkdir "$TMP/dir" && cp "$PDIR/libtestsrc.so" "$PDIR/libtestext.so" "$TMP/dir/" || exit 1
SRC=$TMP/dir/libtestsrc.so EXT=$TMP/dir/libtestext.so
unset SYSDIG_PLUGIN_DIR
fail() { echo "FAIL: $*"; exit 1; }
# expect "WANTED" ARGS...: our stdout is exactly WANTED (exit 0)
expect() {
	local want=$1; shift
	"$OURS" "$@" >"$TMP/o" 2>"$TMP/e" || fail "exit $?: $(cat "$TMP/e")"
	diff <(printf '%s\n' "$want") "$TMP/o" || fail "ours $*"
}
# like_ref ARGS...: the same stdout and stderr as the reference (when
# installed); the search path line names each tool's own directory; with
# PART=1 only from the first plugin field class on (-l descriptions of the
# built-in fields are our own)
like_ref() {
	[ -x "$REF" ] || { echo "(reference missing: not compared)"; return 0; }
	"$OURS" "$@" 2>&1 | sed 's|/[^ ]*/sysdig-c/plugins/|/usr/share/sysdig/plugins/|' >"$TMP/o"
	"$REF" "$@" >"$TMP/r" 2>&1
	if [ "${PART:-0}" = 1 ]; then
		sed -i -n '/testsrc (plugin)/,$p' "$TMP/o" "$TMP/r"
		[ -s "$TMP/r" ] || fail "no plugin class in the reference's $*"
	fi
	cmp -s "$TMP/o" "$TMP/r" || { diff "$TMP/o" "$TMP/r" | head -20; fail "differs from the reference: $*"; }
	echo "same as the reference: $*"
}
# refused TEXT ARGS...: exit 1, one line on stderr containing TEXT
refused() {
	local want=$1; shift
	"$OURS" "$@" >"$TMP/o" 2>"$TMP/e" && fail "accepted: $*"
	[ "$(wc -l <"$TMP/e")" = 1 ] || fail "stderr is not one line: $(cat "$TMP/e")"
	grep -qF -- "$want" "$TMP/e" || fail "stderr '$(cat "$TMP/e")' lacks '$want'"
	[ -s "$TMP/o" ] && fail "stdout: $(head -2 "$TMP/o")"
	echo "refused: $*: $(cat "$TMP/e")"
}
LISTING="Name: testsrc
Description: Test source plugin emitting a known sequence
Contact: sysdig-c tests
Version: 1.2.3
Init Config Schema: 
Type: source plugin
ID: 999
Suggested Open Params:

Name: testext
Description: Test extractor plugin for testsrc events
Contact: sysdig-c tests
Version: 0.1.0
Init Config Schema: 
Type: extractor plugin
"
F='%evt.num %testsrc.value %testsrc.text %testsrc.tag[x] %testext.len %testext.upper %evt.pluginname'

case $t in
list)	# -Il with -H: the two plugins, in -H order, then their fields in -l
	"$OURS" -H "$SRC" -H "$EXT" -Il >"$TMP/o" || fail "exit $?"
	head -1 "$TMP/o" | grep -q '^Plugin search paths are: ' || fail "no search path line"
	diff <(printf '2 Plugins Loaded:\n\n%s\n\n' "$LISTING") <(tail -n +2 "$TMP/o") || fail "-Il"
	like_ref -H "$SRC" -H "$EXT" -Il
	"$OURS" -H "$SRC" -H "$EXT" -l | grep -A5 'testsrc (plugin)' | grep -q '^testsrc.tag  ' || fail "-l lacks testsrc.tag"
	PART=1 like_ref -H "$SRC" -H "$EXT" -l
	PART=1 like_ref -H "$SRC" -H "$EXT" -lv
	PART=1 like_ref -H "$SRC" -H "$EXT" --list-markdown ;;
list_dir)	# without -H: every plugin of SYSDIG_PLUGIN_DIR
	export SYSDIG_PLUGIN_DIR=$TMP/dir
	"$OURS" -Il >"$TMP/o" || fail "exit $?"
	head -1 "$TMP/o" | grep -qF "Plugin search paths are: $TMP/dir/ " || fail "search paths: $(head -1 "$TMP/o")"
	grep -qx '2 Plugins Loaded:' "$TMP/o" || fail "not 2 plugins"
	like_ref -Il
	unset SYSDIG_PLUGIN_DIR
	"$OURS" -Il >"$TMP/o" || fail "exit $?"
	head -1 "$TMP/o" | grep -qE '^Plugin search paths are: /[^ ]*/sysdig-c/plugins/ $' || fail "search path: $(head -1 "$TMP/o")"
	cmp <(tail -n +2 "$TMP/o") <(printf '0 Plugins Loaded:\n\n\n') || fail "-Il without plugins: $(cat -A "$TMP/o")"
	like_ref -Il ;;
source_print)	# -I with open params, -H init config: the known events
	expect "1 2020-09-13 12:26:40 [testsrc] testsrc event: value=0
2 2020-09-13 12:26:40 [testsrc] testsrc event: value=3
3 2020-09-13 12:26:40 [testsrc] testsrc event: value=6" -H "$SRC:3" -I "$SRC:3"
	like_ref -H "$SRC:3" -I "$SRC:3"
	export SYSDIG_PLUGIN_DIR=$TMP/dir
	like_ref -H testsrc:5 -I testsrc:4
	export SYSDIG_PLUGIN_DIR=$TMP/dir
	[ "$("$OURS" -I testsrc:1000 | wc -l)" = 1000 ] || fail "-I testsrc:1000 is not 1000 events"
	like_ref -I testsrc:25 -p '%evt.num %evt.time %evt.datetime %evt.pluginname %evt.plugininfo'
	like_ref -I testsrc:9 -j -p '%evt.num %testsrc.value' ;;
source_fields)	# the source plugin's and the extractor's fields print
	export SYSDIG_PLUGIN_DIR=$TMP/dir
	expect "1 0 value=0 tag-x 7 VALUE=0 testsrc
2 1 value=1 tag-x 7 VALUE=1 testsrc" -I testsrc:2 -p "$F"
	like_ref -I testsrc:12 -p "$F" ;;
write_read)	# a capture from the source plugin written with -w and read back
	export SYSDIG_PLUGIN_DIR=$TMP/dir
	"$OURS" -I testsrc:50 -w "$TMP/o.scap" || fail "-w exit $?"
	expect "$("$OURS" -I testsrc:50)" -r "$TMP/o.scap"
	[ "$("$OURS" -r "$TMP/o.scap" 'testsrc.value>=40' | wc -l)" = 10 ] || fail "filter on the read-back file"
	# without the plugin loaded the events remain, unnamed
	unset SYSDIG_PLUGIN_DIR
	expect "1 2020-09-13 12:26:40 [<NA>] <NA>" -r "$TMP/o.scap" -n 1
	export SYSDIG_PLUGIN_DIR=$TMP/dir
	"$OURS" -I testsrc:50 -z -w "$TMP/z.scap" || fail "-w -z exit $?"
	cmp <("$OURS" -r "$TMP/z.scap") <("$OURS" -r "$TMP/o.scap") || fail "-z file differs"
	if [ -x "$REF" ]; then
		"$REF" -I testsrc:50 -w "$TMP/r.scap" >/dev/null 2>&1
		cmp "$TMP/o.scap" "$TMP/r.scap" || fail "our file differs from the reference's"
		echo "byte-identical to the reference's file"
		like_ref -r "$TMP/o.scap" -p "$F"
	fi ;;
extractor_filter)	# plugin fields in filters, both plugins
	export SYSDIG_PLUGIN_DIR=$TMP/dir
	expect "4 3 VALUE=3
8 7 VALUE=7" -I testsrc:10 -p '%evt.num %testsrc.value %testext.upper' 'testsrc.value in (3, 7) and testext.len=7'
	expect "11 10 8
12 11 8" -I testsrc:12 -p '%evt.num %testsrc.value %testext.len' 'testext.upper contains "=1" and testsrc.value>9 and testext.len>7'
	like_ref -I testsrc:30 'testext.upper startswith VALUE=2 or testsrc.tag[a]=tag-b'
	# an extractor field without its plugin loaded is unknown
	refused "testext.len" -H "$SRC" -I "$SRC:3" -p '%testext.len' ;;
open_params)	# -Il shows the init schema and the suggested open parameters
	# (value, or "value: desc") as the reference; malformed ones are one
	# line and no listing; an init config that is not JSON is refused when
	# the schema is a JSON schema
	export SYSDIG_PLUGIN_DIR=$TMP/dir
	export TESTSRC_SCHEMA='{"type":"object","properties":{"step":{"type":"integer"}}}'
	export TESTSRC_OPEN_PARAMS='[{"value":"10","desc":"ten events"},{"value":"3"},{"value":"1;2","desc":"two","separator":";"},{"value":"7","desc":""}]'
	"$OURS" -Il >"$TMP/o" || fail "exit $?"
	diff <(sed -n '/^Name: testsrc/,/^$/p' "$TMP/o") - <<EOT || fail "-Il of testsrc"
Name: testsrc
Description: Test source plugin emitting a known sequence
Contact: sysdig-c tests
Version: 1.2.3
Init Config Schema: $TESTSRC_SCHEMA
Type: source plugin
ID: 999
Suggested Open Params:
10: ten events
3
1;2: two
7

EOT
	like_ref -Il
	like_ref -H "$SRC:{\"step\":3}" -I "$SRC:2"
	refused "error in plugin testsrc: init config is not a valid json" -H "$SRC:abc" -I "$SRC"
	like_ref -H "$SRC:abc" -I "$SRC"
	TESTSRC_SCHEMA_TYPE=0 like_ref -H "$SRC:abc" -I "$SRC"
	TESTSRC_SCHEMA_TYPE=7 refused "error in plugin testsrc: get_init_schema returned an unknown schema type 7" -Il
	TESTSRC_SCHEMA_TYPE=7 like_ref -I testsrc
	for bad in '{"value":"1"}' '[{"desc":"x"}]' '[{"value":""}]' 'not json' '[{"value":"1"}] x'; do
		TESTSRC_OPEN_PARAMS=$bad like_ref -Il
	done
	TESTSRC_OPEN_PARAMS='{"value":"1"}' refused "error in plugin testsrc: list_open_params returned a non-array JSON" -Il
	TESTSRC_OPEN_PARAMS='[{"desc":"x"}]' refused "error in plugin testsrc: list_open_params has entry with no value" -Il
	TESTSRC_OPEN_PARAMS_RC=1 refused "error in plugin testsrc: list_open_params has error no open params today" -Il
	TESTSRC_OPEN_PARAMS_RC=1 like_ref -Il
	TESTSRC_OPEN_PARAMS=$bad like_ref -I testsrc:2 ;;
errors)	# bad plugins and parameters: one line, exit 1
	refused "cannot load plugin /nonexistent.so" -H /nonexistent.so -r /dev/null
	refused "plugin nosuch not loaded. Use -H to load it." -I nosuch
	# (sysdig 0.29.3 crashes on the next two; we refuse them)
	refused "is not a source plugin" -H "$EXT" -I "$EXT"
	refused "plugin testsrc not loaded. Use -H to load it." -H "$SRC" -I testsrc
	SYSDIG_PLUGIN_DIR=$TMP/dir refused "plugin libtestsrc not found. Use -Il to list all installed plugins." -H libtestsrc
	refused "cannot open plugin testsrc: bad open params 'x'" -H "$SRC" -I "$SRC:x"
	refused "cannot load plugin $SRC: Could not initialize plugin: bad init config 'abc'" -H "$SRC:abc" -I "$SRC"
	refused "could not read or find configuration file" --plugin-config-file /nonexistent
	printf 'plugins:\n  - name: testsrc\n    library_path: %s\n    init_config: "2"\n    open_params: "3"\n  - name: testext\n    library_path: %s\nload_plugins: [testsrc]\n' "$SRC" "$EXT" >"$TMP/falco.yaml"
	expect "1 2020-09-13 12:26:40 [testsrc] testsrc event: value=0
2 2020-09-13 12:26:40 [testsrc] testsrc event: value=2
3 2020-09-13 12:26:40 [testsrc] testsrc event: value=4" --plugin-config-file "$TMP/falco.yaml"
	refused "cannot be mixed" --plugin-config-file "$TMP/falco.yaml" -H "$SRC"
	echo "not a plugin" >"$TMP/dir/libbroken.so"
	SYSDIG_PLUGIN_DIR=$TMP/dir refused "cannot load plugin" -Il ;;
init_schema)	# the init config is checked against the plugin's JSON schema:
	# the first failure (enum, items, properties in name order, required,
	# type) with its path, in the reference's words; an empty config is
	# checked as {}
	export TESTSRC_SCHEMA='{"type":"object","required":["step","mode"],"properties":{"step":{"type":"integer"},"mode":{"type":"string","enum":["fast","slow"]},"tags":{"type":"array","items":{"type":"string"}},"opt":{"type":"object","properties":{"on":{"type":"boolean"}}}}}'
	E="error in plugin testsrc init config: In <root>"
	refused "$E[mode], Failed to match against any enum values." -H "$SRC:{\"step\":\"3\",\"mode\":\"x\"}" -I "$SRC"
	refused "$E[step], Value type not permitted by 'type' constraint." -H "$SRC:{\"step\":\"3\",\"mode\":\"fast\"}" -I "$SRC"
	refused "$E[step], Value type not permitted by 'type' constraint." -H "$SRC:{\"mode\":\"fast\",\"step\":1.5}" -I "$SRC"
	refused "$E[mode], Failed to match against any enum values." -H "$SRC:{\"mode\":3}" -I "$SRC"
	refused "$E[tags][1], Value type not permitted by 'type' constraint." -H "$SRC:{\"step\":1,\"mode\":\"fast\",\"tags\":[\"a\",2]}" -I "$SRC"
	refused "$E[opt][on], Value type not permitted by 'type' constraint." -H "$SRC:{\"step\":1,\"mode\":\"fast\",\"opt\":{\"on\":1}}" -I "$SRC"
	refused "$E, Missing required property 'mode'." -H "$SRC:{}" -I "$SRC"
	refused "$E, Missing required property 'mode'." -H "$SRC" -I "$SRC"
	refused "$E, Value type not permitted by 'type' constraint." -H "$SRC:[1]" -I "$SRC"
	expect "1 2020-09-13 12:26:40 [testsrc] testsrc event: value=0
2 2020-09-13 12:26:40 [testsrc] testsrc event: value=3" -H "$SRC:{\"step\":3,\"mode\":\"slow\",\"tags\":[\"a\"],\"opt\":{\"on\":true}}" -I "$SRC:2"
	for cfg in '{"step":"3","mode":"x"}' '{"mode":3}' '{"step":1,"mode":"fast","tags":["a",2]}' '{}' '[1]' '{"step":2.0,"mode":"fast"}' '{"step":3,"mode":"slow"}'; do
		like_ref -H "$SRC:$cfg" -I "$SRC:2"
	done
	like_ref -H "$SRC" -I "$SRC:2"
	TESTSRC_SCHEMA='{"type":["integer","string"],"enum":[2,"x"]}' like_ref -H "$SRC:true" -I "$SRC:2"
	TESTSRC_SCHEMA='{"type":["integer","string"],"enum":[2,"x"]}' like_ref -H "$SRC:2" -I "$SRC:2"
	TESTSRC_SCHEMA='{"enum":[{"a":[1]}]}' like_ref -H "$SRC:{\"a\":[2]}" -I "$SRC:2"
	# the other draft 7 keywords (not $ref, format, propertyNames): one
	# failing config each, a few in combination (the first in keyword order)
	TESTSRC_SCHEMA='{"type":"integer","minimum":5}' refused "$E, Expected number greater than or equal to 5.000000" -H "$SRC:3" -I "$SRC"
	TESTSRC_SCHEMA='{"type":"object","additionalProperties":false,"properties":{"a":{}}}' \
		refused "$E, Object contains a property that could not be validated using 'properties' or 'additionalProperties' constraints: 'b'." -H "$SRC:{\"b\":1}" -I "$SRC"
	TESTSRC_SCHEMA='{"type":"array","uniqueItems":true}' refused "$E, Elements at indexes #0 and #1 violate uniqueness constraint." -H "$SRC:[1,1]" -I "$SRC"
	while IFS='|' read -r sch cfg; do
		TESTSRC_SCHEMA=$sch like_ref -H "$SRC:$cfg" -I "$SRC:2"
	done <<'EOS'
{"type":"integer","minimum":5}|3
{"type":"integer","minimum":5}|7
{"type":"integer","maximum":5}|7
{"type":"integer","exclusiveMinimum":5}|5
{"type":"integer","multipleOf":3}|4
{"type":"number","multipleOf":0.5}|0.7
{"type":"integer","minimum":2.5}|1
{"type":"string","minLength":3}|"ab"
{"type":"string","maxLength":1}|"ab"
{"type":"string","pattern":"^a"}|"ba"
{"type":"array","minItems":2}|[1]
{"type":"array","maxItems":1}|[1,2]
{"type":"array","uniqueItems":true}|[1,1]
{"type":"array","contains":{"type":"string"}}|[1]
{"type":"object","additionalProperties":false,"properties":{"a":{}}}|{"b":1}
{"type":"object","additionalProperties":{"type":"string"}}|{"z":1}
{"type":"object","patternProperties":{"^x":{"type":"string"}}}|{"xa":1}
{"type":"object","minProperties":1}|{}
{"type":"object","maxProperties":0}|{"a":1}
{"type":"object","dependencies":{"a":["b"]}}|{"a":1}
{"const":3}|4
{"anyOf":[{"type":"string"},{"type":"boolean"}]}|3
{"anyOf":[{"minimum":5},{"type":"string"}]}|3
{"oneOf":[{"type":"integer"},{"minimum":0}]}|3
{"oneOf":[{"type":"string"},{"type":"boolean"}]}|3
{"allOf":[{"type":"integer"},{"minimum":5}]}|3
{"not":{"type":"integer"}}|3
{"if":{"type":"integer"},"then":{"minimum":5}}|3
{"type":"string","minimum":5,"maxLength":1}|3
{"type":"integer","minimum":5,"enum":[1]}|3
{"type":"integer","minimum":1,"uniqueItems":true,"not":{"const":2}}|2
EOS
	;;
*) fail "unknown test $t" ;;
esac
echo "plugin.$t passed"
