#!/usr/bin/env bash
# Runs the HTTP/WebSocket benchmarks against each server in turn and prints Markdown tables.
#
#   OURS_CMD="$PWD/.build/release/ServiceApp --port 8080" Benchmarks/scripts/run-all.sh
#
# Servers: "ours" (the command line in OURS_CMD; skipped with a note when empty; OURS_NAME
# renames its rows), then the anchors HummingbirdAnchor (:8081, extra arguments in HB_ARGS, e.g.
# "--threads 1") and FlyingFoxAnchor (:8082),
# built here in release mode. Each server must print `listening on http://127.0.0.1:PORT` on
# stdout once bound, serve `GET /hello` and a WebSocket echo at `/ws/echo`. One at a time, each is
# started, measured by http-throughput.sh, ws-echo.sh and ws-idle-rss.sh, and stopped. The WebSocket
# load generator is Benchmarks' WebSocketClientBench, built here too (LOADGEN=PATH runs another).
# Progress and raw tool output go to stderr; the tables go to stdout.
#
# SERVER_CPUS / LOAD_CPUS (e.g. 0 and 1): pin each server, and the load generators, to those CPUs
# with taskset, so that the two do not compete for cores (as if on separate machines). Servers
# that size their thread pools by the cores they may use (ours, SwiftNIO) follow the pinning.
set -euo pipefail
SCRIPTS="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$SCRIPTS/lib.sh"

START_TIMEOUT=60   # seconds to wait for a server's `listening on` line
OURS_NAME="${OURS_NAME:-ours}"

tmp="$(mktemp -d)"
server_pid=""
stop_server() {
    [ -n "$server_pid" ] || return 0
    if kill -0 "$server_pid" 2>/dev/null; then
        kill "$server_pid" 2>/dev/null || true
        for _ in $(seq 50); do kill -0 "$server_pid" 2>/dev/null || break; sleep 0.1; done
        if kill -0 "$server_pid" 2>/dev/null; then kill -9 "$server_pid" 2>/dev/null || true; fi
    fi
    wait "$server_pid" 2>/dev/null || true
    server_pid=""
}
cleanup() { kill_bg; stop_server; rm -rf "$tmp"; }
trap cleanup EXIT
trap 'exit 130' INT TERM

load_start="$(cut -d' ' -f1-3 /proc/loadavg)"

# Servers inherit this limit (10,000 idle connections need more than 10,000 descriptors).
raise_nofile 10300

log "== building $BENCH_DIR in release mode (scratch path $SCRATCH_DIR)"
# The two anchor products do not compile the root package (path ".."), though SwiftPM still loads
# its manifest; the load generator (ensure_loadgen, below) compiles its HTTPServer. When a build
# fails (e.g. the root manifest is mid-edit) and the binaries exist from an earlier build, they
# are used with a warning.
BIN="$SCRATCH_DIR/release"
build_ok=1
for product in HummingbirdAnchor FlyingFoxAnchor; do
    run_bg swift build -c release --package-path "$BENCH_DIR" --scratch-path "$SCRATCH_DIR" \
        --product "$product" >&2 || build_ok=0
done
if [ "$build_ok" -eq 0 ]; then
    [ -x "$BIN/HummingbirdAnchor" ] && [ -x "$BIN/FlyingFoxAnchor" ] || die "the anchors did not build"
    log "warning: the build failed; using the anchor binaries from an earlier build in $BIN"
fi
ensure_wrk
ensure_loadgen

names=() cmds=()
if [ -n "${OURS_CMD:-}" ]; then
    names+=("$OURS_NAME"); cmds+=("$OURS_CMD")
else
    log "note: OURS_CMD is empty: measuring the anchors only"
fi
names+=("Hummingbird 2.28" "FlyingFox 0.27")
cmds+=("$BIN/HummingbirdAnchor --port 8081 ${HB_ARGS:-}" "$BIN/FlyingFoxAnchor --port 8082")

http_rows=() echo_rows=() idle_rows=()
for i in "${!names[@]}"; do
    name="${names[$i]}" cmd="${cmds[$i]}"
    log "== $name: $cmd"
    out="$tmp/server-$i.out"
    : >"$out"
    # exec: the PID we hold is the server itself, so stopping it and reading its RSS are exact.
    bash -c "exec ${server_pin[*]+${server_pin[*]} }$cmd" >"$out" 2>"$tmp/server-$i.err" &
    server_pid=$!
    base=""
    deadline=$((SECONDS + START_TIMEOUT))
    while [ "$SECONDS" -lt "$deadline" ]; do
        base="$(sed -n 's|.*listening on \(http://[^ /]*\).*|\1|p' "$out" | head -n 1)"
        [ -n "$base" ] && break
        kill -0 "$server_pid" 2>/dev/null || break
        run_bg sleep 0.2
    done
    if [ -z "$base" ]; then
        if kill -0 "$server_pid" 2>/dev/null; then
            log "error: $name printed no 'listening on http://…' line within ${START_TIMEOUT}s"
        else
            log "error: $name exited before printing a 'listening on http://…' line"
        fi
        cat "$out" "$tmp/server-$i.err" >&2 || true
        stop_server
        http_rows+=("| $name | failed to start | | |")
        echo_rows+=("| $name | failed to start | | |")
        idle_rows+=("| $name | failed to start | | | | |")
        continue
    fi
    require_loopback "$base"
    ws="ws://${base#http://}/ws/echo"
    log "   $name listening at $base (pid $server_pid)"

    # Each script runs in the background (run_bg) so that INT/TERM stop the run at once.
    row="| $name | failed (see log) | | |"
    run_bg ${load_pin[@]+"${load_pin[@]}"} "$SCRIPTS/http-throughput.sh" "$name" "$base/hello" >"$tmp/row" && row="$(cat "$tmp/row")"
    http_rows+=("$row")
    row="| $name | failed (see log) | | |"
    run_bg ${load_pin[@]+"${load_pin[@]}"} "$SCRIPTS/ws-echo.sh" "$name" "$ws" >"$tmp/row" && row="$(cat "$tmp/row")"
    echo_rows+=("$row")
    run_bg sleep 2   # let closed sockets drain before measuring the baseline RSS
    row="| $name | failed (see log) | | | | |"
    run_bg ${load_pin[@]+"${load_pin[@]}"} "$SCRIPTS/ws-idle-rss.sh" "$name" "$ws" "$server_pid" >"$tmp/row" && row="$(cat "$tmp/row")"
    idle_rows+=("$row")

    stop_server
    run_bg sleep 2   # TIME_WAIT and port release between servers
done

cpu="$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)"
cat <<MD
### HTTP: small GET (\`GET /hello\`, 13-byte body)

\`wrk -t2 -c64 -d10s --latency URL\` after a 2 s warm-up (\`wrk -t2 -c64 -d2s URL\`).

| server | requests/s | p50 (µs) | p99 (µs) |
|---|---:|---:|---:|
$(printf '%s\n' "${http_rows[@]}")

### WebSocket echo (64 connections, 32-byte text messages, one in flight per connection)

\`$(basename "$LOADGEN") -c 64 -d 10 -s 32 -o json ws://…/ws/echo\` after a 2 s warm-up (\`-c 64 -d 2 -s 32\`).

| server | round trips/s | p50 (µs) | p99 (µs) |
|---|---:|---:|---:|
$(printf '%s\n' "${echo_rows[@]}")

### Memory with 10,000 idle WebSocket connections

\`$(basename "$LOADGEN") -m idle -c 10000 -r 2000 -d 20 ws://…/ws/echo\`; server VmRSS read before the run and at t = 17 s (all connections held).

| server | VmRSS before (KB) | VmRSS held (KB) | KB per connection | server fds held | open at end |
|---|---:|---:|---:|---:|---:|
$(printf '%s\n' "${idle_rows[@]}")

Servers (one at a time; load generator on the same machine, over loopback$( [ -z "${SERVER_CPUS:-}${LOAD_CPUS:-}" ] || printf '; servers pinned with `taskset -c %s`, load generators with `taskset -c %s`' "${SERVER_CPUS:-(none)}" "${LOAD_CPUS:-(none)}")):
$(for i in "${!names[@]}"; do printf -- '- %s: `%s`\n' "${names[$i]}" "${cmds[$i]}"; done)
$( [ -n "${OURS_CMD:-}" ] || echo '- ours: not measured (OURS_CMD was empty)')

Machine: $(nproc) CPUs, $cpu, Linux $(uname -r); $(swift --version 2>/dev/null | head -n 1); wrk $(wrk -v 2>&1 | awk 'NR == 1 { print $2 }'); $(date -u +%Y-%m-%dT%H:%MZ).
Load average (1/5/15 min) at the start: $load_start, at the end: $(cut -d' ' -f1-3 /proc/loadavg) (other work on the machine shows here and makes the figures noisier).
MD
