#!/usr/bin/env bash
# Session load: SESSIONS WebSocket sessions on the service's /ws typing GitHub logins at human
# speed for DURATION seconds, against FakeUpstream (every login found after 50 ms), twice in the
# same ServiceApp process. Records the service's VmRSS, open descriptors and threads before,
# during, right after and SETTLE seconds after each run, and prints Markdown tables plus the
# exact commands. Loopback only; release builds.
#
# Usage: scripts/session-load.sh            (from Benchmarks/ or anywhere)
# Environment: SESSIONS=1000 DURATION=60 SETTLE=10 RUNS=2 THROTTLE_MS=500 DELAY_MS=50 SHARDS=2
#              SKIP_BUILD=1 to reuse the release binaries.
#              NAMES=replay: the #12 mix (half existing personal logins, a quarter mistyped → 404,
#                a quarter popular logins shared by every session) instead of Names.logins.
#              MAX_CONCURRENT=N: the service's upstream.maxConcurrentRequests.
#              The service runs with config/service.json, fair-use limits raised out of the way
#              (every session comes from 127.0.0.1; the load measures the server, not fair use)
#              and maxConnections raised to SESSIONS + 64 when that is more than the file's.
#              MUX=N: runs alternate between SESSIONS sessions on /ws (odd runs) and SESSIONS
#                connections to /ws/pipelines carrying N github-user subscriptions each (even
#                runs: SESSIONS × N users, each typing as on /ws); use RUNS=4 or more.
#                MUX_CONNECTIONS=M: M connections in the /ws/pipelines runs instead of SESSIONS
#                (SESSIONS=3000 MUX=3 MUX_CONNECTIONS=1000: as many users on both endpoints).
#              IDLE=N: N more /ws sessions held idle through every run (the load generator's idle
#                mode, opened at 2,000 a second before the first run), reported at the end.
#              SERVER_CPUS / LOAD_CPUS (e.g. 0 and 1): pin the service to those CPUs, and the fake
#                upstream and the load generators to these (lib.sh) (the service then runs
#                as many loops as it has CPUs), so that the server-added latency is the server's
#                own, without the load client's share of the same cores.
#              SERVICE_BIN=path runs another ServiceApp binary; SERVICE_CONFIG=path gives it that
#              config file as it is (e.g. an older build's config/service.json, from git show).
#              The report ends with the server's own p50 / p99 per run (timer lateness, cached
#              answers), from its /metrics histograms before and after the run (histogram-quantiles.py),
#              and the machine's floor beside it: TimerProbe, an event loop with nothing else to do
#              (on the service's CPUs, with its timer slack) firing a timer every millisecond
#              through the run, and how late those fired.
#              ANCHOR=1: the same sessions against the service and against the anchor of the
#                main job, Benchmarks' HummingbirdPipelineAnchor (Hummingbird 2 + OpenCombine +
#                AsyncHTTPClient, the same FakeUpstream; its AsyncHTTPClient pool gets
#                MAX_CONCURRENT connections per host when set, its default 8 otherwise), alternating
#                runs: odd runs the service, even runs the anchor, each in a fresh process (use
#                RUNS=4 or more). Prints per run and per side the CPU per keystroke (utime + stime
#                of /proc/PID/stat from the load's start to its end, over the keystrokes), the RSS
#                per session (mid-load VmRSS less the fresh process's, over SESSIONS), the
#                client-observed and server-added p50 / p99, and the ratios ours / anchor of the
#                medians. Not with MUX or IDLE. ANCHOR_BIN=path runs another anchor binary.
# Exit status 1 when a run reported failures or the service died.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

SESSIONS="${SESSIONS:-1000}" DURATION="${DURATION:-60}" SETTLE="${SETTLE:-10}" RUNS="${RUNS:-2}"
THROTTLE_MS="${THROTTLE_MS:-500}" DELAY_MS="${DELAY_MS:-50}" SHARDS="${SHARDS:-2}" RAMP="${RAMP:-2}"
ROOT_DIR="$(cd "$BENCH_DIR/.." && pwd)"
SERVICE="${SERVICE_BIN:-$ROOT_DIR/.build/release/ServiceApp}"
NAMES="${NAMES:-}" MAX_CONCURRENT="${MAX_CONCURRENT:-}" IDLE="${IDLE:-0}" MUX="${MUX:-0}" MUX_CONNECTIONS="${MUX_CONNECTIONS:-${SESSIONS:-1000}}"
UPSTREAM="$BENCH_DIR/.build/release/FakeUpstream"
LOAD="$BENCH_DIR/.build/release/SessionLoad"
PROBE="$BENCH_DIR/.build/release/TimerProbe"
ANCHOR="${ANCHOR:-0}"
ANCHOR_PROGRAM="${ANCHOR_BIN:-$BENCH_DIR/.build/release/HummingbirdPipelineAnchor}"
if [ "$ANCHOR" = 1 ]; then
    [ "$MUX" -eq 0 ] && [ "$IDLE" -eq 0 ] || die "ANCHOR=1 runs /ws sessions only: drop MUX and IDLE"
    [ "$RUNS" -ge 2 ] || die "ANCHOR=1 alternates the service and the anchor: RUNS=2 or more"
fi

if [ "${SKIP_BUILD:-0}" != 1 ]; then
    log "building release binaries"
    (cd "$ROOT_DIR" && swift build -c release --product ServiceApp >&2)
    (cd "$BENCH_DIR" && swift build -c release --product FakeUpstream >&2 && swift build -c release --product SessionLoad >&2 && swift build -c release --product TimerProbe >&2)
    if [ "$ANCHOR" = 1 ] && [ -z "${ANCHOR_BIN:-}" ]; then
        (cd "$BENCH_DIR" && swift build -c release --product HummingbirdPipelineAnchor >&2)
    fi
fi
binaries=("$SERVICE" "$UPSTREAM" "$LOAD" "$PROBE")
[ "$ANCHOR" = 1 ] && binaries+=("$ANCHOR_PROGRAM")
for binary in "${binaries[@]}"; do [ -x "$binary" ] || die "missing $binary (build it, or drop SKIP_BUILD)"; done

# Both ends of every session live on this machine: the client's and the server's descriptors.
raise_nofile $((SESSIONS + IDLE + 512))

tmp="$(mktemp -d)"
upstream_pid="" service_pid="" load_pid=""
cleanup() {
    kill_bg
    for pid in "$load_pid" "${idle_pid:-}" "$service_pid" "$upstream_pid"; do
        if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then kill -TERM "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
    done
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM


upstream_cmd=(${load_pin[@]+"${load_pin[@]}"} "$UPSTREAM" --port 0 --delay-ms "$DELAY_MS")
names_args=()
if [ "$NAMES" = replay ]; then
    users=$((MUX_CONNECTIONS * MUX > SESSIONS ? MUX_CONNECTIONS * MUX : SESSIONS))
    "$LOAD" --sessions "$users" --print-existing >"$tmp/logins.txt"
    upstream_cmd+=(--logins-file "$tmp/logins.txt")
    names_args=(--names replay)
fi
"${upstream_cmd[@]}" >"$tmp/upstream.log" 2>&1 &
upstream_pid=$!
upstream_url="$(wait_listening "$tmp/upstream.log" "$upstream_pid")"
stats_url="$(grep -o 'http://[0-9.:]*/__stats' "$tmp/upstream.log" | head -1)"
require_loopback "$upstream_url"; require_loopback "$stats_url"

service_cmd=(${server_pin[@]+"${server_pin[@]}"} "$SERVICE" --host 127.0.0.1 --port 0 --github-api-url "$upstream_url" --throttle-ms "$THROTTLE_MS")
if [ -n "${SERVICE_CONFIG:-}" ]; then
    service_cmd+=(--config "$SERVICE_CONFIG")
else
    python3 - "$ROOT_DIR/config/service.json" "$MAX_CONCURRENT" "$((SESSIONS + IDLE))" >"$tmp/service.json" <<'PY'
import json, sys
config = json.load(open(sys.argv[1]))
if sys.argv[2]:
    config["upstream"]["maxConcurrentRequests"] = int(sys.argv[2])
# Room for every session's connection (the shipped file allows 1,024).
config["maxConnections"] = max(config["maxConnections"], int(sys.argv[3]) + 64)
config["limits"]["sessionsPerClient"] = 1000000
config["limits"]["lookupsPerClientPerMinute"] = 1000000
print(json.dumps(config, indent=2))
PY
    service_cmd+=(--config "$tmp/service.json")
fi
# The loops' timer slack, for TimerProbe (500 µs, the service's default, when the file sets none).
timer_slack_us="$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1])).get("timerSlackMicroseconds", 500))' "${SERVICE_CONFIG:-$tmp/service.json}")"
anchor_cmd=(${server_pin[@]+"${server_pin[@]}"} "$ANCHOR_PROGRAM" --host 127.0.0.1 --port 0 --github-api-url "$upstream_url" --throttle-ms "$THROTTLE_MS")
[ -n "$MAX_CONCURRENT" ] && anchor_cmd+=(--upstream-connections "$MAX_CONCURRENT")

# start_server ours|anchor RUN: starts that server in a fresh process, its output in
# $tmp/KIND-runRUN.log; sets service_pid, service_url and ws_url (the name "service" covers both).
start_server() {
    local log_file="$tmp/$1-run$2.log"
    if [ "$1" = anchor ]; then
        "${anchor_cmd[@]}" >"$log_file" 2>&1 &
    else
        (cd "$ROOT_DIR" && exec "${service_cmd[@]}") >"$log_file" 2>&1 &
    fi
    service_pid=$!
    service_url="$(wait_listening "$log_file" "$service_pid")"
    require_loopback "$service_url"
    ws_url="ws://${service_url#http://}/ws"
    log "run $2, $1: $service_url (pid $service_pid, open-file limit $(awk '/^Max open files/ { print $4 }' "/proc/$service_pid/limits"))"
}

# stop_server: SIGTERM, and waits for the exit (a server still up after 20 s is killed).
stop_server() {
    kill -TERM "$service_pid" 2>/dev/null || true
    for _ in $(seq 200); do kill -0 "$service_pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$service_pid" 2>/dev/null || true
    wait "$service_pid" 2>/dev/null || true
    service_pid=""
}

# cpu_ticks PID: utime + stime of the process, in clock ticks.
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }

service_log="$tmp/service.log"
if [ "$ANCHOR" != 1 ]; then
    (cd "$ROOT_DIR" && exec "${service_cmd[@]}") >"$tmp/service.log" 2>&1 &
    service_pid=$!
    service_url="$(wait_listening "$tmp/service.log" "$service_pid")"
    require_loopback "$service_url"
    ws_url="ws://${service_url#http://}/ws"
    log "upstream $upstream_url (stats $stats_url), service $service_url (pid $service_pid, open-file limit $(awk '/^Max open files/ { print $4 }' "/proc/$service_pid/limits"))"
fi

samples=()
# sample LABEL: one row of the resource table for the service process.
sample() {
    kill -0 "$service_pid" 2>/dev/null || die "the service (pid $service_pid) died; log: $(tail -5 "$service_log")"
    local rss fds threads cpu sessions conns upstream_open
    rss="$(vmrss_kb "$service_pid")"
    fds="$(ls "/proc/$service_pid/fd" | wc -l)"
    threads="$(awk '/^Threads:/ { print $2 }' "/proc/$service_pid/status")"
    cpu="$(awk -v hz="$(getconf CLK_TCK)" '{ printf "%.2f", ($14 + $15) / hz }' "/proc/$service_pid/stat")"
    sessions="$(curl -s "$service_url/metrics" | awk '/^websocket_sessions_open / { printf "%d", $2 }')"
    conns="$(curl -s "$service_url/metrics" | awk '/^http_connections_open / { printf "%d", $2 }')"
    upstream_open="$(curl -s "$stats_url" | python3 -c 'import json,sys; print(json.load(sys.stdin)["openConnections"])')"
    samples+=("| $1 | $rss | $fds | $((fds - upstream_open)) | $threads | $cpu | $sessions | $conns | $upstream_open |")
    log "[$1] VmRSS $rss KB, fds $fds, threads $threads, CPU ${cpu} s, ws sessions $sessions, http conns $conns, upstream conns $upstream_open"
}

idle_pid=""
if [ "$IDLE" -gt 0 ]; then
    ensure_loadgen
    # Held through every run: ramp, typing, the wait for the last results and the settle time.
    hold=$(( RUNS * (${RAMP%.*} + DURATION + SETTLE + 20) + IDLE / 2000 + 5 ))
    idle_cmd=(${load_pin[@]+"${load_pin[@]}"} "$LOADGEN" -m idle -c "$IDLE" -r 2000 -d "$hold" -o json "$ws_url")
    log "idle sessions: ${idle_cmd[*]}"
    "${idle_cmd[@]}" >"$tmp/idle.json" 2>"$tmp/idle.err" &
    idle_pid=$!
    sleep $(( IDLE / 2000 + 3 ))
fi
if [ "$ANCHOR" != 1 ]; then
    sleep 2
    sample "start ($IDLE idle sessions)"
fi
common_args=(--duration "$DURATION" --ramp "$RAMP" --upstream-delay-ms "$DELAY_MS" --upstream-stats "$stats_url"
             --shards "$SHARDS" "${names_args[@]}")
# load_args RUN: the SessionLoad arguments of that run (with MUX, even runs go over /ws/pipelines).
load_args() {
    if [ "$MUX" -gt 0 ] && [ $(($1 % 2)) -eq 0 ]; then
        echo "--url ${ws_url}/pipelines --mux $MUX --sessions $((MUX_CONNECTIONS * MUX)) --label run$1-mux$MUX"
    else
        echo "--url $ws_url --sessions $SESSIONS --label run$1"
    fi
}
status=0
# ANCHOR=1: odd runs the service, even runs the anchor, each in a fresh process; runs 2k−1 and 2k
# type the same sessions (seed k). Per run: the side, the CPU ticks over the load, the VmRSS of
# the fresh process and mid-load, in $tmp/side$run.txt.
side_of() { if [ $(($1 % 2)) -eq 1 ]; then echo ours; else echo anchor; fi; }
anchor_seed() { echo $((($1 + 1) / 2)); }
if [ "$ANCHOR" = 1 ]; then
    log "upstream $upstream_url (stats $stats_url); load average $(cut -d' ' -f1-3 /proc/loadavg)"
    for run in $(seq "$RUNS"); do
        side="$(side_of "$run")"
        start_server "$side" "$run"
        service_log="$tmp/$side-run$run.log"
        sleep 2
        sample "run $run ($side), fresh process"
        rss_fresh="$(vmrss_kb "$service_pid")"
        run_args=(--url "$ws_url" --sessions "$SESSIONS" --label "run$run-$side")
        log "run $run ($side): $LOAD ${run_args[*]} ${common_args[*]} --seed $(anchor_seed "$run")"
        curl -s "$service_url/metrics" >"$tmp/metrics-run$run-before.txt"
        ticks_before="$(cpu_ticks "$service_pid")"
        ${load_pin[@]+"${load_pin[@]}"} "$LOAD" "${run_args[@]}" "${common_args[@]}" --seed "$(anchor_seed "$run")" >"$tmp/run$run.json" &
        load_pid=$!
        run_bg sleep "$(awk -v r="$RAMP" -v d="$DURATION" 'BEGIN { print r + d / 2 }')"
        sample "run $run ($side), mid-load (t = $(awk -v r="$RAMP" -v d="$DURATION" 'BEGIN { print r + d / 2 }') s)"
        rss_mid="$(vmrss_kb "$service_pid")"
        rc=0
        wait "$load_pid" || rc=$?
        ticks_after="$(cpu_ticks "$service_pid")"
        [ "$rc" -eq 0 ] || { log "run $run ($side): SessionLoad exit $rc"; status=1; }
        # The anchor has no /metrics: its snapshots are its 404 answers, and its rows say 0.
        curl -s "$service_url/metrics" >"$tmp/metrics-run$run-after.txt"
        sample "run $run ($side), sessions closed"
        echo "$side $((ticks_after - ticks_before)) $rss_fresh $rss_mid $(awk '/^VmHWM:/ { print $2 }' "/proc/$service_pid/status")" >"$tmp/side$run.txt"
        stop_server
        [ "$run" -eq "$RUNS" ] || run_bg sleep "$SETTLE"
    done
fi
for run in $(seq "$RUNS"); do
    [ "$ANCHOR" != 1 ] || break
    read -r -a run_args <<<"$(load_args "$run")"
    log "run $run: $LOAD ${run_args[*]} ${common_args[*]} --seed $run"
    curl -s "$service_url/metrics" >"$tmp/metrics-run$run-before.txt"
    ${load_pin[@]+"${load_pin[@]}"} "$LOAD" "${run_args[@]}" "${common_args[@]}" --seed "$run" >"$tmp/run$run.json" &
    load_pid=$!
    # The machine's floor beside it: an idle loop's timers, with the service's slack, on its CPUs.
    ${server_pin[@]+"${server_pin[@]}"} "$PROBE" --duration "$DURATION" --slack-us "$timer_slack_us" >"$tmp/probe-run$run.json" &
    probe_pid=$!
    run_bg sleep "$(awk -v r="$RAMP" -v d="$DURATION" 'BEGIN { print r + d / 2 }')"
    sample "run $run, mid-load (t = $(awk -v r="$RAMP" -v d="$DURATION" 'BEGIN { print r + d / 2 }') s)"
    rc=0
    wait "$load_pid" || rc=$?
    [ "$rc" -eq 0 ] || { log "run $run: SessionLoad exit $rc"; status=1; }
    wait "$probe_pid" || { log "run $run: TimerProbe failed"; status=1; }
    curl -s "$service_url/metrics" >"$tmp/metrics-run$run-after.txt"
    sample "run $run, sessions closed"
    run_bg sleep "$SETTLE"
    sample "run $run, +${SETTLE} s"
done

if [ -n "$idle_pid" ]; then
    log "waiting for the idle sessions' load generator (it holds them for $hold s in all)"
    wait "$idle_pid" || { log "the idle load generator reported errors: $(cat "$tmp/idle.err")"; status=1; }
fi

# Reports.
printf '\n### Session load: %s sessions × %s s, throttle %s ms, upstream delay %s ms\n\n' "$SESSIONS" "$DURATION" "$THROTTLE_MS" "$DELAY_MS"
printf 'Machine: %s cores (%s), load average at the end %s; kernel %s.\n\n' "$(nproc)" \
    "$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)" "$(cut -d' ' -f1-3 /proc/loadavg)" "$(uname -r)"
python3 - "$tmp" "$RUNS" <<'PY'
import json, sys
tmp, runs = sys.argv[1], int(sys.argv[2])
rows = []
for run in range(1, runs + 1):
    try:
        rows.append(json.load(open(f"{tmp}/run{run}.json")))
    except Exception as error:
        print(f"(run {run}: no report: {error})")
def f(v, d=1):
    return "-" if v is None else f"{v:.{d}f}"
print("| run | load avg before → after | sessions ok | keystrokes | results / keystroke | upstream calls / keystroke | final result p50 / p99 (ms) | server-added p50 / p99 (ms) | upstream finals p50 / p99 | cached finals p50 / p99 | gate wait mean (ms) | errors |")
print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
for r in rows:
    errors = r["failures"]
    print(f"| {r['label']} | {r['loadAverageBefore']} → {r['loadAverageAfter']} | {r['cleanCloses']}/{r['sessions']} | {r['keystrokes']} | "
          f"{f(r['resultsPerKeystroke'], 3)} | {f(r['upstreamCallsPerKeystroke'], 3)} | {f(r['rawP50Ms'])} / {f(r['rawP99Ms'])} | "
          f"{f(r['serverAddedP50Ms'])} / {f(r['serverAddedP99Ms'])} | {f(r['serverAddedUpstreamP50Ms'])} / {f(r['serverAddedUpstreamP99Ms'])} | "
          f"{f(r['serverAddedCachedP50Ms'])} / {f(r['serverAddedCachedP99Ms'])} | {f(r['gateWaitMeanMs'])} | {errors} |")
print()
for r in rows:
    print(f"- {r['label']}: {r['bursts']} names typed ({r['finalsWithLookup']} finals looked up), modelled throttle hold mean "
          f"{f(r['holdMeanMs'])} ms, {r['nextWindowFinals']} finals put in the next window; statuses {json.dumps(r['statuses'], sort_keys=True)}; "
          f"handshake failures {r['handshakeFailures']}, unexpected closes {r['unexpectedCloses']}, error events {r['errorEvents']}, "
          f"bad events {r['badEvents']}, activity-order violations {r['activityViolations']}, unexpected statuses {r['unexpectedStatuses']}, "
          f"missing final results {r['missingFinals']} (later: {r.get('lateFinals', 0)}), finals already answered by the last result "
          f"{r.get('collapsedFinals', 0)}, results after the final one {r['staleResults']}; upstream calls {r['upstreamCalls']}, new distinct logins asked {r.get('distinctLogins')}.")
PY
# The server's own share, from its histograms (pipeline_timer_lateness_seconds,
# pipeline_cached_result_seconds), next to what the clients observed above.
printf '\n'
quantile_args=()
for run in $(seq "$RUNS"); do
    label="run$run"
    [ "$ANCHOR" = 1 ] && label="run$run-$(side_of "$run")"
    quantile_args+=("$label" "$tmp/metrics-run$run-before.txt" "$tmp/metrics-run$run-after.txt")
done
python3 "$BENCH_DIR/scripts/histogram-quantiles.py" "${quantile_args[@]}"
for run in $(seq "$RUNS"); do
    [ -s "$tmp/probe-run$run.json" ] || continue
    python3 - "run$run" "$timer_slack_us" "$tmp/probe-run$run.json" <<'PY'
import json, sys
label, slack, probe = sys.argv[1], sys.argv[2], json.load(open(sys.argv[3]))
print(f"| {label} | floor: an idle loop's timer lateness beside it (TimerProbe, slack {slack} µs; p99.9 {probe['p999Ms']:.3f}, "
      f"max {probe['maxMs']:.3f}) | {probe['timers']} | {probe['p50Ms']:.3f} | {probe['p99Ms']:.3f} |")
PY
done
[ -s "$tmp/idle.json" ] && printf '\nIdle sessions (load generator report): %s\n' "$(cat "$tmp/idle.json")"
printf '\n| service process | VmRSS (KB) | open fds | fds − pooled upstream conns | threads | CPU (s, cumulative) | ws sessions open | HTTP conns open | upstream conns open |\n'
printf '|---|---:|---:|---:|---:|---:|---:|---:|---:|\n'
printf '%s\n' "${samples[@]}"
if [ "$ANCHOR" = 1 ]; then
    printf '\n#### Ours against the anchor (HummingbirdPipelineAnchor), alternating runs\n\n'
    python3 - "$tmp" "$RUNS" "$SESSIONS" "$(getconf CLK_TCK)" "$BENCH_DIR/scripts/histogram-quantiles.py" <<'PY'
import importlib.util, json, statistics, sys
tmp, runs, sessions, hz = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
spec = importlib.util.spec_from_file_location("histogram_quantiles", sys.argv[5])
hq = importlib.util.module_from_spec(spec)
spec.loader.exec_module(hq)

def own(run, name="pipeline_cached_result_seconds"):
    """The server's own p50 / p99 (ms) of `name` over the run, from its /metrics (None: not measured)."""
    try:
        before = hq.buckets(f"{tmp}/metrics-run{run}-before.txt", name)
        after = hq.buckets(f"{tmp}/metrics-run{run}-after.txt", name)
    except OSError:
        return None, None
    bounds = sorted(after)
    cumulative = [after[b] - before.get(b, 0.0) for b in bounds]
    if not bounds or cumulative[-1] <= 0:
        return None, None
    return hq.quantile(0.5, bounds, cumulative) * 1000, hq.quantile(0.99, bounds, cumulative) * 1000

rows = []
for run in range(1, runs + 1):
    try:
        side, ticks, rss_fresh, rss_mid, hwm = open(f"{tmp}/side{run}.txt").read().split()
        r = json.load(open(f"{tmp}/run{run}.json"))
    except Exception as error:
        print(f"(run {run}: no figures: {error})")
        continue
    keys = max(1, r["keystrokes"])
    own_p50, own_p99 = own(run)
    rows.append({
        "run": run, "side": side, "errors": r["failures"], "keystrokes": r["keystrokes"],
        "cpu_s": int(ticks) / hz, "cpu_us_per_key": int(ticks) / hz * 1e6 / keys,
        "rss_fresh": int(rss_fresh), "rss_mid": int(rss_mid), "hwm": int(hwm),
        "rss_kb_per_session": (int(rss_mid) - int(rss_fresh)) / sessions,
        "p50": r["rawP50Ms"], "p99": r["rawP99Ms"], "added_p50": r["serverAddedP50Ms"], "added_p99": r["serverAddedP99Ms"],
        "own_p50": own_p50, "own_p99": own_p99,
        "upstream_per_key": r["upstreamCallsPerKeystroke"], "gate": r["gateWaitMeanMs"],
        "load": f"{r['loadAverageBefore']} → {r['loadAverageAfter']}",
    })
def f(v, d=1):
    return "-" if v is None else f"{v:.{d}f}"
print("| run | side | load avg before → after | keystrokes | errors | CPU (s) | CPU per keystroke (µs) | VmRSS fresh → mid-load (KB) | RSS per session (KB) | client p50 / p99 (ms) | server-added p50 / p99 (ms) | server's own, cached answer p50 / p99 (ms) | upstream calls / keystroke | gate wait mean (ms) |")
print("|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
for x in rows:
    print(f"| {x['run']} | {x['side']} | {x['load']} | {x['keystrokes']} | {x['errors']} | {f(x['cpu_s'])} | {f(x['cpu_us_per_key'])} | "
          f"{x['rss_fresh']} → {x['rss_mid']} | {f(x['rss_kb_per_session'], 2)} | {f(x['p50'])} / {f(x['p99'])} | "
          f"{f(x['added_p50'])} / {f(x['added_p99'])} | {f(x['own_p50'], 3)} / {f(x['own_p99'], 3)} | {f(x['upstream_per_key'], 3)} | {f(x['gate'])} |")
print()
print("Medians over each side's runs, [min–max] across them; ratios are ours / anchor of the medians. "
      "A side with errors in a run does not count (its figures are shown, its ratio is not).")
print()
metrics = [("CPU per keystroke (µs)", "cpu_us_per_key", 1), ("RSS per session (KB)", "rss_kb_per_session", 2),
           ("client p50 (ms)", "p50", 1), ("client p99 (ms)", "p99", 1),
           ("server-added p50 (ms)", "added_p50", 1), ("server-added p99 (ms)", "added_p99", 1),
           ("server's own, cached answer p50 (ms)", "own_p50", 3), ("server's own, cached answer p99 (ms)", "own_p99", 3)]
sides = {side: [x for x in rows if x["side"] == side] for side in ("ours", "anchor")}
clean = all(x["errors"] == 0 for x in rows)
print("| figure | ours | anchor | ours / anchor |")
print("|---|---:|---:|---:|")
for name, key, d in metrics:
    cells, medians = [], {}
    for side in ("ours", "anchor"):
        values = [x[key] for x in sides[side] if x[key] is not None]
        if values:
            medians[side] = statistics.median(values)
            cells.append(f"{f(medians[side], d)} [{f(min(values), d)}–{f(max(values), d)}]")
        else:
            cells.append("-")
    ratio = "-"
    if clean and "ours" in medians and medians.get("anchor"):
        ratio = f"{medians['ours'] / medians['anchor']:.2f}"
    print(f"| {name} | {cells[0]} | {cells[1]} | {ratio} |")
errors = {side: sum(x["errors"] for x in sides[side]) for side in sides}
print(f"| errors (all runs) | {errors['ours']} | {errors['anchor']} | |")
print()
print("CPU per keystroke: utime + stime of the server process (/proc/PID/stat) from the load's start to its end, "
      "over the keystrokes typed. RSS per session: VmRSS at mid-load less the fresh process's VmRSS, over the sessions. "
      "Client p50 / p99: final keystroke → its result, as SessionLoad sees it; server-added: less the modelled throttle "
      "hold and, for finals that went upstream, the fake's delay. Gate wait: the service's own /metrics "
      "(github_upstream_queue_wait_seconds) and server's own cached answer (pipeline_cached_result_seconds: throttle release "
      "to result frame handed to the socket, histogram_quantile's estimate); the anchor measures nothing of its own.")
PY
fi
printf '\nCommands (the script runs them; URLs and ports are picked at run time):\n\n```\n'
printf '%s\n' "${upstream_cmd[*]}" "(cd $ROOT_DIR && ${service_cmd[*]})" "ulimit -n $(ulimit -n)"
[ "$ANCHOR" = 1 ] && printf '%s\n' "${anchor_cmd[*]}"
[ -n "$idle_pid" ] && printf '%s\n' "${idle_cmd[*]}"
for run in $(seq "$RUNS"); do
    if [ "$ANCHOR" = 1 ]; then
        printf '%s%s %s %s --seed %s    # %s\n' "${load_pin[*]+${load_pin[*]} }" "$LOAD" "--url ws://…/ws --sessions $SESSIONS --label run$run-$(side_of "$run")" \
            "${common_args[*]}" "$(anchor_seed "$run")" "$(side_of "$run")"
    else
        printf '%s%s %s %s --seed %s\n' "${load_pin[*]+${load_pin[*]} }" "$LOAD" "$(load_args "$run")" "${common_args[*]}" "$run"
    fi
done
printf '```\n'
exit "$status"
