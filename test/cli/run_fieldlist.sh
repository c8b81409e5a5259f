#!/bin/bash
# run_fieldlist.sh - our -l / -lv / --list-markdown list the same fields
# (and with -lv/markdown the same types) in the same classes and order as
# the reference listing; the descriptions are our own wording.
# usage: run_fieldlist.sh SYSDIG GOLDEN OPTION
set -u
sysdig=$1 golden=$2 opt=$3
key() {
	if [ "$opt" = --list-markdown ]; then
		grep -E '^(## |`)' | sed -E 's/^(`[^`]*` \| [A-Z0-9_]*) \|.*/\1/'
	else
		grep -E '^(Field Class:|[a-z][a-z0-9_.]*( |$))' | sed -E 's/^(Field Class: *.*|[a-z][a-z0-9_.]*)( +\(Type: [A-Z0-9_]*\))?.*/\1\2/'
	fi
}
# fields of our own say [sysdig-c] in their description: not in the reference
diff <("$sysdig" $opt | grep -v "\[sysdig-c\]" | key) <(key <"$golden") && exit 0
exit 1
