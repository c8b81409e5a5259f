#!/bin/bash
# completion_test.sh - the bash completion of sysdig-c, loaded into a plain
# bash: registered for the program (complete -p), completes chisel names
# after -c and -i, fields after -p (%field) and in the filter, options, and
# the zsh file parses (zsh -n, when zsh is installed).
# usage: completion_test.sh BUILD
BUILD=$1
W=$(mktemp -d /tmp/sysdigc-compl.XXXXXX)
trap 'rm -rf "$W"' EXIT
FAILS=0
fail() { echo "FAIL: $*"; FAILS=$((FAILS + 1)); }
ln -s "$BUILD/userspace/sysdig/sysdig" "$W/sysdig-c"
COMPL=$BUILD/packaging/completion/bash/sysdig-c
# complete WORD... : what TAB offers for the last word
complete_words() {
	PATH=$W:$PATH bash --norc --noprofile -c '
		. "$1"; shift
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		_sysdig_c sysdig-c "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
		printf "%s\n" "${COMPREPLY[@]}"' _ "$COMPL" "$@" | sort | tr '\n' ' ' | sed 's/ $//'
}
expect() {	# expect "WANT" WORD...
	local want=$1 got
	shift
	got=$(complete_words "$@")
	if [ "$got" = "$want" ]; then echo "ok: '$*' -> $got"; else fail "'$*' -> '$got', want '$want'"; fi
}
reg=$(bash --norc --noprofile -c ". '$COMPL'; complete -p sysdig-c")
[ "$reg" = "complete -o default -F _sysdig_c sysdig-c" ] && echo "ok: $reg" || fail "complete -p: $reg"
expect "topprocs_cpu topprocs_errors topprocs_file topprocs_net" sysdig-c -c topprocs_
expect "spy_users" sysdig-c -r x.scap -i spy_us
expect "%proc.name" sysdig-c -p %proc.nam
expect "%evt.num %proc.name" sysdig-c -p "%evt.num %proc.nam"
expect "fd.name fd.name_changed" sysdig-c -r x.scap fd.nam
expect "--chisel --chisel-info" sysdig-c --chis
expect "d" sysdig-c -t d
if command -v zsh >/dev/null; then
	zsh -n "$BUILD/packaging/completion/zsh/_sysdig-c" && echo "ok: zsh completion parses" || fail "zsh -n"
fi
[ $FAILS -eq 0 ] && echo "completion: all passed" && exit 0
exit 1
