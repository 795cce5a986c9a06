#!/usr/bin/env bash
# WebSocket echo: `WebSocketClientBench -c 64 -d 10 -s 32 -o json URL` (the load generator of
# lib.sh's ensure_loadgen; 64 connections, each sending one 32-byte text message and waiting for
# its echo before the next) after a 2 s warm-up.
# Usage: ws-echo.sh NAME URL        (URL on loopback, e.g. ws://127.0.0.1:8081/ws/echo)
# Prints one Markdown row: | NAME | round trips/s | p50 (µs) | p99 (µs) |
# Fails (exit 1) when the load generator reports any error (connect, handshake, mismatch, server close).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

[ $# -eq 2 ] || die "usage: $0 NAME URL"
name="$1" url="$2"
require_loopback "$url"
ensure_loadgen

tmp="$(mktemp -d)"
trap 'kill_bg; rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

log "[$name] warm-up 2 s: $LOADGEN -c 64 -d 2 -s 32 $url"
run_bg timeout 30 "$LOADGEN" -c 64 -d 2 -s 32 "$url" >&2 || die "[$name] warm-up failed"
log "[$name] $LOADGEN -c 64 -d 10 -s 32 -o json $url"
rc=0
run_bg timeout 60 "$LOADGEN" -c 64 -d 10 -s 32 -o json "$url" >"$tmp/out.json" || rc=$?
cat "$tmp/out.json" >&2
[ -s "$tmp/out.json" ] || die "[$name] the load generator printed nothing (exit $rc)"

read -r rate p50 p99 errors < <(python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
print(r["rate"], r["p50_us"], r["p99_us"], r["errors"])' "$tmp/out.json")
[ "$rc" -eq 0 ] && [ "$errors" -eq 0 ] || die "[$name] the load generator reported $errors errors (exit $rc)"

printf '| %s | %.0f | %s | %s |\n' "$name" "$rate" "$p50" "$p99"
