#!/usr/bin/env bash
# Property-based API testing of the live service against its own /openapi.json: starts
# FakeGithubServer and ServiceApp (both built first) on free loopback ports, runs
# `schemathesis run --checks all`, stops both. Fails on any schemathesis failure.
#
# Needs schemathesis (PyPI): pip install schemathesis   (tested with 4.32)
# Extra arguments go to `schemathesis run` (e.g. --max-examples 50).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
command -v schemathesis >/dev/null || { echo "schemathesis not found: pip install schemathesis"; exit 1; }
swift build --product ServiceApp >/dev/null
swift build --product FakeGithubServer >/dev/null
bin=$(swift build --show-bin-path)
work=$(mktemp -d)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

# Waits for "listening on http://HOST:PORT" in $1 and prints the URL.
listening_url() {
  for _ in $(seq 200); do
    url=$(grep -o 'listening on http://[0-9.]*:[0-9]*' "$1" | head -1 | sed 's/listening on //') || true
    [ -n "$url" ] && { echo "$url"; return 0; }
    sleep 0.05
  done
  cat "$1" >&2
  return 1
}

"$bin/FakeGithubServer" --port 0 >"$work/fake.log" 2>&1 &
pids+=($!)
fake=$(listening_url "$work/fake.log") || { echo "FakeGithubServer did not start"; exit 1; }

# Short retry delays: 5xx answers are retried, and schemathesis sends many requests.
echo '{"retry": {"maxRetries": 2, "baseDelayMs": 5}}' >"$work/service.json"
"$bin/ServiceApp" --host 127.0.0.1 --port 0 --github-api-url "$fake" --config "$work/service.json" >"$work/service.log" 2>&1 &
pids+=($!)
service=$(listening_url "$work/service.log") || { echo "ServiceApp did not start"; exit 1; }
echo "fake GitHub: $fake  service: $service"

# /ws and /ws/echo are left out: a conforming request there is answered 101 and the connection
# then speaks WebSocket, which schemathesis neither expects (it counts 1xx as a server error)
# nor can speak (its HTTP client reuses the upgraded connection for the next request). Their
# handshake refusals are covered by the end-to-end tests, the protocol by the Autobahn suite.
schemathesis run "$service/openapi.json" --checks all --url "$service" --exclude-path-regex '^/ws' \
  --report junit --report-dir "$root/.build/schemathesis" "$@"
