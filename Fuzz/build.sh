#!/usr/bin/env bash
# Builds every libFuzzer target (release, -sanitize=fuzzer,address). -enable-testing lets the
# targets for the service's parsers `@testable import ServiceApp`. Extra arguments go to
# `swift build` (e.g. --show-bin-path).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
exec swift build -c release --package-path "$here" \
  -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library -Xswiftc -enable-testing -Xswiftc -use-ld=lld "$@"
