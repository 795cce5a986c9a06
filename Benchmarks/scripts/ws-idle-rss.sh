#!/usr/bin/env bash
# Memory per idle WebSocket connection: opens 10,000 connections at 2,000/s with
# `WebSocketClientBench -m idle -c 10000 -r 2000 -d 20 URL` (the load generator of lib.sh's
# ensure_loadgen; 5 s ramp, then held to t = 20 s) and reads the server's VmRSS from
# /proc/PID/status before the run and at t = 17 s, while all are held.
# Usage: ws-idle-rss.sh NAME URL PID  (URL on loopback; PID is the server process)
# Prints one Markdown row:
#   | NAME | RSS before (KB) | RSS held (KB) | (held − before) / 10000 (KB/conn) | server fds held | open at end |
# Needs an open-file limit of at least 10,300 here and in the server (raised here; the server's
# is raised with prlimit when it is lower). Fails (exit 1) on the load generator's errors.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

CONNS=10000 RATE=2000 HOLD=20 SAMPLE_AT=17
NEED_FDS=$((CONNS + 300))

[ $# -eq 3 ] || die "usage: $0 NAME URL PID"
name="$1" url="$2" pid="$3"
require_loopback "$url"
[ -r "/proc/$pid/status" ] || die "no process $pid"
ensure_loadgen
raise_nofile "$NEED_FDS"

# The server holds one descriptor per connection too.
server_soft="$(awk '/^Max open files/ { print $4 }' "/proc/$pid/limits")"
if [ "$server_soft" != unlimited ] && [ "$server_soft" -lt "$NEED_FDS" ]; then
    log "[$name] server $pid open-file limit is $server_soft: raising it with prlimit"
    prlimit --pid "$pid" --nofile="$(ulimit -n):$(ulimit -Hn)" ||
        die "server open-file limit $server_soft < $NEED_FDS and prlimit failed; start it with a higher ulimit -n"
fi

tmp="$(mktemp -d)"
wspid=""
cleanup() {
    if [ -n "$wspid" ] && kill -0 "$wspid" 2>/dev/null; then kill "$wspid" 2>/dev/null || true; fi
    kill_bg
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

before="$(vmrss_kb "$pid")"
log "[$name] VmRSS before: $before KB; $LOADGEN -m idle -c $CONNS -r $RATE -d $HOLD $url"
timeout $((HOLD + 30)) "$LOADGEN" -m idle -c "$CONNS" -r "$RATE" -d "$HOLD" -o json "$url" >"$tmp/out.json" &
wspid=$!
run_bg sleep "$SAMPLE_AT"
kill -0 "$pid" 2>/dev/null || die "[$name] server $pid died during the idle run"
held="$(vmrss_kb "$pid")"
fds="$(ls "/proc/$pid/fd" 2>/dev/null | wc -l)"
log "[$name] VmRSS at t=${SAMPLE_AT}s: $held KB, server fds: $fds"
rc=0
wait "$wspid" || rc=$?
wspid=""
cat "$tmp/out.json" >&2
[ -s "$tmp/out.json" ] || die "[$name] the load generator printed nothing (exit $rc)"

read -r handshakes open errors < <(python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
print(r["handshakes"], r["open"], r["errors"])' "$tmp/out.json")
[ "$rc" -eq 0 ] && [ "$errors" -eq 0 ] || die "[$name] the load generator reported $errors errors, $handshakes handshakes (exit $rc)"
[ "$open" -eq "$CONNS" ] || log "[$name] warning: only $open of $CONNS connections open at the end"

per_conn="$(awk -v a="$held" -v b="$before" -v n="$CONNS" 'BEGIN { printf "%.2f", (a - b) / n }')"
printf '| %s | %s | %s | %s | %s | %s |\n' "$name" "$before" "$held" "$per_conn" "$fds" "$open"
