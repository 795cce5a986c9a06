#!/usr/bin/env bash
# `make tsan` / `make asan`: the whole test suite (cluster tests included) under ThreadSanitizer
# or AddressSanitizer (with LeakSanitizer), in its own scratch folder (.build-tsan, .build-asan).
#
#   scripts/sanitize.sh thread|address [swift test arguments...]
#
# The build defines SANITIZER_VISIBLE_LOCKS, which swaps the project's lock (Sources/Locking) for
# a pthread mutex the sanitizer can see. Every process the tests start from this build (the
# ServiceApp replicas of the cluster tests too) writes its reports to one folder; any report
# fails the run, and every report is printed whole.
set -euo pipefail
cd "$(dirname "$0")/.."

kind="${1:?usage: scripts/sanitize.sh thread|address [swift test arguments...]}"
shift
case "$kind" in
  thread) scratch=.build-tsan; name=ThreadSanitizer ;;
  address) scratch=.build-asan; name=AddressSanitizer ;;
  *) echo "unknown sanitizer: $kind (thread or address)" >&2; exit 2 ;;
esac

flags=(--sanitize="$kind" --scratch-path "$scratch" -Xswiftc -DSANITIZER_VISIBLE_LOCKS)
started=$(date +%s)
swift build --build-tests "${flags[@]}" 2>&1 | grep -E "error|Build complete" | tail -3
echo "$name build: $(( $(date +%s) - started )) s"

reports="$PWD/$scratch/sanitizer-reports"
rm -rf "$reports"
mkdir -p "$reports"
# log_path: each process writes <prefix>.<pid>; halt_on_error stays off so that one run shows
# every report. TSan and ASan exit non-zero at the end of a process that reported anything.
export TSAN_OPTIONS="log_path=$reports/tsan second_deadlock_stack=1 ${TSAN_OPTIONS:-}"
# LeakSanitizer runs in the service processes the tests start (ChildProcess passes them
# CHILD_ASAN_OPTIONS), which run the whole service and drain on SIGTERM. The test runner itself
# runs without it: the suite's own reference cycles (servers and subjects its tests never tear
# down) are test artifacts, not the service's (docs/sanitizers.md).
# scripts/asan.supp: a known Foundation bug's report (Process.run's /proc/self/fd listing).
extra_asan_options="suppressions=$PWD/scripts/asan.supp ${ASAN_OPTIONS:-}"
export ASAN_OPTIONS="log_path=$reports/asan detect_leaks=0 $extra_asan_options"
export CHILD_ASAN_OPTIONS="log_path=$reports/asan detect_leaks=1 $extra_asan_options"
export LSAN_OPTIONS="suppressions=$PWD/scripts/lsan.supp print_suppressions=0 ${LSAN_OPTIONS:-}"

status=0
./scripts/swift-test.sh --skip-build "${flags[@]}" ${SWIFT_TEST_FLAGS:---disable-swift-testing} "$@" || status=$?
echo "$name tests: $(( $(date +%s) - started )) s in all (build included), swift test exit $status"

shopt -s nullglob
found=("$reports"/*)
if (( ${#found[@]} > 0 )); then
  for report in "${found[@]}"; do
    echo "==================== $report"
    cat "$report"
  done
  echo "$name: ${#found[@]} process(es) reported (above)"
  exit 1
fi
echo "$name: 0 reports"
exit "$status"
