#!/usr/bin/env bash
# The fuzzing smoke test (`make fuzz`, CI): builds every libFuzzer target once, then runs each
# for FUZZ_SECONDS (default 60) from its committed corpus, FUZZ_JOBS (default 2) at a time.
# The corpora are copied to a scratch folder, so a run leaves the repository as it was. A crash,
# a sanitizer report or a failed check fails the run; the input that did it is printed (hex) and
# kept in Fuzz/artifacts/ with the log. A failure whose input passes when run alone three times
# is reported as not reproduced and does not fail the run (docs/fuzzing.md says why).
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
  rm -f "$here/artifacts/$target-"* "$here/artifacts/$target.log" "$here/artifacts/$target.rerun.log"
  cp "$here/corpus/$target/"* "$scratch/$target/"
  if "$bin/$target" "$scratch/$target" -dict="$here/$target.dict" -max_len=4096 \
       -max_total_time="$seconds" -timeout=30 -rss_limit_mb=2048 -print_final_stats=1 \
       -artifact_prefix="$here/artifacts/$target-" >"$scratch/$target.log" 2>&1; then
    echo "$target: clean, $(grep -o 'number_of_executed_units: [0-9]*' "$scratch/$target.log" | grep -o '[0-9]*$') executions in ${seconds} s"
    return 0
  fi
  cp "$scratch/$target.log" "$here/artifacts/$target.log"
  echo "$target: FAILED"
  grep -vE '^(#[0-9]+|INFO:|MERGE)' "$scratch/$target.log" | head -150
  local reproduced=0 artifacts=0
  for artifact in "$here/artifacts/$target-"*; do
    [ -e "$artifact" ] || continue
    artifacts=$((artifacts + 1))
    echo "--- input $artifact ($(wc -c <"$artifact") bytes):"
    od -A d -t x1z -v "$artifact" | head -40
    # A finding is one that its input reproduces: run it alone, three times.
    for _ in 1 2 3; do
      "$bin/$target" -timeout=30 -rss_limit_mb=2048 "$artifact" >>"$here/artifacts/$target.rerun.log" 2>&1 || { reproduced=1; break; }
    done
  done
  # Why, once more at the end: a log cut to its last lines (as CI shows it) still says it.
  echo "$target: why it failed:"
  grep -E 'ERROR|SUMMARY|ALARM|Fatal error|Test unit written|deadly signal' "$scratch/$target.log" | head -12
  if [ "$artifacts" -gt 0 ] && [ "$reproduced" -eq 0 ]; then
    echo "$target: NOT REPRODUCED: its input passes when run alone (3 runs; log and input kept in Fuzz/artifacts/)."
    echo "$target: counted as clean; see docs/fuzzing.md, \"Failures that do not reproduce\"."
    return 0
  fi
  return 1
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
