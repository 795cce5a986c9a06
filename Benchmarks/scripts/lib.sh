# Shared helpers for the HTTP/WebSocket benchmark scripts (sourced, not run).
# Everything here targets loopback servers only.

BENCH_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SCRATCH_DIR="$BENCH_DIR/.build-anchors"
# The WebSocket load generator (see ensure_loadgen).
LOADGEN="${LOADGEN:-}"

# SERVER_CPUS / LOAD_CPUS (e.g. 0 and 1): the taskset prefixes that pin the servers, and the load
# generators, to those CPUs, so that the two do not compete for cores (as if on separate
# machines); empty when unset. Used as ${server_pin[@]+"${server_pin[@]}"} COMMAND (bash 4.3
# treats an empty array as unset under `set -u`).
server_pin=() load_pin=()
if [ -n "${SERVER_CPUS:-}" ]; then server_pin=(taskset -c "$SERVER_CPUS"); fi
if [ -n "${LOAD_CPUS:-}" ]; then load_pin=(taskset -c "$LOAD_CPUS"); fi

log() { printf '%s\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# Refuse anything but a loopback target: 127.0.0.0/8, localhost or [::1].
require_loopback() {
    local url="$1" host
    host="${url#*://}"; host="${host%%/*}"
    case "$host" in
        \[*) host="${host%%]*}]" ;;
        *) host="${host%%:*}" ;;
    esac
    case "$host" in
        127.*|localhost|'[::1]') ;;
        *) die "refusing non-loopback target '$url' (host '$host')" ;;
    esac
}

ensure_wrk() {
    command -v wrk >/dev/null 2>&1 && return 0
    log "wrk not found: installing it with apt-get"
    if [ "$(id -u)" -eq 0 ]; then
        apt-get update -qq >&2 && apt-get install -y -qq wrk >&2
    else
        sudo apt-get update -qq >&2 && sudo apt-get install -y -qq wrk >&2
    fi
    command -v wrk >/dev/null 2>&1 || die "could not install wrk"
}

# The WebSocket load generator is Benchmarks' own WebSocketClientBench (HTTPServer's
# WebSocketClient on one event loop), built here in release mode into .build-anchors/ and
# exported as LOADGEN, so that the scripts this one starts do not build it again. LOADGEN=PATH
# runs another binary instead: an earlier build, or any tool with the same command line and JSON
# fields (the C tool wsload, which earlier figures in docs/benchmarks.md were measured with).
ensure_loadgen() {
    if [ -n "$LOADGEN" ]; then
        [ -x "$LOADGEN" ] || die "LOADGEN=$LOADGEN is not an executable"
        return 0
    fi
    local bin="$SCRATCH_DIR/release/WebSocketClientBench"
    log "building the load generator: swift build -c release --product WebSocketClientBench (scratch path $SCRATCH_DIR)"
    if ! run_bg swift build -c release --package-path "$BENCH_DIR" --scratch-path "$SCRATCH_DIR" \
        --product WebSocketClientBench >&2; then
        [ -x "$bin" ] || die "the load generator (WebSocketClientBench) did not build"
        log "warning: the build failed; using $bin from an earlier build"
    fi
    LOADGEN="$bin"
    export LOADGEN
}

# Raises this shell's open-file limit to 65536, or to the hard limit when that is lower;
# fails when the result is below $1.
raise_nofile() {
    local need="$1" hard
    ulimit -n 65536 2>/dev/null || {
        hard="$(ulimit -Hn)"
        [ "$hard" = unlimited ] && hard=65536
        ulimit -n "$hard" 2>/dev/null || true
    }
    local soft
    soft="$(ulimit -n)"
    [ "$soft" = unlimited ] || [ "$soft" -ge "$need" ] ||
        die "open-file limit is $soft (hard $(ulimit -Hn)), need at least $need; raise it (ulimit -Hn as root, or LimitNOFILE)"
}

vmrss_kb() { awk '/^VmRSS:/ { print $2 }' "/proc/$1/status"; }

# µs from a wrk duration such as 812.00us, 1.23ms or 1.02s.
wrk_to_us() {
    awk -v v="$1" 'BEGIN {
        n = v + 0
        if (v ~ /us$/) u = n; else if (v ~ /ms$/) u = n * 1000; else if (v ~ /m$/) u = n * 60e6;
        else if (v ~ /s$/) u = n * 1e6; else u = n
        printf "%.0f", u }'
}

# Runs "$@" in the background and waits for it, so that INT/TERM interrupt the wait at once
# (bash defers traps until a foreground command ends). kill_bg stops it from an EXIT trap.
BG_PID=""
run_bg() {
    "$@" &
    BG_PID=$!
    local rc=0
    wait "$BG_PID" || rc=$?
    BG_PID=""
    return "$rc"
}
kill_bg() {
    if [ -n "$BG_PID" ] && kill -0 "$BG_PID" 2>/dev/null; then
        kill "$BG_PID" 2>/dev/null || true
        wait "$BG_PID" 2>/dev/null || true
    fi
    BG_PID=""
}

# wait_listening FILE PID: waits up to 30 s for the "listening on http://…" line the process PID
# writes to FILE; prints the URL.
wait_listening() {
    local file="$1" pid="$2" url=""
    for _ in $(seq 300); do
        url="$(grep -o 'listening on http://[0-9.]*:[0-9]*' "$file" 2>/dev/null | head -1 | sed 's/listening on //')" || true
        [ -n "$url" ] && { printf '%s\n' "$url"; return 0; }
        kill -0 "$pid" 2>/dev/null || { tail -5 "$file" >&2; die "process $pid exited before listening"; }
        sleep 0.1
    done
    die "no 'listening on' line in $file"
}
