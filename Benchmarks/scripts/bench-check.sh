#!/usr/bin/env bash
# The regression gate (`make bench-check`; CI runs it). The gated cases of Sources/GateCases
# (StreamCore's operators; GithubProxy's cached lookup; HTTPServer's request parser, response
# writer, router and WebSocket frame codec; the /ws/pipelines codec), release build, against the thresholds committed in Benchmarks/Thresholds/:
#
#   instructions per operation: each case under callgrind (GateInstructions: collection on around
#     OPERATIONS operations only, after one uncounted batch), against Thresholds/instructions.tsv.
#     Fails when a case needs more than TOLERANCE_PERCENT % more. Callgrind counts instructions,
#     not time: the same binary gives the same count however loaded the machine is.
#   mallocs per operation: package-benchmark's `thresholds check` (BENCHMARK_GATE=1 measures only
#     that metric) against Thresholds/*.p90.json, p90 per 1,000-operation iteration. Fails on more
#     than 50 more per iteration (0.05 per operation): one new allocation per operation is 1,000.
#
# Usage: scripts/bench-check.sh            check (exit 1 on a regression)
#        scripts/bench-check.sh --update   write both kinds of thresholds from this build (review
#                                          the diff, and commit it with the change that moved them)
# Environment: OPERATIONS=2000, TOLERANCE_PERCENT=5.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

OPERATIONS="${OPERATIONS:-2000}" TOLERANCE_PERCENT="${TOLERANCE_PERCENT:-5}"
MODE=check
case "${1:-}" in
    "") ;;
    --update) MODE=update ;;
    *) die "usage: $0 [--update]" ;;
esac
command -v valgrind >/dev/null || die "valgrind not found (make bench-check installs it)"

cd "$BENCH_DIR"
THRESHOLDS="$BENCH_DIR/Thresholds"
INSTRUCTIONS="$THRESHOLDS/instructions.tsv"
mkdir -p "$THRESHOLDS"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

log "== building GateInstructions (release)"
swift build -c release --product GateInstructions >&2
bin="$(swift build -c release --show-bin-path)"
# valgrind 3.19 cannot read the toolchain's DWARF 5 line tables: count on a copy without them.
objcopy --strip-debug "$bin/GateInstructions" "$bin/GateInstructions.nodebug"

log "== instructions per operation (callgrind, $OPERATIONS operations a case)"
failed=0
printf '# case\tinstructions per operation (callgrind, %s operations; scripts/bench-check.sh --update)\n' "$OPERATIONS" > "$tmp/instructions.tsv"
printf '%-40s %12s %12s %8s\n' case threshold measured change
for name in $("$bin/GateInstructions.nodebug" --list); do
    valgrind --tool=callgrind --collect-atstart=no --callgrind-out-file="$tmp/callgrind.out" \
        "$bin/GateInstructions.nodebug" "$name" "$OPERATIONS" > "$tmp/run.out" 2> "$tmp/valgrind.log" \
        || { cat "$tmp/valgrind.log" >&2; die "$name failed under valgrind"; }
    total="$(awk '/^totals:/ { print $2 }' "$tmp/callgrind.out")"
    [ -n "$total" ] || die "$name: no totals in callgrind's output"
    measured="$(awk -v t="$total" -v n="$OPERATIONS" 'BEGIN { printf "%.1f", t / n }')"
    printf '%s\t%s\n' "$name" "$measured" >> "$tmp/instructions.tsv"
    threshold="$(awk -F'\t' -v n="$name" '$1 == n { print $2 }' "$INSTRUCTIONS" 2>/dev/null || true)"
    if [ -z "$threshold" ]; then
        printf '%-40s %12s %12s %8s\n' "$name" "-" "$measured" "new"
        [ "$MODE" = update ] || { failed=1; log "$name has no threshold: run scripts/bench-check.sh --update"; }
        continue
    fi
    change="$(awk -v m="$measured" -v t="$threshold" 'BEGIN { printf "%+.1f%%", (m - t) * 100 / t }')"
    printf '%-40s %12s %12s %8s\n' "$name" "$threshold" "$measured" "$change"
    if [ "$MODE" = check ] && awk -v m="$measured" -v t="$threshold" -v p="$TOLERANCE_PERCENT" 'BEGIN { exit !(m > t * (1 + p / 100)) }'; then
        log "REGRESSION: $name needs $change instructions per operation (more than +$TOLERANCE_PERCENT%)"
        failed=1
    fi
done
if [ "$MODE" = update ]; then cp "$tmp/instructions.tsv" "$INSTRUCTIONS"; log "wrote $INSTRUCTIONS"; fi

log "== mallocs per operation (package-benchmark thresholds $MODE)"
set +e
BENCHMARK_GATE=1 swift package --allow-writing-to-package-directory benchmark thresholds "$MODE" \
    --target StreamCoreBenchmarks --target HTTPServerBenchmarks --no-progress 2>&1 | grep -v "found 1 file(s) which are unhandled"
status=${PIPESTATUS[0]}
set -e
# package-benchmark: 2 = a threshold exceeded, 4 = better than a threshold (update it to keep it).
case "$status" in
    0) ;;
    4) log "mallocs: fewer than the thresholds — scripts/bench-check.sh --update records the improvement" ;;
    *) log "REGRESSION: mallocs above the thresholds (package-benchmark exit $status)"; failed=1 ;;
esac

if [ "$failed" = 1 ]; then log "bench-check: FAILED"; exit 1; fi
log "bench-check: passed"
