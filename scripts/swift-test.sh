#!/usr/bin/env bash
# `swift test` with its arguments, passed through; when it fails, what failed is repeated at the
# end of the output (each failing test case and its `error:` lines), so that the tail of a long
# log — all a CI summary may show — says which test failed and why.
#
#   scripts/swift-test.sh [swift test arguments...]
set -uo pipefail

log=$(mktemp "${TMPDIR:-/tmp}/swift-test.XXXXXX")
trap 'rm -f "$log"' EXIT

swift test "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
if (( status != 0 )); then
  echo "==================== swift test failed (exit $status):"
  grep -E "error: |Test Case '.*' failed|Fatal error|Crash|signal [0-9]+|Exited with" "$log" | head -100
fi
exit "$status"
