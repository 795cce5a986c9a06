#!/usr/bin/env bash
# Builds the libFuzzer targets and runs one of them.
#
#   Fuzz/run.sh TARGET [RUNS] [libFuzzer flags...]
#
# TARGET is FuzzHTTPParser, FuzzWebSocketReader, FuzzWebSocketClientHandshake, FuzzClientFrames,
# FuzzPipelineDefinition or FuzzConfigFile; RUNS defaults to 10000000 (-runs=-1 fuzzes until
# stopped). The committed seeds in Fuzz/corpus/TARGET/ are copied into the working corpus
# Fuzz/corpus-TARGET/ (generated, not committed), which grows across runs; crashes are
# written to Fuzz/artifacts/. Extra flags go to libFuzzer (e.g. -fork=2, -max_total_time=600).
# SKIP_BUILD=1 skips the build.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
target="${1:?usage: Fuzz/run.sh TARGET [RUNS] [libFuzzer flags...]}"
runs="${2:-10000000}"
shift $(( $# >= 2 ? 2 : 1 ))

# Every target has a committed corpus folder (FuzzSupport, the shared code, has none).
targets=$(cd "$here/corpus" && ls)
if ! grep -qx "$target" <<<"$targets"; then
  echo "unknown target: $target (one of: $(echo $targets))" >&2
  exit 2
fi

# SwiftPM names the root package after its folder; a checkout folder named like this package
# ("fuzz") makes the two identities clash.
root_name="$(basename "$(dirname "$here")")"
if [ "${root_name,,}" = "fuzz" ]; then
  echo "the repository folder must not be named '$root_name' (SwiftPM identity clash with Fuzz/)" >&2
  exit 2
fi

if [ "${SKIP_BUILD:-0}" != 1 ]; then
  "$here/build.sh"
fi
bin="$("$here/build.sh" --show-bin-path)/$target"

corpus="$here/corpus-$target"
mkdir -p "$corpus" "$here/artifacts"
cp -n "$here/corpus/$target/"* "$corpus/"

# Crashes are libFuzzer's and the sanitizer's to report (Swift's backtracer would hide them).
export SWIFT_BACKTRACE=enable=no
exec "$bin" "$corpus" \
  -dict="$here/$target.dict" \
  -runs="$runs" -max_len=4096 \
  -artifact_prefix="$here/artifacts/$target-" \
  -print_final_stats=1 \
  "$@"
