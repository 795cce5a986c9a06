#!/usr/bin/env bash
# Replicas under session load: SESSIONS WebSocket sessions typing GitHub logins at human speed for
# DURATION seconds through nginx (deploy/nginx/nginx.conf, its two upstream lines pointed at the
# replicas), once with one ServiceApp replica and once with two sharing one redis-server, against
# FakeUpstream (every answer after DELAY_MS). Reports, per replica count: lookups answered and
# per second, upstream requests, Redis commands per lookup (redis-server's own count), latency,
# and the CPU seconds each process spent. Loopback only; release builds; fresh Redis and
# FakeUpstream for each replica count.
#
# Usage: scripts/cluster-load.sh
# Environment: REPLICA_COUNTS="1 2" SESSIONS=300 DURATION=60 NAMES=replay THROTTLE_MS=500
#              DELAY_MS=50 SHARDS=1 RAMP=2 SKIP_BUILD=1
#              MAX_CONCURRENT=N: each replica's upstream.maxConcurrentRequests (default 8).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

REPLICA_COUNTS="${REPLICA_COUNTS:-1 2}" SESSIONS="${SESSIONS:-300}" DURATION="${DURATION:-60}" NAMES="${NAMES:-replay}"
THROTTLE_MS="${THROTTLE_MS:-500}" DELAY_MS="${DELAY_MS:-50}" SHARDS="${SHARDS:-1}" RAMP="${RAMP:-2}"
ROOT_DIR="$(cd "$BENCH_DIR/.." && pwd)"
SERVICE="$ROOT_DIR/.build/release/ServiceApp"
UPSTREAM="$BENCH_DIR/.build/release/FakeUpstream"
LOAD="$BENCH_DIR/.build/release/SessionLoad"
for tool in redis-server redis-cli nginx; do command -v "$tool" >/dev/null || die "$tool not found (apt-get install redis-server nginx)"; done
if [ "${SKIP_BUILD:-0}" != 1 ]; then
    (cd "$ROOT_DIR" && swift build -c release --product ServiceApp >&2)
    (cd "$BENCH_DIR" && swift build -c release --product FakeUpstream >&2 && swift build -c release --product SessionLoad >&2)
fi
raise_nofile $((SESSIONS * 3 + 512))

tmp="$(mktemp -d)"
pids=()
stop_all() {
    for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    pids=()
}
trap 'stop_all; rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

# free_port: a free loopback port.
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
# cpu_seconds PID: user + system CPU seconds so far.
cpu_seconds() { awk -v hz="$(getconf CLK_TCK)" '{ printf "%.1f", ($14 + $15) / hz }' "/proc/$1/stat"; }
# metric URL NAME: the sum of a Prometheus counter over its labels.
metric() { curl -s "$1/metrics" | awk -v n="$2" '$1 == n || index($1, n "{") == 1 { s += $NF } END { printf "%d", s }'; }

python3 - "$ROOT_DIR/config/service.json" "${MAX_CONCURRENT:-}" >"$tmp/service.json" <<'PY'
import json, sys
config = json.load(open(sys.argv[1]))
if sys.argv[2]:
    config["upstream"]["maxConcurrentRequests"] = int(sys.argv[2])
config["limits"]["sessionsPerClient"] = 1000000
config["limits"]["lookupsPerClientPerMinute"] = 1000000
config["trustedProxies"] = ["127.0.0.1"]
print(json.dumps(config, indent=2))
PY

rows=()
for count in $REPLICA_COUNTS; do
    run="$tmp/r$count"; mkdir -p "$run"
    redis_port="$(free_port)"
    redis-server --port "$redis_port" --bind 127.0.0.1 --save "" --appendonly no --dir "$run" >"$run/redis.log" 2>&1 &
    redis_pid=$!; pids+=("$redis_pid")
    upstream_cmd=("$UPSTREAM" --port 0 --delay-ms "$DELAY_MS")
    names_args=()
    if [ "$NAMES" = replay ]; then
        "$LOAD" --sessions "$SESSIONS" --print-existing >"$run/logins.txt"
        upstream_cmd+=(--logins-file "$run/logins.txt"); names_args=(--names replay)
    fi
    "${upstream_cmd[@]}" >"$run/upstream.log" 2>&1 &
    upstream_pid=$!; pids+=("$upstream_pid")
    upstream_url="$(wait_listening "$run/upstream.log" "$upstream_pid")"
    stats_url="$(grep -o 'http://[0-9.:]*/__stats' "$run/upstream.log" | head -1)"
    replica_urls=() replica_pids=()
    for index in $(seq "$count"); do
        (cd "$ROOT_DIR" && exec "$SERVICE" --host 127.0.0.1 --port 0 --github-api-url "$upstream_url" --throttle-ms "$THROTTLE_MS" \
            --config "$tmp/service.json" --redis-url "redis://127.0.0.1:$redis_port/0") >"$run/replica$index.log" 2>&1 &
        replica_pids+=("$!"); pids+=("$!")
        replica_urls+=("$(wait_listening "$run/replica$index.log" "$!")")
    done
    nginx_port="$(free_port)"
    python3 - "$ROOT_DIR/deploy/nginx/nginx.conf" "$run" "$nginx_port" "${replica_urls[@]}" >"$run/nginx.conf" <<'PY'
import sys
path, temp, port, urls = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
lines, servers = [], 0
for line in open(path).read().split("\n"):
    if line.strip().startswith("server replica"):
        url = urls[min(servers, len(urls) - 1)].replace("http://", "")
        line = f"        server {url} max_fails=3 fail_timeout=5s;"
        servers += 1
    lines.append(line)
text = "\n".join(lines).replace("listen 80;", f"listen 127.0.0.1:{port};")
text = text.replace("http {", f"http {{\n    access_log off;\n    client_body_temp_path {temp}/body; proxy_temp_path {temp}/proxy;\n"
                    f"    fastcgi_temp_path {temp}/fastcgi; uwsgi_temp_path {temp}/uwsgi; scgi_temp_path {temp}/scgi;", 1)
print(f"pid {temp}/nginx.pid;\nerror_log {temp}/nginx-error.log;\n" + text)
PY
    nginx -c "$run/nginx.conf" -g "daemon off;" >"$run/nginx.log" 2>&1 &
    nginx_pid=$!; pids+=("$nginx_pid")
    for _ in $(seq 50); do curl -s -o /dev/null "http://127.0.0.1:$nginx_port/healthz" && break; sleep 0.1; done
    commands_before="$(redis-cli -p "$redis_port" info stats | awk -F: '/^total_commands_processed/ { print $2 + 0 }')"
    log "$count replica(s) ${replica_urls[*]} behind nginx :$nginx_port, redis :$redis_port, upstream $upstream_url"
    "$LOAD" --url "ws://127.0.0.1:$nginx_port/ws" --sessions "$SESSIONS" --duration "$DURATION" --ramp "$RAMP" \
        --upstream-delay-ms "$DELAY_MS" --upstream-stats "$stats_url" --shards "$SHARDS" "${names_args[@]}" \
        --seed 1 --label "replicas=$count" >"$run/load.json" || log "SessionLoad exit $?"
    commands_after="$(redis-cli -p "$redis_port" info stats | awk -F: '/^total_commands_processed/ { print $2 + 0 }')"
    replica_cpu="" upstream_requests=0 round_trips=0
    for index in $(seq 0 $((count - 1))); do
        replica_cpu+="$(cpu_seconds "${replica_pids[$index]}") "
        upstream_requests=$((upstream_requests + $(metric "${replica_urls[$index]}" github_upstream_requests_total)))
        round_trips=$((round_trips + $(metric "${replica_urls[$index]}" redis_commands_total)))
    done
    nginx_cpu=0
    for pid in "$nginx_pid" $(pgrep -P "$nginx_pid" || true); do nginx_cpu="$(awk -v a="$nginx_cpu" -v b="$(cpu_seconds "$pid")" 'BEGIN { printf "%.1f", a + b }')"; done
    rows+=("$(python3 - "$run/load.json" "$count" "$DURATION" "$((commands_after - commands_before))" "$round_trips" "$upstream_requests" \
        "$replica_cpu" "$nginx_cpu" "$(cpu_seconds "$redis_pid")" "$(cpu_seconds "$upstream_pid")" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
count, duration, redis_cmds, round_trips, upstream = int(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6])
statuses = r["statuses"]
lookups = statuses.get("found", 0) + statuses.get("not_found", 0) + statuses.get("rate_limited", 0)
per = lambda n: f"{n / lookups:.2f}" if lookups else "-"
print(f"| {count} | {r['cleanCloses']}/{r['sessions']} | {r['keystrokes']} | {lookups} | {lookups / duration:.1f} | {upstream} | "
      f"{redis_cmds} ({per(redis_cmds)}) | {per(round_trips)} | {r['rawP50Ms']:.0f} / {r['rawP99Ms']:.0f} | "
      f"{r['serverAddedP50Ms']:.1f} / {r['serverAddedP99Ms']:.1f} | {r['missingFinals']} | {r['failures']} | "
      f"{sys.argv[7].strip()} | {sys.argv[8]} | {sys.argv[9]} | {sys.argv[10]} |")
PY
)")
    stop_all
done

printf '\n### Replicas behind nginx: %s sessions × %s s, names %s, throttle %s ms, upstream delay %s ms, upstream.maxConcurrentRequests %s\n\n' \
    "$SESSIONS" "$DURATION" "${NAMES:-default}" "$THROTTLE_MS" "$DELAY_MS" "${MAX_CONCURRENT:-8}"
printf 'Machine: %s cores (%s); the load generator, nginx, Redis, FakeUpstream and the replicas share them.\n\n' \
    "$(nproc)" "$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)"
printf "| replicas | sessions ok | keystrokes | lookup results | lookups/s | upstream requests | commands Redis ran, scripts' own calls included (per lookup) | Redis round trips per lookup (the replicas' redis_commands_total) | final result p50 / p99 (ms) | server-added p50 / p99 (ms) | missing finals | failures | CPU s per replica | nginx CPU s | Redis CPU s | FakeUpstream CPU s |\n"
printf '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|\n'
printf '%s\n' "${rows[@]}"
