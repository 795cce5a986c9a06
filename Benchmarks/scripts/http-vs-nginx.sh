#!/usr/bin/env bash
# Keep-alive `GET /healthz` on the service against nginx (`return 200` with the same body and
# headers, as many workers as the service has event loops) and, when given, other builds of
# the service and Hummingbird: `wrk -t2 -c64` on each in turn, ROUNDS times, alternating (the
# order reversed every other round), so that every server sees the same machine. For each run:
# requests/s and the server's CPU time per request (user + system, from /proc/PID/stat before
# and after, summed over nginx's master and workers), then the medians, the ratios of the
# medians to nginx, and each server's CPU per request over nginx's in the same round. With Hummingbird, the same
# for WebSocket echo (`WebSocketClientBench -c 64 -s 32` on /ws/echo, the load generator of
# lib.sh's ensure_loadgen): round trips/s, p99 and CPU per round trip, against Hummingbird.
#
# Usage: http-vs-nginx.sh [NAME=]SERVICE_BINARY [[NAME=]SERVICE_BINARY ...]
#   e.g. http-vs-nginx.sh .build/release/ServiceApp base=/tmp/base/.build/release/ServiceApp
# Environment: ROUNDS (default 5), DURATION seconds per run (default 5), WORKERS (default
#   nproc: the service's default loop count), HUMMINGBIRD=path to Benchmarks' HummingbirdAnchor
#   binary (optional; it serves /hello, 13 bytes, with `--threads WORKERS`).
#   LOADGEN=path to the WebSocket load generator (default: WebSocketClientBench, built by
#   lib.sh's ensure_loadgen).
#   SERVER_CPUS / LOAD_CPUS (e.g. 0 and 1): pin the servers, and wrk and the load generator, to
#   those CPUs (lib.sh), so that server and load do not compete for cores. WORKERS then defaults to the number of SERVER_CPUS, which is also the service's loop
#   count (it sizes its loops by the CPUs it may use).
# Prints Markdown tables on stdout; progress on stderr. Loopback only.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

[ $# -ge 1 ] || die "usage: $0 [NAME=]SERVICE_BINARY ..."
ROUNDS="${ROUNDS:-5}"
DURATION="${DURATION:-5}"
WORKERS="${WORKERS:-$(${server_pin[@]+"${server_pin[@]}"} nproc)}"
HUMMINGBIRD="${HUMMINGBIRD:-}"
ensure_wrk
command -v nginx >/dev/null 2>&1 || die "nginx not found (apt-get install nginx)"
TICKS="$(getconf CLK_TCK)"

tmp="$(mktemp -d)"
PIDS=()
cleanup() {
    kill_bg
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

wait_port() {
    local port="$1" pid="$2"
    for _ in $(seq 300); do
        curl -s -o /dev/null --max-time 1 "http://127.0.0.1:$port/" && return 0
        kill -0 "$pid" 2>/dev/null || die "server $pid exited before listening on $port"
        sleep 0.1
    done
    die "nothing listens on $port"
}

# Servers: NAME, URL, WebSocket echo URL and the PIDs whose CPU time counts.
NAMES=() URLS=() WS_URLS=() CPU_PIDS=()

start_service() {
    local name="$1" binary="$2" port
    [ -x "$binary" ] || die "$binary is not an executable"
    port="$(free_port)"
    ${server_pin[@]+"${server_pin[@]}"} "$binary" --host 127.0.0.1 --port "$port" \
        --github-api-url http://127.0.0.1:9 >"$tmp/$name.log" 2>&1 &
    local pid=$!
    PIDS+=("$pid")
    wait_port "$port" "$pid"
    NAMES+=("$name") URLS+=("http://127.0.0.1:$port/healthz") WS_URLS+=("ws://127.0.0.1:$port/ws/echo")
    CPU_PIDS+=("$pid")
}

start_nginx() {
    local port body
    port="$(free_port)"
    mkdir -p "$tmp/nginx"
    body="$(curl -s "${URLS[0]}")"
    # The service's answer: 200, Content-Type application/json, the same bytes.
    cat >"$tmp/nginx/nginx.conf" <<EOF
worker_processes $WORKERS;
error_log $tmp/nginx/error.log warn;
pid $tmp/nginx/nginx.pid;
events { worker_connections 4096; }
http {
    access_log off;
    keepalive_requests 1000000;
    client_body_temp_path $tmp/nginx;
    proxy_temp_path $tmp/nginx;
    fastcgi_temp_path $tmp/nginx;
    uwsgi_temp_path $tmp/nginx;
    scgi_temp_path $tmp/nginx;
    server {
        listen 127.0.0.1:$port;
        location = /healthz { default_type application/json; return 200 '$body'; }
        location / { return 200; }
    }
}
EOF
    ${server_pin[@]+"${server_pin[@]}"} nginx -c "$tmp/nginx/nginx.conf" -g 'daemon off;' \
        >"$tmp/nginx.log" 2>&1 &
    local pid=$!
    PIDS+=("$pid")
    wait_port "$port" "$pid"
    NAMES+=("nginx-${WORKERS}w") URLS+=("http://127.0.0.1:$port/healthz") WS_URLS+=("") CPU_PIDS+=("$pid")
}

start_hummingbird() {
    local port
    port="$(free_port)"
    ${server_pin[@]+"${server_pin[@]}"} "$HUMMINGBIRD" --port "$port" --threads "$WORKERS" \
        >"$tmp/hummingbird.log" 2>&1 &
    local pid=$!
    PIDS+=("$pid")
    wait_port "$port" "$pid"
    NAMES+=("hummingbird") URLS+=("http://127.0.0.1:$port/hello") WS_URLS+=("ws://127.0.0.1:$port/ws/echo")
    CPU_PIDS+=("$pid")
}

# CPU ticks of PID and its children processes (nginx's workers): "user+system system".
cpu_ticks() {
    local total=0 system=0 pid user sys
    for pid in "$1" $(pgrep -P "$1" || true); do
        read -r user sys < <(awk '{ print $14, $15 }' "/proc/$pid/stat" 2>/dev/null || echo 0 0)
        total=$((total + user + sys)) system=$((system + sys))
    done
    echo "$total $system"
}

# run INDEX: one wrk run against server INDEX; prints "requests/s µs-per-request system-µs".
run() {
    local i="$1" before before_sys after after_sys requests seconds
    read -r before before_sys < <(cpu_ticks "${CPU_PIDS[$i]}")
    run_bg timeout $((DURATION + 30)) ${load_pin[@]+"${load_pin[@]}"} \
        wrk -t2 -c64 -d"${DURATION}s" "${URLS[$i]}" >"$tmp/wrk.txt" || die "[${NAMES[$i]}] wrk failed"
    read -r after after_sys < <(cpu_ticks "${CPU_PIDS[$i]}")
    if grep -q 'Non-2xx or 3xx responses' "$tmp/wrk.txt"; then die "[${NAMES[$i]}] non-2xx answers"; fi
    requests="$(awk '/requests in/ { print $1 }' "$tmp/wrk.txt")"
    seconds="$(awk '/requests in/ { sub(/s,$/, "", $4); print $4 }' "$tmp/wrk.txt")"
    awk -v r="$requests" -v s="$seconds" -v t=$((after - before)) -v k=$((after_sys - before_sys)) \
        -v hz="$TICKS" 'BEGIN { printf "%.0f %.2f %.2f\n", r / s, t / hz * 1e6 / r, k / hz * 1e6 / r }'
}

# run_ws INDEX: one load-generator run against server INDEX; prints "round-trips/s p99-µs
# µs-per-round-trip system-µs load-generator-µs" (the last from the generator's own report).
run_ws() {
    local i="$1" before before_sys after after_sys rc=0
    read -r before before_sys < <(cpu_ticks "${CPU_PIDS[$i]}")
    run_bg timeout $((DURATION + 30)) ${load_pin[@]+"${load_pin[@]}"} \
        "$LOADGEN" -c 64 -d "$DURATION" -s 32 -o json "${WS_URLS[$i]}" >"$tmp/ws.json" || rc=$?
    read -r after after_sys < <(cpu_ticks "${CPU_PIDS[$i]}")
    python3 - "$tmp/ws.json" $((after - before)) $((after_sys - before_sys)) "$TICKS" "$DURATION" \
        "$rc" "${NAMES[$i]}" <<'PY'
import json, sys
path, ticks, sys_ticks, hz, duration, rc, name = sys.argv[1:]
r = json.load(open(path))
if int(rc) != 0 or r["errors"] != 0:
    sys.exit(f"[{name}] the load generator reported {r['errors']} errors (exit {rc})")
trips = r["rate"] * float(duration)
def per_trip(t): return int(t) / float(hz) * 1e6 / trips
print(f"{r['rate']:.0f} {r['p99_us']} {per_trip(ticks):.2f} {per_trip(sys_ticks):.2f} {r.get('cpu_us_per_round_trip', 'n/a')}")
PY
}

for arg in "$@"; do
    case "$arg" in
        *=*) start_service "${arg%%=*}" "${arg#*=}" ;;
        *) start_service "service" "$arg" ;;
    esac
done
start_nginx
[ -n "$HUMMINGBIRD" ] && start_hummingbird

log "warm-up: 1 s of wrk on each server"
for i in "${!NAMES[@]}"; do
    run_bg timeout 30 ${load_pin[@]+"${load_pin[@]}"} wrk -t2 -c64 -d1s "${URLS[$i]}" >/dev/null || die "[${NAMES[$i]}] warm-up failed"
done

# round_order ROUND: the servers' indices, reversed in even rounds, so that no server always runs
# first (or right after another) in a round: on a shared machine the position alone moves a figure.
round_order() {
    local indices=("${!NAMES[@]}")
    if [ $(($1 % 2)) -eq 0 ]; then
        for ((k = ${#indices[@]} - 1; k >= 0; k--)); do printf '%s ' "${indices[$k]}"; done
    else
        printf '%s ' "${indices[@]}"
    fi
}

printf '| round | server | requests/s | CPU µs/request | of which system |\n|---:|---|---:|---:|---:|\n'
for round in $(seq "$ROUNDS"); do
    for i in $(round_order "$round"); do
        out="$(run "$i")" || exit 1
        read -r rps us sys_us <<<"$out"
        printf '| %s | %s | %s | %s | %s |\n' "$round" "${NAMES[$i]}" "$rps" "$us" "$sys_us"
        printf '%s %s %s %s %s\n' "${NAMES[$i]}" "$rps" "$us" "$sys_us" "$round" >>"$tmp/results"
    done
done

pinning="nothing pinned"
[ -z "${SERVER_CPUS:-}${LOAD_CPUS:-}" ] ||
    pinning="servers on CPUs ${SERVER_CPUS:-any}, load on CPUs ${LOAD_CPUS:-any}"

nginx_name="nginx-${WORKERS}w"
printf '\nMedians over %s rounds (wrk -t2 -c64 -d%ss, %s loops/workers, %s, load average %s):\n\n' \
    "$ROUNDS" "$DURATION" "$WORKERS" "$pinning" "$(cut -d' ' -f1-3 /proc/loadavg)"
printf '| server | requests/s | CPU µs/request | of which system | throughput vs nginx | CPU/request vs nginx | same-round CPU/request vs nginx: median [range] |\n'
printf '|---|---:|---:|---:|---:|---:|---:|\n'
python3 - "$tmp/results" "$nginx_name" "${NAMES[@]}" <<'PY'
import statistics, sys
rows = [line.split() for line in open(sys.argv[1])]
anchor, names = sys.argv[2], sys.argv[3:]
def median(name, column):
    return statistics.median(float(r[column]) for r in rows if r[0] == name)
anchor_us = {r[4]: float(r[2]) for r in rows if r[0] == anchor}
base_rps, base_us = median(anchor, 1), median(anchor, 2)
for name in names:
    rps, us, sys_us = median(name, 1), median(name, 2), median(name, 3)
    paired = [float(r[2]) / anchor_us[r[4]] for r in rows if r[0] == name]
    spread = f"{statistics.median(paired):.2f}x [{min(paired):.2f}–{max(paired):.2f}]"
    print(f"| {name} | {rps:,.0f} | {us:.2f} | {sys_us:.2f} | {rps / base_rps:.2f}x | {us / base_us:.2f}x | {spread} |")
PY

[ -n "$HUMMINGBIRD" ] || exit 0

ensure_loadgen
printf '\n| round | server | round trips/s | p99 µs | CPU µs/round trip | of which system | load generator CPU µs/round trip |\n'
printf '|---:|---|---:|---:|---:|---:|---:|\n'
for round in $(seq "$ROUNDS"); do
    for i in $(round_order "$round"); do
        [ -n "${WS_URLS[$i]}" ] || continue
        out="$(run_ws "$i")" || exit 1
        read -r rate p99 us sys_us loadgen_us <<<"$out"
        printf '| %s | %s | %s | %s | %s | %s | %s |\n' "$round" "${NAMES[$i]}" "$rate" "$p99" "$us" "$sys_us" "$loadgen_us"
        printf '%s %s %s %s %s %s\n' "${NAMES[$i]}" "$rate" "$p99" "$us" "$sys_us" "$loadgen_us" >>"$tmp/ws-results"
    done
done

printf '\nWebSocket echo, medians over %s rounds (%s -c 64 -s 32 -d %s, %s, load average %s):\n\n' \
    "$ROUNDS" "$(basename "$LOADGEN")" "$DURATION" "$pinning" "$(cut -d' ' -f1-3 /proc/loadavg)"
printf '| server | round trips/s | p99 µs | CPU µs/round trip | of which system | load generator CPU µs/round trip | round trips vs Hummingbird | CPU vs Hummingbird |\n'
printf '|---|---:|---:|---:|---:|---:|---:|---:|\n'
python3 - "$tmp/ws-results" <<'PY'
import statistics, sys
rows = [line.split() for line in open(sys.argv[1])]
names = list(dict.fromkeys(r[0] for r in rows))
def median(name, column):
    values = [float(r[column]) for r in rows if r[0] == name and r[column] != "n/a"]
    return statistics.median(values) if values else float("nan")
base_rate, base_us = median("hummingbird", 1), median("hummingbird", 3)
for name in names:
    rate, p99, us, sys_us, loadgen = (median(name, c) for c in (1, 2, 3, 4, 5))
    print(f"| {name} | {rate:,.0f} | {p99:,.0f} | {us:.2f} | {sys_us:.2f} | {loadgen:.2f} | {rate / base_rate:.2f}x | {us / base_us:.2f}x |")
PY
