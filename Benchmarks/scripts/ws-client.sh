#!/usr/bin/env bash
# What the WebSocket load generator costs: HTTPServer's WebSocketClient (WebSocketClientBench,
# the load generator of the other scripts) on the echo workload against HTTPServerBench on one
# loop (--loops 1), so that client and server each have a core of the two: 64 connections each
# sending one 32-byte text message and waiting for its echo, 10 s per run, after a 2 s warm-up.
# Per run: round trips/s, p50/p99 µs, client CPU µs per round trip (/usr/bin/time), server CPU
# µs per round trip (/proc/PID/stat): the client must cost less than the server it drives. Then
# the same with permessage-deflate (--deflate on both sides).
#
# Anchor, opt-in: WSLOAD=/path/to/wsload (a C load generator, one thread, epoll, with the same
# command line and JSON fields; it is not part of this repository, build it where you have it)
# alternates wsload's runs with ours, round by round, on the same server.
# Usage: [WSLOAD=/path/to/wsload] ws-client.sh [ROUNDS]     (build first, in Benchmarks/:
#        swift build -c release --product WebSocketClientBench --product HTTPServerBench)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

rounds="${1:-3}"
bin="$BENCH_DIR/.build/release"
[ -x "$bin/WebSocketClientBench" ] && [ -x "$bin/HTTPServerBench" ] || die "build WebSocketClientBench and HTTPServerBench (release) first"
WSLOAD="${WSLOAD:-}"
[ -z "$WSLOAD" ] || [ -x "$WSLOAD" ] || die "WSLOAD=$WSLOAD is not an executable"
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
    /usr/bin/time -f '%U %S' -o "$tmp/time" "$@" -c 64 -d 10 -s 32 -o json "$url" >"$tmp/out.json" 2>"$tmp/err" ||
        { cat "$tmp/err" >&2; die "[$name] failed"; }
    after="$(server_ticks)"
    python3 - "$name" "$tmp/out.json" "$tmp/time" "$before" "$after" "$(getconf CLK_TCK)" <<'PY'
import json, sys
name, out, time, before, after, hz = sys.argv[1:]
r = json.loads(open(out).read().strip().splitlines()[-1])
u, s = map(float, open(time).read().split()[-2:])
trips = r["messages"]  # echoes received in the measured window (both tools)
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
[ -z "$WSLOAD" ] || "$WSLOAD" -c 64 -d 2 -s 32 "$url" >/dev/null
"$bin/WebSocketClientBench" -c 64 -d 2 -s 32 "$url" >/dev/null
for round in $(seq "$rounds"); do
    [ -z "$WSLOAD" ] || run "wsload (C) #$round" "$WSLOAD"
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
