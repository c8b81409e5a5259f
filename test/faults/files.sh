#!/bin/bash
# files.sh SYSDIG DATA: -r X -w X is refused (also through another name of
# the same inode and as a -C file name) and X stays intact; -r of a
# directory or /proc/self/mem says what is wrong; -C N files stay within N
# MB counting every byte, and together hold every event; capture files are
# created 0600 (an existing file keeps its mode); a symlink that another
# user planted in a sticky directory is refused (needs root for the chown).
. "$(dirname "$0")/lib.sh"
sysdig=$1 data=$2
trace=$data/traces/ref029_light.scap

cp "$data/traces/cat_write.scap" "$TMP/x.scap"
sum=$(md5sum <"$TMP/x.scap")
"$sysdig" -r "$TMP/x.scap" -w "$TMP/x.scap" 2>"$TMP/err"
one_line_error $? "$TMP/err" "it is the input file"
ln "$TMP/x.scap" "$TMP/hard.scap"
"$sysdig" -r "$TMP/hard.scap" -w "$TMP/x.scap" 2>"$TMP/err"
one_line_error $? "$TMP/err" "it is the input file"
cp "$TMP/x.scap" "$TMP/y.scap0"
"$sysdig" -r "$TMP/y.scap0" -w "$TMP/y.scap" -C 1 2>"$TMP/err"
one_line_error $? "$TMP/err" "it is the input file"
[ "$(md5sum <"$TMP/x.scap")" = "$sum" ] || fail "the input was changed"
"$sysdig" -r "$TMP/x.scap" >/dev/null || fail "the input no longer reads"
echo "-r X -w X refused (same name, hard link, -C name); X intact"

mkdir "$TMP/dir"
"$sysdig" -r "$TMP/dir" >"$TMP/out" 2>"$TMP/err"
one_line_error $? "$TMP/err" "is a directory"
"$sysdig" -r /proc/self/mem >"$TMP/out" 2>"$TMP/err"
one_line_error $? "$TMP/err" "Input/output error"
echo "-r DIR: $(cat "$TMP/err")"

"$sysdig" -r "$trace" -w "$TMP/c.scap" -C 1 2>"$TMP/err" || fail "-C 1: $(cat "$TMP/err")"
n=0 args=()
for f in "$TMP"/c.scap*; do
	size=$(stat -c %s "$f")
	[ "$size" -le 1000000 ] || fail "-C 1: $f has $size bytes"
	args+=(-r "$f")
	n=$((n + 1))
done
[ "$n" -ge 3 ] || fail "-C 1: only $n files"
want=$("$sysdig" -r "$trace" -p "%evt.type" | wc -l)
got=$("$sysdig" "${args[@]}" -p "%evt.type" | wc -l)
[ "$got" = "$want" ] || fail "-C 1: the $n files hold $got events, the input $want"
echo "-C 1: $n files of at most 1,000,000 bytes, $got events as in the input"

(umask 000 && "$sysdig" -r "$data/traces/cat_write.scap" -w "$TMP/m.scap") || fail "-w failed"
[ "$(stat -c %a "$TMP/m.scap")" = 600 ] || fail "new capture file mode $(stat -c %a "$TMP/m.scap")"
touch "$TMP/shared.scap" && chmod 644 "$TMP/shared.scap"
"$sysdig" -r "$data/traces/cat_write.scap" -w "$TMP/shared.scap" || fail "-w failed"
[ "$(stat -c %a "$TMP/shared.scap")" = 644 ] || fail "existing file mode changed"
"$sysdig" -r "$data/traces/cat_write.scap" -z -w "$TMP/z.scap" || fail "-w -z failed"
[ "$(stat -c %a "$TMP/z.scap")" = 600 ] || fail "new -z file mode $(stat -c %a "$TMP/z.scap")"
echo "modes: new files 0600 (umask 000 too), an existing 0644 file kept"

if [ "$(id -u)" != 0 ]; then
	echo "symlink part left out: needs root (chown)"
	exit 0
fi
mkdir -m 1777 "$TMP/sticky"
echo secret >"$TMP/victim"
ln -s "$TMP/victim" "$TMP/sticky/planted.scap"
chown -h nobody "$TMP/sticky/planted.scap"
"$sysdig" -r "$data/traces/cat_write.scap" -w "$TMP/sticky/planted.scap" 2>"$TMP/err"
one_line_error $? "$TMP/err" "symlink owned by another user in a sticky directory"
[ "$(cat "$TMP/victim")" = secret ] || fail "the symlink's target was written"
ln -s "$TMP/mine.scap" "$TMP/sticky/own.scap"
"$sysdig" -r "$data/traces/cat_write.scap" -w "$TMP/sticky/own.scap" || fail "own symlink refused"
[ -s "$TMP/mine.scap" ] || fail "own symlink not followed"
echo "symlinks: another user's in a sticky dir refused, our own followed"
