#!/usr/bin/env bash
# The fuzzing smoke test (`make fuzz`, CI): builds every libFuzzer target once, then runs each
# for FUZZ_SECONDS (default 60) from its committed corpus, FUZZ_JOBS (default 2) at a time.
# The corpora are copied to a scratch folder, so a run leaves the repository as it was. A crash,
# a sanitizer report or a failed check fails the run; the input that did it is printed (hex) and
# kept in Fuzz/artifacts/.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
seconds="${FUZZ_SECONDS:-60}"
jobs="${FUZZ_JOBS:-2}"
# Every target has a committed corpus folder (FuzzSupport, the shared code, has none).
targets=$(cd "$here/corpus" && ls)

started=$(date +%s)
"$here/build.sh" 2>&1 | grep -E "error|Compiling|Build complete" | tail -3
bin="$("$here/build.sh" --show-bin-path)"
echo "fuzz build: $(( $(date +%s) - started )) s"

scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$here/artifacts"

run_one() {
  local target="$1"
  mkdir -p "$scratch/$target"
  rm -f "$here/artifacts/$target-"*
  cp "$here/corpus/$target/"* "$scratch/$target/"
  if "$bin/$target" "$scratch/$target" -dict="$here/$target.dict" -max_len=4096 \
       -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
       -artifact_prefix="$here/artifacts/$target-" >"$scratch/$target.log" 2>&1; then
    echo "$target: clean, $(grep -o 'number_of_executed_units: [0-9]*' "$scratch/$target.log" | grep -o '[0-9]*$') executions in ${seconds} s"
  else
    echo "$target: FAILED"
    grep -vE '^(#[0-9]+|INFO:|MERGE)' "$scratch/$target.log" | head -150
    for artifact in "$here/artifacts/$target-"*; do
      [ -e "$artifact" ] || continue
      echo "--- input $artifact ($(wc -c <"$artifact") bytes):"
      od -A d -t x1z -v "$artifact" | head -40
    done
    return 1
  fi
}
# Crashes are libFuzzer's and the sanitizer's to report: Swift's own backtracer would catch the
# signal first, and its memory reads trip AddressSanitizer, hiding the real report.
export SWIFT_BACKTRACE=enable=no
export -f run_one
export here bin scratch seconds

failed=0
printf '%s\n' $targets | xargs -P "$jobs" -I{} bash -c 'run_one {}' || failed=1
echo "fuzz smoke: $(echo $targets | wc -w) targets, $(( $(date +%s) - started )) s in all"
exit $failed
