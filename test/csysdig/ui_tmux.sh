#!/bin/sh
# ui_tmux.sh CSYSDIG [live]: drives csysdig's interface in a detached tmux
# (180x45) with send-keys and checks the screen with capture-pane: start
# screen, F2 menu, drill-down and back, F4 filter, F5/F6 windows, sorting,
# quit and SIGTERM restoring the terminal.  With "live" (root + BPF): the
# live system with a workload we start.  Exit 77 (skip) without tmux, or
# for live without root or a working live capture.
bin=$1; mode=${2:-file}
here=$(cd "$(dirname "$0")" && pwd)
trace=$here/../traces/ref029_light.scap
command -v tmux >/dev/null || { echo "SKIP: tmux is not installed"; exit 77; }
tmp=$(mktemp -d) || exit 1
export TMUX_TMPDIR=$tmp	# a private tmux server
wl_pid=
cleanup() {
	tmux kill-server 2>/dev/null
	for n in "$tmp"/tmux-*/*; do [ -S "$n" ] && tmux -S "$n" kill-server 2>/dev/null; done
	[ -n "$wl_pid" ] && kill "$wl_pid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
fail=0
screen() { tmux capture-pane -t "$sess" -p; }
keys() { tmux send-keys -t "$sess" "$@"; sleep "${KEY_WAIT:-1}"; }
# mouse_ev BUTTON X Y: an xterm (X10) mouse report, 0-based cell; 3 is a release
mouse_ev() {
	tmux send-keys -t "$sess" -l "$(printf '\033[M%b%b%b' "\\0$(printf %o $((32 + $1)))" \
		"\\0$(printf %o $((33 + $2)))" "\\0$(printf %o $((33 + $3)))")"
}
click() { mouse_ev 0 "$1" "$2"; mouse_ev 3 "$1" "$2"; sleep 0.1; }
# wait_for TEXT [SECONDS]: until the screen shows TEXT
wait_for() {
	n=$(( ${2:-15} * 5 ))
	while [ $n -gt 0 ]; do
		screen | grep -qF -- "$1" && return 0
		sleep 0.2; n=$((n - 1))
	done
	return 1
}
check() {	# check NAME TEXT: the screen shows TEXT
	if wait_for "$2" "${3:-10}"; then
		echo "ok   $1"
	else
		echo "FAIL $1: '$2' not on the screen:"; screen | sed 's/^/     | /'
		[ -f "$tmp/csysdig.log" ] && sed 's/^/     log: /' "$tmp/csysdig.log"
		fail=1
	fi
}
check_not() {
	sleep 0.5
	if screen | grep -qF -- "$2"; then
		echo "FAIL $1: '$2' still on the screen:"; screen | sed 's/^/     | /'
		fail=1
	else
		echo "ok   $1"
	fi
}
nsess=0
new_session_name() {	# every run gets its own session: none is killed before the end
	nsess=$((nsess + 1)); sess=csysdig_test_$$_$nsess
}
start() {	# start ARGS...: csysdig in a new session, then the tty state
	new_session_name
	cat > "$tmp/run.sh" <<EOS
stty -a > "$tmp/stty.before"
"$bin" $*
echo "EXITED rc=\$?"
stty -a > "$tmp/stty.after"
sleep 600
EOS
	tmux new-session -d -s "$sess" -x 180 -y 45 "sh $tmp/run.sh"
}
restored() {	# restored NAME: csysdig exited and the terminal is as before
	check "$1: exited" "EXITED rc=0"
	sleep 0.5
	if cmp -s "$tmp/stty.before" "$tmp/stty.after" && ! screen | grep -qF "F1Help"; then
		echo "ok   $1: terminal restored (stty identical, screen cleared)"
	else
		echo "FAIL $1: terminal not restored"; diff "$tmp/stty.before" "$tmp/stty.after"; screen | sed 's/^/     | /'
		fail=1
	fi
}

if [ "$mode" = live ]; then
	[ "$(id -u)" = 0 ] || { echo "SKIP: live csysdig needs root"; exit 77; }
	timeout 10 "$bin" --raw -n 50 -v procs >/dev/null 2>"$tmp/live.err" ||
		{ echo "SKIP: no live capture here: $(head -1 "$tmp/live.err")"; exit 77; }
	# the workload: a long-lived shell with a name of its own writing a file
	cp /bin/sh "$tmp/cswl_sh"
	"$tmp/cswl_sh" -c "while :; do echo csysdig-live-test > $tmp/out; sleep 0.1; done" &
	wl_pid=$!
	start -d 500 --logfile "$tmp/csysdig.log"
	check "live: start screen" "Source: Live System"
	# F4 F2: a sysdig filter, typed over the header's
	keys F4; keys F2; for i in $(seq 30); do tmux send-keys -t "$sess" BSpace; done
	keys "proc.name=cswl_sh" Enter
	check "live: workload rows" "cswl_sh -c while" 20
	keys F4; for i in $(seq 30); do tmux send-keys -t "$sess" BSpace; done
	keys "proc.pid=$wl_pid" Enter
	# the live capture restarts (the driver loads again): the header shows
	# the new filter once it is up, then a sample brings the row
	check "live: filter restarted" "Filter: proc.pid=$wl_pid" 20
	check "live: the workload's row" "cswl_sh -c while" 20
	keys Enter
	check "live: drill-down to its threads" "Threads For: proc.pid=$wl_pid"
	keys BSpace
	keys F5
	check "live: F5 echo of the workload's writes" "------ Write 18B to $tmp/out (cswl_sh)" 20
	check "live: F5 data" "csysdig-live-test"
	keys BSpace
	keys F6
	check "live: F6 events of the workload" "cswl_sh ($wl_pid) < write" 20
	keys BSpace
	keys q
	restored "live: quit"
	exit $fail
fi

start -r "$trace"
check "start screen: title" "Viewing: Processes For: whole machine"
check "start screen: columns" "   PID   PPID     CPU USER          TH"
check "start screen: rows" "/bin/busybox sh /init"
check "start screen: function keys" "F1Help  F2Views F4FilterF5Echo  F6Dig   F7Legend"
# SIGWINCH: a smaller window is redrawn to its size (function keys on its last line)
tmux resize-window -t "$sess" -x 100 -y 30 2>/dev/null || tmux resize-pane -t "$sess" -x 100 -y 30
sleep 1.5
last=$(screen | sed -n 30p)
case $last in
F1Help*) echo "ok   SIGWINCH: redrawn at 100x30" ;;
*) echo "FAIL SIGWINCH: line 30 is '$last'"; screen | sed 's/^/     | /'; fail=1 ;;
esac
tmux resize-window -t "$sess" -x 180 -y 45 2>/dev/null || tmux resize-pane -t "$sess" -x 180 -y 45
sleep 1
keys F2
check "F2: view menu" "Select View"
check "F2: description of the highlighted view" "Processes with their CPU, memory"
check "F2: columns of the highlighted view" "PPID: Parent process id."
keys Down
check "F2: moving the highlight shows the next view" "Processes by CPU use, split into user"
keys Escape
check_not "F2: closed" "Select View"
keys Enter
check "drill-down: threads of the selected process" "Viewing: Threads For: proc.pid=338"
check "drill-down: its filter" "(evt.type!=switch) and proc.pid=338"
keys BSpace
check "back: processes again" "Viewing: Processes For: whole machine"
# F4 as the reference's: free text matched against the rows as it is
# typed (the header keeps the event filter), F2 in the prompt for a sysdig
# filter that starts from the header's and replaces it
keys F4; keys "/bin/cat"
check "F4: the text filter's bar" "F1Help  F2sysdigEnterDone  EscClear  Text to match: /bin/cat"
check "F4: rows matching the text as it is typed" "/bin/cat /etc/passwd"
check_not "F4: other rows gone" "/bin/ls /"
keys Enter
check "F4: the header keeps the event filter" "(62183 evts, 5.00s) Filter: evt.type!=switch"
check_not "F4: no text in the header" "Text:"
keys F4; keys Escape
check "F4 Esc: the text cleared" "/bin/ls /"
keys F4; keys F2
check "F4 F2: a sysdig filter, from the header's" "F1Help  F2Text  EnterDone  EscClear  Expression: evt.type!=switch"
for i in $(seq 16); do tmux send-keys -t "$sess" BSpace; done
keys "proc.name=cat" Enter
check "F4 F2: the sysdig filter replaces the view's" "(62183 evts, 5.00s) Filter: proc.name=cat"
check "F4 F2: matching rows" "/bin/cat /etc/passwd"
check_not "F4 F2: other rows gone" "/bin/ls /"
keys F4; keys ")" Enter
check "F4 F2: an invalid filter is refused" "Invalid sysdig filter"
keys Escape
check "F4 Esc: the sysdig filter stays" "Filter: proc.name=cat"
keys c
check "c: filter cleared" "/bin/ls /"
keys '\'; keys F2; keys "sysdig -v"
check "\\: back to text, rows matching it" "sysdig -v -w"
check_not "\\: the text hides rows" "/bin/ls /"
keys Enter; keys c
check "c: text cleared" "/bin/ls /"
keys /; keys "/bin/ls" Enter
keys F5
check "F5: echo window" "I/O echo For: whole machine"
check "F5: the selection's writes" "------ Write 64B to /dev/null (ls)"
keys BSpace
check "F5 closed" "Viewing: Processes"
keys F6
check "F6: sysdig events window" "sysdig events For: whole machine"
check "F6: events of the selection" "ls ("
keys BSpace
check "F6 closed" "Viewing: Processes"
keys '!'
# sorted by PID, descending: the first row has the largest PID
first=$(screen | sed -n 4p | awk '{print $1}'); second=$(screen | sed -n 5p | awk '{print $1}')
if [ -n "$first" ] && [ -n "$second" ] && [ "$first" -gt "$second" ]; then
	echo "ok   Shift+1: sorted by PID, descending ($first > $second)"
else
	echo "FAIL Shift+1: rows not sorted by PID: $first, $second"; fail=1
fi
keys '!'
first=$(screen | sed -n 4p | awk '{print $1}'); second=$(screen | sed -n 5p | awk '{print $1}')
if [ -n "$first" ] && [ "$first" -lt "$second" ]; then
	echo "ok   Shift+1 again: ascending ($first < $second)"
else
	echo "FAIL Shift+1 again: not ascending: $first, $second"; fail=1
fi
keys F9
check "F9: sort menu" "Sort by"
keys Escape
keys F1
check "F1: help" "drill down into the selected row"
keys x
keys F7
check "F7: view information" "Action Hotkeys"
keys x
# the mouse: a click on a column header sorts by it (again: the other way),
# a double click on a row drills down into it, a click on the key bar
pidx=$(screen | sed -n 3p | grep -bo "PID" | head -1 | cut -d: -f1)
click "$pidx" 2; sleep 1
first=$(screen | sed -n 4p | awk '{print $1}'); second=$(screen | sed -n 5p | awk '{print $1}')
click "$pidx" 2; sleep 1
first2=$(screen | sed -n 4p | awk '{print $1}'); second2=$(screen | sed -n 5p | awk '{print $1}')
if [ -n "$first" ] && [ -n "$first2" ] && { [ "$first" -gt "$second" ] && [ "$first2" -lt "$second2" ] ||
	{ [ "$first" -lt "$second" ] && [ "$first2" -gt "$second2" ]; }; }; then
	echo "ok   mouse: a click on the PID header sorts ($first, $second), again reverses ($first2, $second2)"
else
	echo "FAIL mouse: header clicks did not sort by PID: $first $second then $first2 $second2"; fail=1
fi
row_pid=$(screen | sed -n 6p | awk '{print $1}')
click 10 5; click 10 5
check "mouse: a double click drills down into the row" "Viewing: Threads For: proc.pid=$row_pid"
keys BSpace
check "mouse: back" "Viewing: Processes For: whole machine"
fx=$(screen | sed -n 45p | grep -bo "F2Views" | cut -d: -f1)
click "$((fx + 3))" 44
check "mouse: a click on F2Views opens the view menu" "Select View"
keys Escape
# F8: the view's actions on the selected row, run outside the interface as
# the reference runs them (confirmation asked on the terminal)
sel_pid=$row_pid	# the selection is back on the row
keys F8
check "F8: actions menu" "Select Action"
check "F8: the view's actions with their hotkeys" "(9) kill -9"
keys k
check "F8 k: confirmation with the row's pid" "Confirm command 'kill $sel_pid'? [y/N]"
keys n Enter
check "F8 k, n: not run, back in the view" "Viewing: Processes For: whole machine"
keys F8; keys f
check "F8 f: the command ran, csysdig waits" "Command finished. Press ENTER to return to csysdig."
keys Enter
check "F8 f, Enter: back in the view" "Viewing: Processes For: whole machine"
keys q
restored "quit with q"

# the spectrogram (F12, spectro_all), drawn as the reference draws it: the
# screens of both, cell by cell with their colors (screen_cells.py), in
# 256-color terminals; a small window stops at each screenful until SPACE
ref=/usr/bin/csysdig
spectro_shot() {	# spectro_shot BIN NAME W H ARGS...: start on its own tmux server
	tmux -L "$2" new-session -d -s "$2" -x "$3" -y "$4" \
		"TERM=tmux-256color $1 -r $trace $(shift 4; echo "$*"); echo EXITED rc=\$?; sleep 600"
}
spectro_cells() {	# spectro_cells NAME: its screen as cells
	tmux -L "$1" capture-pane -t "$1" -p -e > "$tmp/$1.screen"
	python3 "$here/screen_cells.py" "$tmp/$1.screen"
}
spectro_settle() {	# spectro_settle NAME TEXT: TEXT on the screen, the screen still for 1.5 s
	tries=90 prev= still=0
	while [ $tries -gt 0 ]; do
		cur=$(tmux -L "$1" capture-pane -t "$1" -p -e)
		if [ "$cur" = "$prev" ]; then still=$((still + 1)); else still=0; fi
		if [ $still -ge 3 ] && tmux -L "$1" capture-pane -t "$1" -p | grep -q "$2"; then
			return 0
		fi
		prev=$cur
		sleep 0.5; tries=$((tries - 1))
	done
	return 1
}
spectro_run() {	# spectro_run BIN NAME W H KEYS ARGS...: the screen after KEYS
	sn=$2 sk=$5
	spectro_shot "$1" "$2" "$3" "$4" $(shift 5; echo "$*")
	spectro_settle "$sn" "^F1Help" || return 1
	if [ -n "$sk" ]; then tmux -L "$sn" send-keys -t "$sn" $sk; sleep 1; fi
	spectro_settle "$sn" "^F1Help  F2Views p Pause"
}
nspectro=0
spectro_case() {	# spectro_case NAME W H KEYS ARGS...: ours vs the reference
	name=$1 w=$2 h=$3 k=$4; shift 4
	nspectro=$((nspectro + 1)); o=ours$nspectro; r=refs$nspectro	# a tmux server each
	spectro_run "$bin" $o "$w" "$h" "$k" "$@" ||
		{ echo "FAIL spectrogram $name: not drawn"; tmux -L $o capture-pane -t $o -p | sed 's/^/     | /'; fail=1; }
	spectro_cells $o > "$tmp/ours.cells"
	rows=$(grep -c "/[1-9]" "$tmp/ours.cells")
	axis=$(tmux -L $o capture-pane -t $o -p | sed -n "$((h - 2))p")
	case $axis in
	"|1ns "*"|10ns "*"|1.00us "*"|1.00s "*"|10.00s"*) echo "ok   spectrogram $name: latency axis, $rows colored lines" ;;
	*) echo "FAIL spectrogram $name: axis line is '$axis'"; fail=1 ;;
	esac
	[ "$rows" -ge 5 ] || { echo "FAIL spectrogram $name: only $rows colored lines"; fail=1; }
	if [ -x "$ref" ]; then
		spectro_run "$ref" $r "$w" "$h" "$k" "$@"
		spectro_cells $r > "$tmp/ref.cells"
		if cmp -s "$tmp/ref.cells" "$tmp/ours.cells"; then
			echo "ok   spectrogram $name: the reference's screen, cell by cell"
		else
			echo "FAIL spectrogram $name: differs from the reference's (< reference, > ours):"
			diff "$tmp/ref.cells" "$tmp/ours.cells" | cut -c1-160 | head -20; fail=1
		fi
		tmux -L $r kill-server 2>/dev/null
	else
		echo "SKIP spectrogram $name: no reference csysdig to compare the screen with"
	fi
	tmux -L $o kill-server 2>/dev/null
}
# the start screen (procs) and the threads view, ours vs the reference, cell
# by cell with colors: the title, source and filter line, the column
# header, the function keys with the row counter, and the first ROWS rows
# (the ones above the first tie of the sort column: tied rows come in the
# reference's hash order)
nscreen=0
screen_case() {	# screen_case NAME TRACE ROWS ARGS...
	name=$1 st=$2 nrows=$3; shift 3
	nscreen=$((nscreen + 1)); o=screen_ours$nscreen; r=screen_refs$nscreen
	for b in "$bin:$o" "$ref:$r"; do
		tmux -L "${b#*:}" new-session -d -s "${b#*:}" -x 180 -y 45 \
			"TERM=tmux-256color ${b%:*} -r $st $*; echo EXITED rc=\$?; sleep 600"
		spectro_settle "${b#*:}" "^F1Help" ||
			{ echo "FAIL screen $name: ${b%:*} drew no screen"; fail=1; }
		spectro_cells "${b#*:}" | sed -n "1,$((3 + nrows))p;45p" > "$tmp/${b#*:}.cells"
		tmux -L "${b#*:}" kill-server 2>/dev/null
	done
	if cmp -s "$tmp/$r.cells" "$tmp/$o.cells"; then
		echo "ok   screen $name: the reference's header, $nrows rows and function keys, cell by cell"
	else
		echo "FAIL screen $name: differs from the reference's (< reference, > ours):"
		diff "$tmp/$r.cells" "$tmp/$o.cells" | cut -c1-160 | head -20; fail=1
	fi
}
# keys_case NAME LINES KEYS...: both on the stock view files (csysdig
# arguments in $kargs), the screen lines LINES (sed) after KEYS, cell by
# cell with the reference's
nkeys=0
keys_case() {
	name=$1 lines=$2; shift 2
	nkeys=$((nkeys + 1)); o=keys_ours$nkeys; r=keys_refs$nkeys
	for b in "$bin:$o" "$ref:$r"; do
		tmux -L "${b#*:}" new-session -d -s "${b#*:}" -x 180 -y 45 \
			"TERM=tmux-256color SYSDIG_CHISEL_DIR=/usr/share/sysdig/chisels ${b%:*} -r $trace $kargs; echo EXITED rc=\$?; sleep 600"
		spectro_settle "${b#*:}" "^F1Help" || { echo "FAIL keys $name: ${b%:*} drew no screen"; fail=1; }
		for k in "$@"; do tmux -L "${b#*:}" send-keys -t "${b#*:}" "$k"; sleep 0.3; done
		sleep 1.5
		spectro_cells "${b#*:}" | sed -n "$lines" > "$tmp/${b#*:}.cells"
		tmux -L "${b#*:}" kill-server 2>/dev/null
	done
	if [ -s "$tmp/$r.cells" ] && cmp -s "$tmp/$r.cells" "$tmp/$o.cells"; then
		echo "ok   keys $name: the reference's screen, cell by cell"
	else
		echo "FAIL keys $name: differs from the reference's (< reference, > ours):"
		diff "$tmp/$r.cells" "$tmp/$o.cells" | cut -c1-160 | head -20; fail=1
	fi
}
if ! command -v python3 >/dev/null; then
	echo "SKIP screen: python3 missing"
elif [ -x "$ref" ]; then
	keys_case "F4 text typed" "1,2p;45p" F4 c a t
	keys_case "F4 text matching no row" "1,4p;45p" F4 p r o c . n a m e = c a t Enter
	keys_case "F4 F2 sysdig filter" "1,2p;45p" F4 F2 BSpace BSpace BSpace BSpace BSpace BSpace \
		BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace p r o c . n a m e = c a t Enter
	keys_case "F4 F2 prompt" "1,2p;45p" F4 F2
	keys_case "F7 procs" "1,45p" F7
	kargs="-v io_by_type" keys_case "F7 io_by_type (a view without a filter)" "1,45p" F7
	kargs="-v connections" keys_case "F7 connections" "1,45p" F7
	screen_case "procs on ref029_light" "$trace" 2
	screen_case "procs on cat_write" "$here/../traces/cat_write.scap" 2
	screen_case "threads on ref029_light" "$trace" 2 -v threads
	screen_case "threads on cat_write" "$here/../traces/cat_write.scap" 2 -v threads
else
	echo "SKIP screen: no reference csysdig to compare the screen with"
fi
if command -v python3 >/dev/null; then
	spectro_case "spectro_all 180x45" 180 45 "" -v spectro_all
	spectro_case "F12 on the selected process" 120 30 F12
	spectro_case "a screenful (120x12) stops" 120 12 "" -v spectro_all
	spectro_run "$bin" oursmore 120 12 "" -v spectro_all
	if tmux -L oursmore capture-pane -t oursmore -p | grep -q "DrillDownSPACEMore"; then
		echo "ok   spectrogram: SPACE More after a screenful"
	else
		echo "FAIL spectrogram: no SPACE More after a screenful"; fail=1
	fi
	tmux -L oursmore kill-server 2>/dev/null
	spectro_case "the next screenful after SPACE" 120 12 Space -v spectro_all
else
	echo "SKIP spectrogram: python3 missing"
fi

# a terminal that cannot address the cursor: the view as text instead
new_session_name
tmux new-session -d -s "$sess" -x 80 -y 24 "TERM=dumb $bin -r $here/../traces/cat_write.scap -v io_by_type 2>$tmp/dumb.err; echo EXITED rc=\$?; sleep 600"
check "TERM=dumb: the view's rows as text" "    277.33       0.00       8.00       28us file"
check "TERM=dumb: exit status" "EXITED rc=0"
if grep -q "cannot show the interface; printing the view as with --raw" "$tmp/dumb.err"; then
	echo "ok   TERM=dumb: notice on stderr"
else
	echo "FAIL TERM=dumb: no notice: $(cat "$tmp/dumb.err")"; fail=1
fi

start -r "$trace"
check "SIGTERM: started" "Viewing: Processes"
pkill_pid=$(pgrep -n -f "^$bin -r $trace")
[ -n "$pkill_pid" ] && kill -TERM "$pkill_pid"
restored "SIGTERM"
exit $fail
