#!/usr/bin/env bash
# `make demo`: the service with the bundled fake GitHub, offline. FakeGithubServer --demo listens
# on a free loopback port (fixtures heckj, heck, hec; a made-up user for any other valid login;
# logins that show the failure handling, listed below); the service runs as `make run` runs it
# (release build, PORT/HOST and every other setting as usual) with --github-api-url pointing at
# the fake. Ctrl-C (or SIGTERM) stops both and exits 0, so `make demo` ends without an error.
# DEMO_BIN: a directory holding FakeGithubServer and ServiceApp already built (the tests use
# their debug build); by default both are built here in release mode.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -n "${DEMO_BIN:-}" ]; then
  bin=$DEMO_BIN
else
  swift build -c release --product FakeGithubServer
  swift build -c release --product ServiceApp
  bin=$(swift build -c release --show-bin-path)
fi
log=$(mktemp)
fake="" service=""
stop() {
  [ -n "$service" ] && kill -TERM "$service" 2>/dev/null && wait "$service" 2>/dev/null
  [ -n "$fake" ] && kill -TERM "$fake" 2>/dev/null && wait "$fake" 2>/dev/null
  rm -f "$log"
}
trap stop EXIT
# Ctrl-C is how a demo ends: stop both (the EXIT trap) and exit 0. `make` then reports no
# error (it printed `Error 130` for the 130 this used to exit with).
trap 'exit 0' INT TERM
"$bin/FakeGithubServer" --port 0 --demo >"$log" 2>&1 &
fake=$!
for _ in $(seq 100); do grep -q "listening on" "$log" && break; sleep 0.1; done
url=$(sed -n 's/^listening on //p' "$log")
[ -n "$url" ] || { cat "$log" >&2; echo "make demo: FakeGithubServer did not start" >&2; exit 1; }
port=${PORT:-8080}
cat <<TEXT
make demo: fake GitHub on $url (no network, no token needed). Open http://localhost:$port/ and type:
  heckj, heck, hec     the book's fixtures (h, he: too_short); any other valid login: a made-up user
$("$bin/FakeGithubServer" --help | sed -n '/^  [a-z]*: /,/^USAGE/p' | sed '$d' |
  awk '/^  [a-z]+: / { if (line) print line; line = $0; next } NF { line = line " " $0 } END { print line }' |
  sed 's/^  \([a-z]*\): /  \1\t/' | expand -t 23)
  /search finds the fixtures and the logins above; /form needs no GitHub at all.
  http://localhost:$port/playground composes pipelines live: try its presets (switch-to-latest,
  flat-map, concat: type slowpoke, then one more letter before its answer). Avatars come from the fake.
TEXT
"$bin/ServiceApp" --github-api-url "$url" &
service=$!
wait "$service"
