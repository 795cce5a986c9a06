#!/usr/bin/env bash
# Heap allocations per keep-alive request: each ServiceApp binary given runs under an LD_PRELOAD
# counter (Benchmarks/tools/malloc-count.c, built here with cc), one `wrk -t1 -c1` connection
# sends GET PATH for DURATION seconds, and the allocations the process made during the run
# (all threads, read before and after with SIGUSR2) are divided by the requests wrk completed.
# Twice per binary: with wrk's own headers (Host only) and with the headers Chromium sends for a
# page load (User-Agent, Accept, Sec-CH-UA…: most longer than a small Swift string's 15 bytes).
#
# Usage: mallocs-per-request.sh [NAME=]SERVICE_BINARY [[NAME=]SERVICE_BINARY ...]
# Environment: DURATION seconds per run (default 3), URL_PATH (default /healthz).
# Prints a Markdown table on stdout; progress on stderr. Loopback only.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

[ $# -ge 1 ] || die "usage: $0 [NAME=]SERVICE_BINARY ..."
DURATION="${DURATION:-3}"
URL_PATH="${URL_PATH:-/healthz}"
ensure_wrk
command -v cc >/dev/null 2>&1 || die "cc not found (apt-get install gcc)"

tmp="$(mktemp -d)"
server=""
cleanup() {
    kill_bg
    if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

cc -O2 -shared -fPIC -o "$tmp/malloc-count.so" "$BENCH_DIR/tools/malloc-count.c"

BROWSER_HEADERS=(
    -H 'sec-ch-ua: "Chromium";v="131", "Not_A Brand";v="24"'
    -H 'sec-ch-ua-mobile: ?0'
    -H 'sec-ch-ua-platform: "Linux"'
    -H 'Upgrade-Insecure-Requests: 1'
    -H 'User-Agent: Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'
    -H 'Accept: text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8'
    -H 'Sec-Fetch-Site: none'
    -H 'Sec-Fetch-Mode: navigate'
    -H 'Sec-Fetch-User: ?1'
    -H 'Sec-Fetch-Dest: document'
    -H 'Accept-Encoding: gzip, deflate, br, zstd'
    -H 'Accept-Language: en-GB,en;q=0.9,de;q=0.8'
)

# count PID: the process's allocations so far.
count() {
    rm -f "$tmp/count"
    kill -USR2 "$1"
    for _ in $(seq 100); do [ -s "$tmp/count" ] && break; sleep 0.02; done
    [ -s "$tmp/count" ] || die "the counter in $1 did not answer"
    cat "$tmp/count"
}

# measure PID URL [HEADERS...]: prints "requests allocations-per-request".
measure() {
    local pid="$1" url="$2" before after requests
    shift 2
    run_bg timeout 30 wrk -t1 -c1 -d1s "$@" "$url" >/dev/null || die "warm-up failed"
    before="$(count "$pid")"
    run_bg timeout $((DURATION + 30)) wrk -t1 -c1 -d"${DURATION}s" "$@" "$url" >"$tmp/wrk.txt" || die "wrk failed"
    after="$(count "$pid")"
    if grep -q 'Non-2xx or 3xx responses' "$tmp/wrk.txt"; then die "non-2xx answers from $url"; fi
    requests="$(awk '/requests in/ { print $1 }' "$tmp/wrk.txt")"
    awk -v r="$requests" -v a=$((after - before)) 'BEGIN { printf "%d %.2f\n", r, a / r }'
}

printf '| build | headers | requests | allocations/request |\n|---|---|---:|---:|\n'
for arg in "$@"; do
    name="${arg%%=*}" binary="${arg#*=}"
    [ "$name" != "$arg" ] || name="service"
    [ -x "$binary" ] || die "$binary is not an executable"
    LD_PRELOAD="$tmp/malloc-count.so" MALLOC_COUNT_FILE="$tmp/count" \
        "$binary" --host 127.0.0.1 --port 0 --github-api-url http://127.0.0.1:9 >"$tmp/$name.log" 2>&1 &
    server=$!
    url="$(wait_listening "$tmp/$name.log" "$server")$URL_PATH"
    read -r requests per <<<"$(measure "$server" "$url")"
    printf '| %s | wrk (Host only) | %s | %s |\n' "$name" "$requests" "$per"
    read -r requests per <<<"$(measure "$server" "$url" "${BROWSER_HEADERS[@]}")"
    printf '| %s | Chromium page load (13 fields) | %s | %s |\n' "$name" "$requests" "$per"
    kill "$server"; wait "$server" 2>/dev/null || true; server=""
done
