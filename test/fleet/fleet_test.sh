#!/bin/bash
# fleet_test.sh - the metrics endpoint and the ClickHouse export against a
# real Prometheus and a real ClickHouse (started here, servers.sh).
#
# usage: fleet_test.sh TEST SYSDIG WORKLOAD TRACES
#   metrics_file        -r a trace with --metrics-listen, scraped by Prometheus:
#                       syscalls, fd bytes, a latency bucket and the top
#                       process through PromQL equal what `sysdig -r` counts
#   metrics_live        live (root, BPF): the workload's exact TCP bytes per
#                       direction and server port, 321 chdir calls and their
#                       ENOENT errors, 5 poll calls of 20 ms in le="0.1" and
#                       none in le="0.01", all through PromQL
#   metrics_bounds      promtool accepts the text; --metrics-max-series and
#                       --metrics-top bound the series and keep the sums exact;
#                       scrapers that never finish their request block neither
#                       the capture nor other scrapes; other paths get 404
#   metrics_chisel      a chisel's table published with sysdig.publish_metrics
#   export_file         -r a trace into ClickHouse: rows by type and direction
#                       equal the events `sysdig -r` prints, I/O bytes equal
#   export_two_hosts    two --export processes (--hostname web1 / db1) into one
#                       table, the top processes by I/O bytes across both
#   export_backpressure a sink slower than the capture: rows dropped and
#                       counted, written + dropped = events, the sink got
#                       exactly the rows reported written
#   export_hung_sink    a sink that never answers an INSERT: sysdig still exits
#                       (10 s after the end), every row counted, status 1
#   export_live         live (root, BPF): the workload's bytes, calls and
#                       latencies by SQL; a second capture (--hostname live2,
#                       the client only) into the same table, ranked with the
#                       first by TCP bytes
#   export_errors       bad URL, unreachable sink, bad options: one line, exit 1
# Exit 77 (skipped) when a server, root or the BPF driver is missing.
set -u
TEST=$1 SYSDIG=$2 WORKLOAD=$3 TRACES=$4
HERE=$(cd "$(dirname "$0")" && pwd)
FLEET_DIR=$(mktemp -d /tmp/sdfleet.XXXXXX)
CAP_PID=
. "$HERE/servers.sh"
cleanup() {
	[ -n "$CAP_PID" ] && kill -INT $CAP_PID 2>/dev/null && wait $CAP_PID 2>/dev/null
	fleet_stop
	[ -n "${KEEP:-}" ] && echo "kept $FLEET_DIR" || rm -rf "$FLEET_DIR"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; exit 1; }
skip() { echo "SKIPPED: $*"; exit 77; }
cd "$FLEET_DIR" || exit 1

# loopback ports of this run, below the ephemeral range (32768-60999: an
# outgoing connection of another test once held the metrics port)
BASE=$((10000 + ($$ % 2000) * 10))
P_METRICS=$BASE P_PROM=$((BASE + 1)) P_CH=$((BASE + 2)) P_WL=$((BASE + 4)) P_SINK=$((BASE + 5))

need_prometheus() { command -v prometheus >/dev/null || skip "prometheus not installed"; }
need_clickhouse() { command -v clickhouse-server >/dev/null || skip "clickhouse-server not installed"; }
need_live() {
	[ "$(id -u)" = 0 ] || skip "needs root"
	[ -r /sys/kernel/btf/vmlinux ] || skip "kernel without BTF"
	local out
	out=$("$SYSDIG" -n 1 2>&1 >/dev/null)
	case "$out" in
	*"not built"* | *"live capture"*) skip "bpf driver does not load here: $out" ;;
	esac
}
command -v curl >/dev/null || skip "curl not installed"

# doc_blocks LANG: the ```LANG blocks of docs/fleet.md, NUL-separated
doc_blocks() {
	python3 - "$HERE/../../docs/fleet.md" "$1" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
for b in re.findall(r"```" + sys.argv[2] + r"\n(.*?)```", text, re.S):
    sys.stdout.write(b.strip() + "\0")
PY
}

# expect NAME GOT WANT
expect() {
	[ "$2" = "$3" ] || fail "$1: got '$2', expected '$3'"
	echo "ok: $1 = $3"
}

# prom_wait PROMQL WANT: polls until the query gives WANT (30 s: a loaded
# machine delays the scrapes)
prom_wait() {
	local got=
	for _ in $(seq 300); do
		got=$(prom_query "$1")
		[ "$got" = "$2" ] && break
		sleep 0.1
	done
	expect "$1" "$got" "$2"
}

# prom_true PROMQL: the comparison holds (a sample comes back)
prom_true() {
	[ -n "$(prom_query "$1")" ] || fail "$1: not true ($(prom_query "${1%% [<>=]*}"))"
	echo "ok: $1"
}

# metrics_up: waits until Prometheus scraped our endpoint successfully
metrics_up() {
	for _ in $(seq 300); do
		[ "$(prom_query 'up{job="sysdig"}')" = 1 ] && return 0
		sleep 0.1
	done
	fail "Prometheus never scraped 127.0.0.1:$P_METRICS: $(prom_query 'up')"
}

# start_metrics ARGS...: sysdig --metrics-listen in the background
start_metrics() {
	"$SYSDIG" --metrics-listen "127.0.0.1:$P_METRICS" "$@" 2>"$FLEET_DIR/cap.err" &
	CAP_PID=$!
	for _ in $(seq 100); do
		curl -sf "http://127.0.0.1:$P_METRICS/metrics" >/dev/null && return 0
		kill -0 $CAP_PID 2>/dev/null || fail "sysdig died: $(cat "$FLEET_DIR/cap.err")"
		sleep 0.1
	done
	fail "the endpoint did not come up"
}

stop_capture() {
	kill -INT $CAP_PID 2>/dev/null
	wait $CAP_PID
	local rc=$?
	CAP_PID=
	return $rc
}

# wait_attached: the live driver of CAP_PID runs
wait_attached() {
	for _ in $(seq 200); do
		ls -l "/proc/$CAP_PID/fd" 2>/dev/null | grep -q bpf_link && { sleep 0.5; return 0; }
		kill -0 $CAP_PID 2>/dev/null || fail "capture died: $(cat "$FLEET_DIR/cap.err")"
		sleep 0.1
	done
	fail "capture did not start"
}

# run_workload: the three roles with known numbers (see fleet_workload.c)
WL_IN=12345 WL_OUT=6789 WL_CALLS=321
run_workload() {
	ln -sf "$WORKLOAD" fleet_srv
	ln -sf "$WORKLOAD" fleet_cli
	ln -sf "$WORKLOAD" fleet_calls
	rm -f fleet_srv.ready
	./fleet_srv $P_WL $WL_IN $WL_OUT &
	local srv=$!
	for _ in $(seq 100); do [ -e fleet_srv.ready ] && break; sleep 0.05; done
	./fleet_cli $P_WL $WL_IN $WL_OUT || fail "client failed"
	wait $srv || fail "server failed"
	./fleet_calls $WL_CALLS || fail "fleet_calls failed"
	sleep 1	# the last events reach the capture
}

WL_FILTER="proc.name in (fleet_srv, fleet_cli, fleet_calls)"
TRACE=$TRACES/ref029_light.scap

case $TEST in
metrics_file)
	need_prometheus
	start_metrics -r "$TRACE"
	prometheus_start $P_PROM "127.0.0.1:$P_METRICS" 1s || fail "prometheus did not start"
	metrics_up
	want=$("$SYSDIG" -r "$TRACE" "evt.dir=<" -p "%evt.num" | wc -l)
	prom_wait 'sum(sysdig_syscalls_total)' "$want"
	prom_wait 'sum(sysdig_syscall_latency_seconds_count)' "$want"
	want=$("$SYSDIG" -r "$TRACE" "evt.dir=< and evt.latency<=1000" -p "%evt.num" | wc -l)
	prom_wait 'sum(sysdig_syscall_latency_seconds_bucket{le="1e-06"})' "$want"
	want=$("$SYSDIG" -r "$TRACE" "evt.is_io=true and evt.dir=< and evt.rawres>0" -p "%evt.rawres" |
		awk '{s += $1} END {print s}')
	prom_wait 'sum(sysdig_fd_bytes_total)' "$want"
	want=$("$SYSDIG" -r "$TRACE" "evt.failed=true and evt.dir=<" -p "%evt.num" | wc -l)
	prom_wait 'sum(sysdig_syscall_errors_total)' "$want"
	top=$("$SYSDIG" -r "$TRACE" "evt.dir=<" -p "%proc.name" | sort | uniq -c | sort -rn | head -1)
	got=$(curl -sS -G "$PROM_URL/api/v1/query" \
		--data-urlencode 'query=topk(1, sum by (proc_name) (sysdig_syscalls_total))' |
		python3 -c 'import json,sys; r=json.load(sys.stdin)["data"]["result"][0]; print(r["value"][1], r["metric"]["proc_name"])')
	expect "top process by syscalls" "$got" "$(echo $top)"
	prom_wait 'sysdig_events_total' "$("$SYSDIG" -r "$TRACE" -D | wc -l)"
	# every PromQL expression of docs/fleet.md is accepted
	n=0
	while IFS= read -r -d '' q; do
		st=$(curl -sS -G "$PROM_URL/api/v1/query" --data-urlencode "query=$q" |
			python3 -c 'import json,sys; print(json.load(sys.stdin)["status"])')
		[ "$st" = success ] || fail "docs/fleet.md PromQL rejected: $q"
		n=$((n + 1))
	done < <(doc_blocks promql)
	[ $n -ge 4 ] || fail "only $n PromQL expressions found in docs/fleet.md"
	echo "ok: the $n PromQL expressions of docs/fleet.md are accepted"
	;;
metrics_live)
	need_prometheus
	need_live
	start_metrics "$WL_FILTER"
	wait_attached
	prometheus_start $P_PROM "127.0.0.1:$P_METRICS" 1s || fail "prometheus did not start"
	metrics_up
	run_workload
	sel="port=\"$P_WL\",l4proto=\"tcp\",remote=\"127.0.0.1\""
	prom_wait "sysdig_net_bytes_total{proc_name=\"fleet_cli\",$sel,direction=\"write\"}" $WL_IN
	prom_wait "sysdig_net_bytes_total{proc_name=\"fleet_srv\",$sel,direction=\"read\"}" $WL_IN
	prom_wait "sysdig_net_bytes_total{proc_name=\"fleet_srv\",$sel,direction=\"write\"}" $WL_OUT
	prom_wait "sysdig_net_bytes_total{proc_name=\"fleet_cli\",$sel,direction=\"read\"}" $WL_OUT
	prom_wait 'sysdig_fd_bytes_total{proc_name="fleet_cli",fd_type="ipv4",direction="write"}' $WL_IN
	prom_wait 'sysdig_syscalls_total{proc_name="fleet_calls",syscall="chdir"}' $WL_CALLS
	prom_wait 'sysdig_syscall_errors_total{proc_name="fleet_calls",syscall="chdir",errno="ENOENT"}' $WL_CALLS
	prom_wait 'sysdig_syscalls_total{proc_name="fleet_calls",syscall="poll"}' 5
	prom_wait 'sysdig_syscall_latency_seconds_bucket{proc_name="fleet_calls",syscall="poll",le="0.01"}' 0
	prom_wait 'sysdig_syscall_latency_seconds_bucket{proc_name="fleet_calls",syscall="poll",le="0.1"}' 5
	prom_true 'sysdig_syscall_latency_seconds_sum{proc_name="fleet_calls",syscall="poll"} >= 0.1'
	# CPU time is charged at switch events; under this filter's comm pushdown
	# the driver keeps only the workload's own switches, so which of its
	# processes gets a share is not fixed: the family must count some
	prom_true 'sum(sysdig_cpu_seconds_total) > 0'
	prom_true 'sysdig_driver_events_total > 0'
	prom_true 'sysdig_driver_drops_total >= 0'
	stop_capture || fail "sysdig exit status $?: $(cat cap.err)"
	;;
metrics_bounds)
	command -v promtool >/dev/null || skip "promtool (package prometheus) not installed"
	# five scrapers that connect, send half a request and stall
	python3 - $P_METRICS <<'PY' &
import socket, sys, time
socks = []
for _ in range(200):
    for _ in range(5 - len(socks)):
        try:
            s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
            s.send(b"GET /metr")
            socks.append(s)
        except OSError:
            pass
    if len(socks) == 5:
        break
    time.sleep(0.05)
time.sleep(30)
PY
	FLEET_PIDS="$FLEET_PIDS $!"
	start_metrics -r "$TRACE" --metrics-max-series 50 --metrics-top 3
	for _ in $(seq 100); do grep -q "end of input" cap.err && break; sleep 0.1; done
	grep -q "end of input" cap.err || fail "the capture did not finish beside stalled scrapers"
	echo "ok: the capture finished beside 5 stalled scrapers"
	curl -sS "http://127.0.0.1:$P_METRICS/metrics" >m.txt || fail "scrape failed"
	promtool check metrics <m.txt || fail "promtool rejects the text"
	echo "ok: promtool check metrics"
	want=$("$SYSDIG" -r "$TRACE" "evt.dir=<" -p "%evt.num" | wc -l)
	expect "sum of sysdig_syscalls_total" "$(awk '/^sysdig_syscalls_total/ {s += $2} END {print s}' m.txt)" "$want"
	expect "sysdig_syscalls_total series shown" "$(grep -c '^sysdig_syscalls_total' m.txt)" 4
	expect "__other__ series" "$(grep -c '^sysdig_syscalls_total{proc_name="__other__",syscall="__other__"}' m.txt)" 1
	n=$(sed -n 's/^sysdig_metrics_series //p' m.txt)
	[ "$n" -le 56 ] || fail "$n series with --metrics-max-series 50"
	grep -q '^sysdig_metrics_overflow_total [1-9]' m.txt || fail "no overflow counted"
	echo "ok: $n series (50 + one overflow series per family at most)"
	expect "HTTP status of /nope" "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$P_METRICS/nope")" 404
	"$SYSDIG" -r "$TRACES/ref029_net_small.scap" --metrics-listen 127.0.0.1:$P_PROM 2>n.err &
	pid=$!
	for _ in $(seq 100); do grep -q "end of input" n.err && break; sleep 0.1; done
	curl -sf "http://127.0.0.1:$P_PROM/metrics" >n.txt || fail "scrape failed: $(cat n.err)"
	kill -INT $pid
	wait $pid || fail "sysdig exit status $? after SIGINT"
	promtool check metrics <n.txt || fail "promtool rejects the text of ref029_net_small"
	want=$("$SYSDIG" -r "$TRACES/ref029_net_small.scap" "fd.type in (ipv4, ipv6) and evt.is_io=true and evt.dir=< and evt.rawres>0" \
		-p "%evt.rawres" | awk '{s += $1} END {print s}')
	expect "network bytes of ref029_net_small" "$(awk '/^sysdig_net_bytes_total/ {s += $2} END {print s}' n.txt)" "$want"
	# other label sets: per thread, with a field that has no value here (user.name)
	CW=$TRACES/cat_write.scap
	"$SYSDIG" -r "$CW" --metrics-listen 127.0.0.1:$P_PROM --metrics-labels proc.name,thread.tid,user.name 2>c.err &
	pid=$!
	for _ in $(seq 100); do grep -q "end of input" c.err && break; sleep 0.1; done
	curl -sf "http://127.0.0.1:$P_PROM/metrics" >c.txt || fail "scrape failed: $(cat c.err)"
	kill -INT $pid
	wait $pid
	"$SYSDIG" -r "$CW" "evt.dir=<" -p "*%proc.name %thread.tid %evt.type" | sort | uniq -c >want.txt
	[ -s want.txt ] || fail "no exit events in $CW"
	while read -r n p t ty; do
		got=$(grep -F "sysdig_syscalls_total{proc_name=\"$p\",thread_tid=\"$t\",user_name=\"\",syscall=\"$ty\"}" c.txt | cut -d' ' -f2)
		[ "$got" = "$n" ] || fail "$p/$t/$ty: got '$got', expected $n"
	done <want.txt
	echo "ok: $(wc -l <want.txt) per-thread series of $CW"
	;;
metrics_chisel)
	need_prometheus
	SYSDIG_CHISEL_DIR=$HERE/chisels start_metrics -r "$TRACE" -c publish_types
	prometheus_start $P_PROM "127.0.0.1:$P_METRICS" 1s || fail "prometheus did not start"
	metrics_up
	"$SYSDIG" -r "$TRACE" -p "%evt.type" | sort | uniq -c | sort -rn | head -3 >want.txt
	while read -r n t; do
		prom_wait "sysdig_chisel_event_types{evt_type=\"$t\"}" "$n"
	done <want.txt
	;;
export_file | export_two_hosts | export_backpressure | export_live)
	need_clickhouse
	[ $TEST = export_live ] && need_live
	clickhouse_start $P_CH || fail "clickhouse did not start"
	URL="clickhouse://127.0.0.1:$P_CH/fleet.events"
	;;
export_errors | export_hung_sink) ;;
*) fail "unknown test $TEST" ;;
esac

# the rows `sysdig -r FILE` prints, as "type dir count" sorted
printed_by_type() {
	"$SYSDIG" -r "$1" -p "%evt.type %evt.dir" | sort | uniq -c | awk '{print $2, $3, $1}' | sort
}

case $TEST in
export_file)
	"$SYSDIG" -r "$TRACE" --export "$URL" --hostname web1 2>cap.err || fail "export: $(cat cap.err)"
	rows=$("$SYSDIG" -r "$TRACE" | wc -l)
	grep -q "export: $rows rows written to fleet.events, 0 dropped (queue full), 0 failed" cap.err ||
		fail "export summary: $(cat cap.err)"
	expect "rows in ClickHouse" "$(ch_query "SELECT count() FROM fleet.events WHERE host = 'web1'")" "$rows"
	ch_query "SELECT type, dir, count() FROM fleet.events GROUP BY type, dir" | tr '\t' ' ' | sort >got.txt
	printed_by_type "$TRACE" >want.txt
	diff want.txt got.txt >/dev/null || fail "rows by type differ: $(diff want.txt got.txt | head)"
	echo "ok: $(wc -l <want.txt) (type, dir) counts equal"
	want=$("$SYSDIG" -r "$TRACE" "evt.is_io=true and evt.dir=< and evt.rawres>0" -p "%evt.rawres" |
		awk '{s += $1} END {print s}')
	expect "I/O bytes" "$(ch_query "SELECT sum(res) FROM fleet.events WHERE is_io AND dir = '<' AND res > 0")" "$want"
	# buffers with newlines and tabs (-A) come back byte for byte
	NET=$TRACES/ref029_net_small.scap
	"$SYSDIG" -r "$NET" -A --export "clickhouse://127.0.0.1:$P_CH/fleet.ascii" 2>a.err || fail "export -A: $(cat a.err)"
	"$SYSDIG" -r "$NET" -A -j "evt.is_io=true and evt.dir=< and evt.rawres>0" -p "%evt.num %evt.buffer" >want.json
	ch_query "SELECT evt_num, buffer FROM fleet.ascii WHERE is_io AND dir = '<' AND res > 0 ORDER BY evt_num
		FORMAT JSONEachRow" >got.json
	python3 - want.json got.json <<'PY' || fail "buffers differ"
import json, sys
want = [json.loads(l) for l in open(sys.argv[1])]
got = [json.loads(l) for l in open(sys.argv[2])]
assert len(want) == len(got) > 0, (len(want), len(got))
special = 0
for w, g in zip(want, got):
    assert int(g["evt_num"]) == w["evt.num"], (g, w)
    assert g["buffer"] == w["evt.buffer"], (g, w)
    special += any(c in w["evt.buffer"] for c in "\n\t\\")
assert special > 0
print("ok: %d buffers equal, %d with newlines, tabs or backslashes" % (len(want), special))
PY
	first=$("$SYSDIG" -r "$TRACE" "evt.type=openat and evt.dir=<" -p "%evt.num|%fd.name|%evt.rawres|%proc.name" | head -1)
	n=${first%%|*}
	expect "one row" "$(ch_query "SELECT evt_num, fd_name, res, proc_name FROM fleet.events WHERE evt_num = $n" |
		tr '\t' '|')" "$first"
	;;
export_two_hosts)
	"$SYSDIG" -r "$TRACES/ref029_net_small.scap" --export "$URL" --hostname web1 2>a.err &
	a=$!
	"$SYSDIG" -r "$TRACE" --export "$URL" --hostname db1 2>b.err &
	b=$!
	wait $a || fail "export web1: $(cat a.err)"
	wait $b || fail "export db1: $(cat b.err)"
	# the ranking: I/O bytes per host and process, largest first
	for h in web1:ref029_net_small db1:ref029_light; do
		"$SYSDIG" -r "$TRACES/${h#*:}.scap" "evt.is_io=true and evt.dir=< and evt.rawres>0" \
			-p "%proc.name %evt.rawres" | awk -v h="${h%%:*}" '{s[$1] += $2} END {for (p in s) print h, p, s[p]}'
	done | sort -k3,3nr -k1,1 -k2,2 | head -8 >want.txt
	ch_query "SELECT host, proc_name, sum(res) AS bytes FROM fleet.events WHERE is_io AND dir = '<' AND res > 0
		GROUP BY host, proc_name ORDER BY bytes DESC, host, proc_name LIMIT 8" | tr '\t' ' ' >got.txt
	diff want.txt got.txt >/dev/null || fail "ranking differs:
$(diff want.txt got.txt)"
	cat got.txt
	expect "hosts in the ranking" "$(cut -d' ' -f1 got.txt | sort -u | tr '\n' ' ')" "db1 web1 "
	# every query of docs/fleet.md runs and answers on these two hosts
	n=0
	while IFS= read -r -d '' sql; do
		out=$(ch_query "$sql") || fail "docs/fleet.md query failed: $sql: $out"
		[ -n "$out" ] || fail "docs/fleet.md query answered nothing: $sql"
		n=$((n + 1))
	done < <(doc_blocks sql)
	[ $n -ge 6 ] || fail "only $n SQL queries found in docs/fleet.md"
	echo "ok: the $n SQL queries of docs/fleet.md run"
	ch_query "SELECT host, proc_name, sum(res) AS bytes FROM fleet.events
		WHERE is_io AND dir = '<' AND res > 0 AND fd_type IN ('ipv4', 'ipv6')
		GROUP BY host, proc_name ORDER BY host, bytes DESC LIMIT 5 BY host" | head -3
	;;
export_backpressure)
	# a sink answering each request after 0.3 s, counting the rows it got
	python3 - $P_SINK >sink.log 2>&1 <<'PY' &
import http.server, sys, time
rows = 0
class H(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        global rows
        body = self.rfile.read(int(self.headers["Content-Length"]))
        if "INSERT" in self.path:
            time.sleep(0.3)
            rows += body.count(b"\n")
            open("sink.rows", "w").write(str(rows))
        self.send_response(200); self.send_header("Content-Length", "0"); self.end_headers()
    def log_message(self, *a): pass
http.server.HTTPServer(("127.0.0.1", int(sys.argv[1])), H).serve_forever()
PY
	FLEET_PIDS="$FLEET_PIDS $!"
	for _ in $(seq 50); do curl -s -o /dev/null -d x "http://127.0.0.1:$P_SINK/" && break; sleep 0.1; done
	"$SYSDIG" -r "$TRACE" --export "clickhouse://127.0.0.1:$P_SINK/fleet.events" --export-batch 1000 \
		--export-queue 1 2>cap.err || fail "export: $(cat cap.err)"
	cat cap.err
	rows=$("$SYSDIG" -r "$TRACE" | wc -l)
	read -r written dropped < <(sed -n 's/^export: \([0-9]*\) rows written .*, \([0-9]*\) dropped.*/\1 \2/p' cap.err)
	[ "${dropped:-0}" -gt 0 ] || fail "no export drops with a slow sink: $(cat cap.err)"
	expect "written + dropped" "$((written + dropped))" "$rows"
	expect "rows the sink got" "$(cat sink.rows)" "$written"
	# the same counters on the metrics endpoint of the same process
	"$SYSDIG" -r "$TRACE" --export "clickhouse://127.0.0.1:$P_SINK/fleet.events" --export-batch 1000 \
		--export-queue 1 --metrics-listen 127.0.0.1:$P_METRICS 2>m.err &
	pid=$!
	for _ in $(seq 300); do grep -q "end of input" m.err && break; sleep 0.1; done
	curl -sf "http://127.0.0.1:$P_METRICS/metrics" >m.txt || fail "scrape failed: $(cat m.err)"
	kill -INT $pid
	wait $pid
	read -r written dropped < <(sed -n 's/^export: \([0-9]*\) rows written .*, \([0-9]*\) dropped.*/\1 \2/p' m.err)
	expect "sysdig_export_rows_total" "$(sed -n 's/^sysdig_export_rows_total //p' m.txt)" "$written"
	expect "sysdig_export_drops_total" "$(sed -n 's/^sysdig_export_drops_total //p' m.txt)" "$dropped"
	;;
export_hung_sink)
	# answers the checks at the start, then holds every INSERT forever
	python3 - $P_SINK >sink.log 2>&1 <<'PY' &
import http.server, socketserver, sys, time
class H(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        self.rfile.read(int(self.headers["Content-Length"]))
        if "INSERT" in self.path:
            time.sleep(3600)
        self.send_response(200); self.send_header("Content-Length", "0"); self.end_headers()
    def log_message(self, *a): pass
class S(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
S(("127.0.0.1", int(sys.argv[1])), H).serve_forever()
PY
	FLEET_PIDS="$FLEET_PIDS $!"
	for _ in $(seq 50); do curl -s -o /dev/null -d x "http://127.0.0.1:$P_SINK/" && break; sleep 0.1; done
	start=$(date +%s)
	timeout 60 "$SYSDIG" -r "$TRACE" --export "clickhouse://127.0.0.1:$P_SINK/fleet.events" \
		--export-batch 10000 2>cap.err
	rc=$?
	cat cap.err
	[ $rc = 1 ] || fail "exit status $rc with a hung sink"
	[ $(($(date +%s) - start)) -lt 30 ] || fail "took $(($(date +%s) - start)) s to give up"
	rows=$("$SYSDIG" -r "$TRACE" | wc -l)
	read -r written dropped failed < <(sed -n 's/^export: \([0-9]*\) rows written .*, \([0-9]*\) dropped (queue full), \([0-9]*\) failed/\1 \2 \3/p' cap.err)
	expect "written + dropped + failed" "$((written + dropped + failed))" "$rows"
	[ "$failed" -gt 0 ] || fail "no failed rows"
	grep -q "last error: not sent\|last error: Operation was aborted\|last error: Callback aborted" cap.err || fail "no reason given"
	;;
export_live)
	# a second capture as host live2, of the client only
	"$SYSDIG" --export "$URL" --hostname live2 proc.name=fleet_cli 2>cap2.err &
	CAP2=$!
	FLEET_PIDS="$FLEET_PIDS $CAP2"	# stopped on failure too
	"$SYSDIG" --export "$URL" --hostname live1 "$WL_FILTER" 2>cap.err &
	CAP_PID=$!
	wait_attached
	for _ in $(seq 100); do ls -l /proc/$CAP2/fd 2>/dev/null | grep -q bpf_link && break; sleep 0.1; done
	sleep 0.5
	run_workload
	stop_capture || fail "sysdig exit status: $(cat cap.err)"
	kill -INT $CAP2
	wait $CAP2 || fail "sysdig live2 exit status: $(cat cap2.err)"
	grep -q " 0 dropped (queue full), 0 failed" cap.err || fail "export summary: $(cat cap.err)"
	grep -q " 0 dropped (queue full), 0 failed" cap2.err || fail "export summary: $(cat cap2.err)"
	# the ranking across both hosts: TCP bytes per host and process
	ch_query "SELECT host, proc_name, sum(res) AS bytes FROM fleet.events
		WHERE is_io AND dir = '<' AND res > 0 AND fd_type = 'ipv4'
		GROUP BY host, proc_name ORDER BY bytes DESC, host, proc_name" | tr '\t' ' ' >rank.txt
	cat rank.txt
	expect "ranking across live1 and live2" "$(tr '\n' '|' <rank.txt)" \
		"live1 fleet_cli $((WL_IN + WL_OUT))|live1 fleet_srv $((WL_IN + WL_OUT))|live2 fleet_cli $((WL_IN + WL_OUT))|"
	q() { ch_query "SELECT $1 FROM fleet.events WHERE host = 'live1' AND dir = '<' AND $2"; }
	expect "client bytes written" "$(q 'sum(res)' "proc_name = 'fleet_cli' AND type = 'write' AND fd_type = 'ipv4'")" $WL_IN
	expect "server bytes read" "$(q 'sum(res)' "proc_name = 'fleet_srv' AND type = 'read' AND fd_type = 'ipv4' AND res > 0")" $WL_IN
	expect "server bytes written" "$(q 'sum(res)' "proc_name = 'fleet_srv' AND type = 'write' AND fd_type = 'ipv4'")" $WL_OUT
	expect "chdir ENOENT" "$(q 'count()' "proc_name = 'fleet_calls' AND type = 'chdir' AND res = -2")" $WL_CALLS
	expect "polls of 20 ms or more" "$(q 'count()' "proc_name = 'fleet_calls' AND type = 'poll' AND latency_ns >= 20000000")" 5
	expect "the server port in fd_name" "$(q 'count() > 0' "proc_name = 'fleet_cli' AND fd_name LIKE '%->127.0.0.1:$P_WL'")" 1
	;;
export_errors)
	check_error() {
		local want=$1
		shift
		"$SYSDIG" "$@" >out.txt 2>err.txt
		local rc=$?
		[ $rc = 1 ] || fail "$* exited $rc"
		[ "$(wc -l <err.txt)" = 1 ] || fail "$*: not one line: $(cat err.txt)"
		grep -q "$want" err.txt || fail "$*: $(cat err.txt)"
		echo "ok: $* -> $(cat err.txt)"
	}
	check_error "invalid URL" -r "$TRACE" --export http://x/y.z
	check_error "invalid URL" -r "$TRACE" --export clickhouse://127.0.0.1:1/nodot
	check_error "invalid URL" -r "$TRACE" --export "clickhouse://127.0.0.1:1/a.b;drop"
	check_error "ClickHouse at http://127.0.0.1:1/" -r "$TRACE" --export clickhouse://127.0.0.1:1/a.b
	check_error "invalid address" -r "$TRACE" --metrics-listen 127.0.0.1:99999
	check_error "invalid field" -r "$TRACE" --metrics-listen 127.0.0.1:0 --metrics-labels proc.nope
	check_error "need --metrics-listen" -r "$TRACE" --metrics-top 5 --export clickhouse://127.0.0.1:1/a.b
	check_error "need --export" -r "$TRACE" --hostname x
	check_error "invalid --export-queue" -r "$TRACE" --export clickhouse://127.0.0.1:1/a.b --export-queue 0
	;;
esac
echo PASS
