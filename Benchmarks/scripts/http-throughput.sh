#!/usr/bin/env bash
# HTTP throughput of a small GET: `wrk -t2 -c64 -d10s --latency URL` after a 2 s warm-up.
# Usage: http-throughput.sh NAME URL      (URL on loopback, e.g. http://127.0.0.1:8081/hello)
# Prints one Markdown row: | NAME | requests/s | p50 (µs) | p99 (µs) |
# Fails (exit 1) when the URL does not answer 200, or when wrk saw non-2xx/3xx answers.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

[ $# -eq 2 ] || die "usage: $0 NAME URL"
name="$1" url="$2"
require_loopback "$url"
ensure_wrk

tmp="$(mktemp -d)"
trap 'kill_bg; rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

status="$(curl -s -o /dev/null -w '%{http_code}' --max-time 5 "$url" || true)"
[ "$status" = 200 ] || die "$url answered '$status', not 200"

log "[$name] wrk warm-up 2 s: $url"
run_bg timeout 30 wrk -t2 -c64 -d2s "$url" >/dev/null || die "[$name] wrk warm-up failed"
log "[$name] wrk -t2 -c64 -d10s --latency $url"
run_bg timeout 60 wrk -t2 -c64 -d10s --latency "$url" >"$tmp/wrk.txt" || die "[$name] wrk failed"
cat "$tmp/wrk.txt" >&2

rps="$(awk '/^Requests\/sec:/ { printf "%.0f", $2 }' "$tmp/wrk.txt")"
p50="$(awk '$1 == "50%" { print $2 }' "$tmp/wrk.txt")"
p99="$(awk '$1 == "99%" { print $2 }' "$tmp/wrk.txt")"
[ -n "$rps" ] && [ -n "$p50" ] && [ -n "$p99" ] || die "could not parse wrk output"

if grep -q 'Non-2xx or 3xx responses' "$tmp/wrk.txt"; then
    die "[$name] wrk saw non-2xx/3xx responses: $(grep 'Non-2xx' "$tmp/wrk.txt")"
fi
if grep -q '^  Socket errors' "$tmp/wrk.txt"; then
    log "[$name] warning: $(grep '^  Socket errors' "$tmp/wrk.txt")"
fi

printf '| %s | %s | %s | %s |\n' "$name" "$rps" "$(wrk_to_us "$p50")" "$(wrk_to_us "$p99")"
