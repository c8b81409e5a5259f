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
sess=csysdig_test_$$
tmp=$(mktemp -d) || exit 1
export TMUX_TMPDIR=$tmp	# a private tmux server
wl_pid=
cleanup() {
	tmux kill-server 2>/dev/null
	[ -n "$wl_pid" ] && kill "$wl_pid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
fail=0
screen() { tmux capture-pane -t "$sess" -p; }
keys() { tmux send-keys -t "$sess" "$@"; sleep "${KEY_WAIT:-1}"; }
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
start() {	# start ARGS...: csysdig in the session, then the tty state
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
	tmux kill-session -t "$sess" 2>/dev/null
}

if [ "$mode" = live ]; then
	[ "$(id -u)" = 0 ] || { echo "SKIP: live csysdig needs root"; exit 77; }
	timeout 10 "$bin" --raw -n 50 -v procs >/dev/null 2>"$tmp/live.err" ||
		{ echo "SKIP: no live capture here: $(head -1 "$tmp/live.err")"; exit 77; }
	# the workload: a long-lived shell with a name of its own writing a file
	cp /bin/sh "$tmp/cswl_sh"
	"$tmp/cswl_sh" -c "while :; do echo csysdig-live-test > $tmp/out; sleep 0.1; done" &
	wl_pid=$!
	start -d 500
	check "live: start screen" "Source: Live System"
	keys F4; keys "proc.name=cswl_sh" Enter
	check "live: workload rows" "cswl_sh -c while" 20
	keys Enter
	check "live: drill-down to threads" "Threads For: proc.pid="
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
check "start screen: columns" "PID     PPID    CPU      USER"
check "start screen: rows" "/bin/busybox sh /init"
check "start screen: function keys" "F1Help F2Views F4Filter F5Echo F6Dig"
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
keys F4; keys "proc.name=cat" Enter
check "F4: sysdig filter applied" "Filter: proc.name=cat"
check "F4: matching rows" "/bin/cat /etc/passwd"
check_not "F4: other rows gone" "/bin/ls /"
keys F4; keys C-u BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace Enter
check "F4 cleared" "/bin/ls /"
keys '\'; keys "sysdig -v" Enter
check "\\: free-text filter" "Text: sysdig -v"
check_not "\\: free-text filter hides rows" "/bin/ls /"
keys c
check "c: filter cleared" "/bin/ls /"
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
check "F7: view information" "Id: procs"
keys x
keys q
restored "quit with q"

start -r "$trace"
check "SIGTERM: started" "Viewing: Processes"
pkill_pid=$(pgrep -n -f "^$bin -r $trace")
[ -n "$pkill_pid" ] && kill -TERM "$pkill_pid"
restored "SIGTERM"
exit $fail
