#!/usr/bin/env bash
# HTTPServer's WebSocketClient against wsload (C, one thread, epoll) on the same workload and
# the same server, alternating: 64 connections each sending one 32-byte text message and
# waiting for its echo, 10 s per run, after a 2 s warm-up of each. The server is
# HTTPServerBench on one loop (--loops 1), so client and server each have a core of the two.
# Per run: round trips/s, p50/p99 µs, client CPU µs per round trip (/usr/bin/time), server CPU
# µs per round trip (/proc/PID/stat). Then our client alone with permessage-deflate against the
# server with --deflate (wsload does not compress).
# Usage: ws-client.sh [ROUNDS]      (build first: swift build -c release --product
#        WebSocketClientBench --product HTTPServerBench, in Benchmarks/)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

rounds="${1:-3}"
bin="$BENCH_DIR/.build/release"
[ -x "$bin/WebSocketClientBench" ] && [ -x "$bin/HTTPServerBench" ] || die "build WebSocketClientBench and HTTPServerBench (release) first"
ensure_wsload
tmp="$(mktemp -d)"
server_pid=""
trap 'kill_bg; [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null; rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

start_server() {
    "$bin/HTTPServerBench" --port 0 --loops 1 "$@" >"$tmp/server.log" 2>&1 &
    server_pid=$!
    url="$(wait_listening "$tmp/server.log" "$server_pid")"
    url="ws://${url#http://}/ws/echo"
}
stop_server() { kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; server_pid=""; }
server_ticks() { awk '{ print $14 + $15 }' "/proc/$server_pid/stat"; }

# run NAME COMMAND…: one 10 s run; prints a Markdown row.
run() {
    local name="$1"; shift
    local before after
    before="$(server_ticks)"
    /usr/bin/time -f '%U %S' -o "$tmp/time" "$@" -c 64 -d 10 -s 32 "$url" >"$tmp/out.json" 2>"$tmp/err" ||
        { cat "$tmp/err" >&2; die "[$name] failed"; }
    after="$(server_ticks)"
    python3 - "$name" "$tmp/out.json" "$tmp/time" "$before" "$after" "$(getconf CLK_TCK)" <<'PY'
import json, sys
name, out, time, before, after, hz = sys.argv[1:]
r = json.loads(open(out).read().strip().splitlines()[-1])
u, s = map(float, open(time).read().split()[-2:])
trips = r.get("round_trips") or r["rate"] * 10
assert r["errors"] == 0, f"{name}: {r['errors']} errors"
client = (u + s) * 1e6 / trips
server = (int(after) - int(before)) * 1e6 / int(hz) / trips
print(f"| {name} | {r['rate']:.0f} | {r['p50_us']} | {r['p99_us']} | {client:.2f} | {server:.2f} |")
PY
}

log "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "| client | round trips/s | p50 (µs) | p99 (µs) | client CPU µs/round trip | server CPU µs/round trip |"
echo "|---|---|---|---|---|---|"
start_server
"$WSLOAD" -c 64 -d 2 -s 32 "$url" >/dev/null
"$bin/WebSocketClientBench" -c 64 -d 2 -s 32 "$url" >/dev/null
for round in $(seq "$rounds"); do
    run "wsload (C) #$round" "$WSLOAD" -o json
    run "WebSocketClient #$round" "$bin/WebSocketClientBench"
done
stop_server
start_server --deflate
"$bin/WebSocketClientBench" -c 64 -d 2 -s 32 --deflate "$url" >/dev/null
for round in $(seq "$rounds"); do
    run "WebSocketClient, permessage-deflate #$round" "$bin/WebSocketClientBench" --deflate
done
stop_server
log "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
