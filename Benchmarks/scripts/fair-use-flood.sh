#!/usr/bin/env bash
# Fair use under a flood of distinct clients: wrk sends REST lookups through a "trusted proxy"
# (127.0.0.1 is listed in trustedProxies), each with a new X-Forwarded-For address and a new
# login, so every request creates a client entry and spends from its bucket (FakeUpstream
# answers at once). Records the service's VmRSS and the tracked-client gauge before, after and
# SETTLE seconds later, for the default cap and for a small one (the cache is off, so the RSS
# figure is the client table's). Loopback only; release builds.
#
# Usage: scripts/fair-use-flood.sh        Environment: DURATION=40 CONNECTIONS=32 SETTLE=5
#                                                      CAPS="100000 10000" SKIP_BUILD=1
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

DURATION="${DURATION:-40}" CONNECTIONS="${CONNECTIONS:-32}" SETTLE="${SETTLE:-5}" CAPS="${CAPS:-100000 10000}"
ROOT_DIR="$(cd "$BENCH_DIR/.." && pwd)"
SERVICE="$ROOT_DIR/.build/release/ServiceApp"
UPSTREAM="$BENCH_DIR/.build/release/FakeUpstream"
ensure_wrk
if [ "${SKIP_BUILD:-0}" != 1 ]; then
    (cd "$ROOT_DIR" && swift build -c release --product ServiceApp >&2)
    (cd "$BENCH_DIR" && swift build -c release --product FakeUpstream >&2)
fi

tmp="$(mktemp -d)"
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
    rm -rf "$tmp"
}
trap cleanup EXIT

"$UPSTREAM" --port 0 --delay-ms 0 >"$tmp/upstream.log" 2>&1 &
pids+=($!)
upstream_url="$(wait_listening "$tmp/upstream.log" "${pids[-1]}")"
require_loopback "$upstream_url"

# Every request: a new address (per wrk thread, a counter spread over 10.x.y.z) and a new login.
cat >"$tmp/flood.lua" <<'LUA'
local counter = 0
local thread_id = 0
local threads = 0
function setup(thread) threads = threads + 1; thread:set("thread_id", threads) end
function request()
  counter = counter + 1
  local n = thread_id * 10000000 + counter
  local address = string.format("10.%d.%d.%d", math.floor(n / 65536) % 256, math.floor(n / 256) % 256, n % 256)
  if thread_id > 1 then address = string.format("fd00::%x:%x", thread_id, counter) end
  return wrk.format("GET", "/api/users/flood" .. thread_id .. "x" .. counter, { ["X-Forwarded-For"] = address })
end
LUA

printf '| limits.maxTrackedClients | requests (= distinct clients) | tracked clients after | VmRSS before | after the flood | +%s s |\n|---:|---:|---:|---:|---:|---:|\n' "$SETTLE"
for cap in $CAPS; do
    python3 - "$ROOT_DIR/config/service.json" "$cap" >"$tmp/service.json" <<'PY'
import json, sys
config = json.load(open(sys.argv[1]))
config["trustedProxies"] = ["127.0.0.1"]
config["limits"]["maxTrackedClients"] = int(sys.argv[2])
config["logLevel"] = "warning"
config["cache"]["capacity"] = 0  # every login is new anyway: keep the cache out of the RSS figure
print(json.dumps(config))
PY
    (cd "$ROOT_DIR" && exec "$SERVICE" --host 127.0.0.1 --port 0 --github-api-url "$upstream_url" --config "$tmp/service.json") >"$tmp/service.log" 2>&1 &
    service_pid=$!
    pids+=("$service_pid")
    service_url="$(wait_listening "$tmp/service.log" "$service_pid")"
    require_loopback "$service_url"
    sleep 1
    before="$(vmrss_kb "$service_pid")"
    wrk -t 2 -c "$CONNECTIONS" -d "${DURATION}s" -s "$tmp/flood.lua" "$service_url" >"$tmp/wrk.txt" 2>&1
    after="$(vmrss_kb "$service_pid")"
    requests="$(awk '/requests in/ { print $1 }' "$tmp/wrk.txt")"
    tracked="$(curl -s "$service_url/metrics" | awk '/^fair_use_tracked_clients / { printf "%d", $2 }')"
    sleep "$SETTLE"
    settled="$(vmrss_kb "$service_pid")"
    log "cap $cap: $(grep -E 'requests in|Requests/sec|Non-2xx' "$tmp/wrk.txt" | tr '\n' ' ')"
    printf '| %s | %s | %s | %s KB | %s KB | %s KB |\n' "$cap" "$requests" "$tracked" "$before" "$after" "$settled"
    kill -TERM "$service_pid"; wait "$service_pid" 2>/dev/null || true
done
printf '\n%s\n' "wrk -t 2 -c $CONNECTIONS -d ${DURATION}s -s flood.lua (a new X-Forwarded-For and login per request), service with trustedProxies [127.0.0.1]"
