#!/bin/bash
# servers.sh - start a throwaway ClickHouse and Prometheus for the fleet
# tests and benchmarks (sourced): their own config and data directory
# under $FLEET_DIR, loopback ports only, no systemd.  Both are stopped by
# fleet_stop (call it from the caller's EXIT trap).
#
#   clickhouse_start PORT   HTTP interface on 127.0.0.1:PORT (TCP on PORT+1)
#   prometheus_start PORT TARGET [INTERVAL]   scrapes http://TARGET/metrics
#   ch_query SQL            runs SQL over HTTP, prints the result (TSV)
#   prom_query PROMQL       instant query, prints the first sample's value
FLEET_PIDS=

fleet_stop() {
	local p
	for p in $FLEET_PIDS; do
		kill "$p" 2>/dev/null
	done
	for p in $FLEET_PIDS; do
		for _ in $(seq 50); do
			kill -0 "$p" 2>/dev/null || break
			sleep 0.1
		done
		kill -9 "$p" 2>/dev/null
	done
	FLEET_PIDS=
}

clickhouse_start() {
	local port=$1 d=$FLEET_DIR/clickhouse
	mkdir -p "$d/data" "$d/tmp" "$d/user_files" "$d/log"
	cat >"$d/config.xml" <<XML
<?xml version="1.0"?>
<yandex>
    <logger><level>warning</level><log>$d/log/server.log</log><errorlog>$d/log/err.log</errorlog><size>10M</size><count>1</count></logger>
    <http_port>$port</http_port>
    <tcp_port>$((port + 1))</tcp_port>
    <listen_host>127.0.0.1</listen_host>
    <max_connections>64</max_connections>
    <keep_alive_timeout>3</keep_alive_timeout>
    <max_concurrent_queries>20</max_concurrent_queries>
    <uncompressed_cache_size>67108864</uncompressed_cache_size>
    <mark_cache_size>67108864</mark_cache_size>
    <path>$d/data/</path>
    <tmp_path>$d/tmp/</tmp_path>
    <user_files_path>$d/user_files/</user_files_path>
    <users_config>$d/users.xml</users_config>
    <default_profile>default</default_profile>
    <default_database>default</default_database>
    <timezone>UTC</timezone>
    <mlock_executable>false</mlock_executable>
</yandex>
XML
	cat >"$d/users.xml" <<XML
<?xml version="1.0"?>
<yandex>
    <profiles><default><max_memory_usage>2000000000</max_memory_usage></default></profiles>
    <users><default><password></password><networks><ip>127.0.0.1</ip></networks>
        <profile>default</profile><quota>default</quota></default></users>
    <quotas><default><interval><duration>3600</duration><queries>0</queries><errors>0</errors>
        <result_rows>0</result_rows><read_rows>0</read_rows><execution_time>0</execution_time></interval></default></quotas>
</yandex>
XML
	clickhouse-server --config-file="$d/config.xml" >"$d/log/stdout" 2>&1 &
	FLEET_PIDS="$FLEET_PIDS $!"
	CH_URL="http://127.0.0.1:$port/"
	for _ in $(seq 300); do
		[ "$(curl -s "$CH_URL" 2>/dev/null)" = "Ok." ] && return 0
		sleep 0.1
	done
	echo "clickhouse did not start: $(tail -3 "$d/log/err.log" "$d/log/stdout" 2>/dev/null)" >&2
	return 1
}

ch_query() {
	curl -sS --fail-with-body "$CH_URL" --data-binary "$1"
}

prometheus_start() {
	local port=$1 target=$2 interval=${3:-1s} d=$FLEET_DIR/prometheus
	mkdir -p "$d/data"
	cat >"$d/prometheus.yml" <<YML
global:
  scrape_interval: $interval
  evaluation_interval: $interval
scrape_configs:
  - job_name: sysdig
    scrape_interval: $interval
    scrape_timeout: $interval
    static_configs:
      - targets: ['$target']
YML
	prometheus --config.file="$d/prometheus.yml" --storage.tsdb.path="$d/data" \
		--web.listen-address="127.0.0.1:$port" >"$d/log" 2>&1 &
	FLEET_PIDS="$FLEET_PIDS $!"
	PROM_URL="http://127.0.0.1:$port"
	for _ in $(seq 300); do
		curl -sf "$PROM_URL/-/ready" >/dev/null 2>&1 && return 0
		sleep 0.1
	done
	echo "prometheus did not start: $(tail -3 "$d/log")" >&2
	return 1
}

# prom_query PROMQL: the value of the first sample ("" when none)
prom_query() {
	curl -sS -G "$PROM_URL/api/v1/query" --data-urlencode "query=$1" |
		python3 -c 'import json,sys; r=json.load(sys.stdin)["data"]["result"]; print(r[0]["value"][1] if r else "")'
}
