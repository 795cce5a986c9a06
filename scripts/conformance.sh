#!/usr/bin/env bash
# RFC 6455 / RFC 7692 conformance: the Autobahn TestSuite's case files, run by kosoku (a
# maintained Python 3 runner for them, from PyPI, pinned) against the service's /ws/echo.
#
#   scripts/conformance.sh [PORT] [kosoku args]     # make conformance; e.g. -x '9.*' skips the slow group
#
# Builds nothing: starts the debug ServiceApp on 127.0.0.1:PORT (9011), runs every case (517, in 4
# parallel), stops the service, and summarises with scripts/ws_conformance_summary.py. Reports
# land in ${WS_CONFORMANCE_OUT:-.build/ws-conformance} (index.html: one case in detail). kosoku
# lives in a virtual environment, ${WS_CONFORMANCE_VENV:-.build/kosoku-venv}, made on first use.
# Exit status 0 only when every case passed.
set -euo pipefail
port=${1:-9011}
shift || true
root=$(cd "$(dirname "$0")/.." && pwd)
venv=${WS_CONFORMANCE_VENV:-$root/.build/kosoku-venv}
out=${WS_CONFORMANCE_OUT:-$root/.build/ws-conformance}
if [ ! -x "$venv/bin/kosoku" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check kosoku==0.1.0
fi
bin=$(swift build --show-bin-path)/ServiceApp
log=$(mktemp)
"$bin" --host 127.0.0.1 --port "$port" --github-api-url http://127.0.0.1:9 >"$log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null || true; rm -f "$log"' EXIT
for _ in $(seq 100); do grep -q "listening on" "$log" && break; sleep 0.1; done
grep -q "listening on" "$log" || { cat "$log"; echo "service did not start"; exit 1; }
rm -rf "$out"; mkdir -p "$out"
# kosoku's own exit status says nothing the report does not; a run that did not get far is caught
# by the summary (no report, or fewer cases than the full suite when no case was selected).
status=0
"$venv/bin/kosoku" -m fuzzingclient "ws://127.0.0.1:$port/ws/echo" -o "$out" -p 4 "$@" >"$out/kosoku.log" 2>&1 || status=$?
expect=0
[ $# -eq 0 ] && expect=517
python3 "$root/scripts/ws_conformance_summary.py" "$out/index.json" --expect "$expect" || {
  echo "kosoku exited $status; its log: $out/kosoku.log"; tail -20 "$out/kosoku.log"; exit 1; }
