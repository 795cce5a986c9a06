#!/usr/bin/env bash
# Starts the service on 127.0.0.1:PORT, runs the Autobahn suite against /ws/echo, stops the
# service. Fails unless every case passes (0 FAILED, 0 UNIMPLEMENTED, no ERROR).
set -euo pipefail
port=${1:-9011}
root=$(cd "$(dirname "$0")/.." && pwd)
bin=$(swift build --show-bin-path)/ServiceApp
log=$(mktemp)
"$bin" --host 127.0.0.1 --port "$port" --github-api-url http://127.0.0.1:9 >"$log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null || true; rm -f "$log"' EXIT
for _ in $(seq 100); do grep -q "listening on" "$log" && break; sleep 0.1; done
grep -q "listening on" "$log" || { cat "$log"; echo "service did not start"; exit 1; }
out=${WS_CONFORMANCE_OUT:-$root/.build/ws-conformance}
summary=$(WS_CONFORMANCE_OUT=$out "$root/../shared/tools/ws-conformance" "ws://127.0.0.1:$port/ws/echo" -p 4)
echo "$summary"
bad=$(python3 - "$out/index.json" <<'PY'
import json, sys
cases = [v for agent in json.load(open(sys.argv[1])).values() for v in agent.values()]
bad = [c for c in cases if c["behavior"] not in ("OK", "NON-STRICT", "INFORMATIONAL") or c["behaviorClose"] not in ("OK", "INFORMATIONAL")]
print(len(bad))
PY
)
echo "conformance: $bad cases not passing"
[ "$bad" = "0" ]
