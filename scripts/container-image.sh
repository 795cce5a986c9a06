#!/usr/bin/env bash
# `make image`: builds the unchanged Dockerfile into the local image serviceapp:latest.
#
# With a Docker engine (`docker info` answers): `docker build`. Without one: buildah, daemonless
# (`--isolation chroot --network host`, `--format docker` so HEALTHCHECK survives). When the
# official base images cannot be pulled (no registry), it makes local ones first and says so:
#   - RUNTIME_IMAGE localhost/serviceapp-base:bookworm — `debootstrap --variant=minbase bookworm`;
#   - SWIFT_IMAGE   localhost/serviceapp-swift-build:bookworm — that base plus the packages the
#     official swift:*-bookworm image has, with /opt/swift (this machine's toolchain, bind-mounted
#     read-only into the build steps) on PATH.
# Both stay in buildah's storage, so later runs reuse them (REBUILD_BASES=1 remakes them).
# Swift packages resolve inside the build from the machine's local mirror: /opt/swift-packages and
# /etc/gitconfig (which maps https://github.com/ to it) are bind-mounted read-only.
#
# Environment: IMAGE=serviceapp:latest  SWIFT_TOOLCHAIN=/opt/swift  PACKAGE_MIRROR=/opt/swift-packages
#              DEBIAN_MIRROR=http://deb.debian.org/debian  REBUILD_BASES=0
set -euo pipefail
cd "$(dirname "$0")/.."

IMAGE="${IMAGE:-serviceapp:latest}"
SWIFT_TOOLCHAIN="${SWIFT_TOOLCHAIN:-/opt/swift}"
PACKAGE_MIRROR="${PACKAGE_MIRROR:-/opt/swift-packages}"
DEBIAN_MIRROR="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
LOCAL_RUNTIME=localhost/serviceapp-base:bookworm
LOCAL_SWIFT=localhost/serviceapp-swift-build:bookworm
log() { printf 'image: %s\n' "$*" >&2; }
die() { printf 'image: error: %s\n' "$*" >&2; exit 1; }
SUDO=$([ "$(id -u)" = 0 ] || echo sudo)

# The OCI labels' revision and created: the commit and its time (so one commit gives one image).
label_args=(--build-arg "REVISION=$(git rev-parse HEAD 2>/dev/null || echo unknown)"
            --build-arg "CREATED=$(git log -1 --format=%cI 2>/dev/null || echo unknown)")

if command -v docker >/dev/null 2>&1 && docker info >/dev/null 2>&1; then
    log "Docker engine found: docker build -t $IMAGE ."
    exec docker build "${label_args[@]}" -t "$IMAGE" .
fi

need() {  # command package
    command -v "$1" >/dev/null 2>&1 && return 0
    log "installing $2 (no $1)"
    $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "$2" >/dev/null
    command -v "$1" >/dev/null 2>&1 || die "$1 is missing and $2 could not be installed"
}
need buildah buildah

# The Dockerfile's defaults, when a registry answers.
swift_image="$(sed -n 's/^ARG SWIFT_IMAGE=//p' Dockerfile)"
runtime_image="$(sed -n 's/^ARG RUNTIME_IMAGE=//p' Dockerfile)"
volumes=()
if timeout 60 buildah pull --quiet "docker.io/library/$runtime_image" >/dev/null 2>&1 \
   && timeout 600 buildah pull --quiet "docker.io/library/$swift_image" >/dev/null 2>&1; then
    log "official base images pulled: $swift_image, $runtime_image"
    swift_image="docker.io/library/$swift_image"
    runtime_image="docker.io/library/$runtime_image"
else
    log "the official base images cannot be pulled (no registry): using local ones made with debootstrap"
    have() { [ -n "$(buildah images --quiet "$1" 2>/dev/null)" ]; }
    if [ "${REBUILD_BASES:-0}" = 1 ] || ! have "$LOCAL_RUNTIME"; then
        need debootstrap debootstrap
        rootfs="$(mktemp -d /var/tmp/serviceapp-rootfs.XXXXXX)"
        trap '$SUDO rm -rf "$rootfs"' EXIT
        log "debootstrap --variant=minbase bookworm (a few minutes, once)"
        $SUDO debootstrap --variant=minbase bookworm "$rootfs" "$DEBIAN_MIRROR" >/dev/null
        # What Debian's official slim images do: no apt caches, no docs, man pages or locales.
        $SUDO tee "$rootfs/etc/apt/apt.conf.d/docker-clean" >/dev/null <<'APT'
DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
APT::Update::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
Dir::Cache::pkgcache "";
Dir::Cache::srcpkgcache "";
APT
        $SUDO tee "$rootfs/etc/dpkg/dpkg.cfg.d/docker-slim" >/dev/null <<'DPKG'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/groff/*
path-exclude /usr/share/info/*
path-exclude /usr/share/locale/*
path-exclude /usr/share/lintian/*
DPKG
        $SUDO find "$rootfs/usr/share/doc" -mindepth 1 -not -name copyright -not -type d -delete
        $SUDO rm -rf "$rootfs"/usr/share/man/* "$rootfs"/usr/share/info/* "$rootfs"/usr/share/locale/* \
            "$rootfs"/var/cache/apt/*.bin "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/log/*.log
        container="$(buildah from scratch)"
        mount="$(buildah mount "$container")"
        $SUDO cp -a "$rootfs"/. "$mount"/
        buildah umount "$container" >/dev/null
        buildah config --env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin --cmd /bin/bash "$container"
        buildah commit --quiet --format docker "$container" "$LOCAL_RUNTIME" >/dev/null
        buildah rm "$container" >/dev/null
        log "made $LOCAL_RUNTIME"
    else
        log "reusing $LOCAL_RUNTIME"
    fi
    if [ "${REBUILD_BASES:-0}" = 1 ] || ! have "$LOCAL_SWIFT"; then
        log "making $LOCAL_SWIFT (the official swift image's packages; the toolchain comes from $SWIFT_TOOLCHAIN at build time)"
        container="$(buildah from "$LOCAL_RUNTIME")"
        buildah run --isolation chroot --network host "$container" -- sh -c '
            apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
              binutils git gnupg2 libc6-dev libcurl4-openssl-dev libedit2 libgcc-12-dev libpython3-dev libsqlite3-0 \
              libstdc++-12-dev libxml2-dev libz3-dev libncurses6 pkg-config tzdata zlib1g-dev ca-certificates >/dev/null \
            && rm -rf /var/lib/apt/lists/*'
        buildah config --env PATH=/opt/swift/usr/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin "$container"
        buildah commit --quiet --format docker "$container" "$LOCAL_SWIFT" >/dev/null
        buildah rm "$container" >/dev/null
        log "made $LOCAL_SWIFT"
    else
        log "reusing $LOCAL_SWIFT"
    fi
    [ -x "$SWIFT_TOOLCHAIN/usr/bin/swift" ] || die "no Swift toolchain at $SWIFT_TOOLCHAIN"
    swift_image="$LOCAL_SWIFT"
    runtime_image="$LOCAL_RUNTIME"
    volumes=(-v "$SWIFT_TOOLCHAIN:/opt/swift:ro")
    if [ -d "$PACKAGE_MIRROR" ]; then
        volumes+=(-v "$PACKAGE_MIRROR:$PACKAGE_MIRROR:ro")
        [ -f /etc/gitconfig ] && volumes+=(-v /etc/gitconfig:/etc/gitconfig:ro)
        log "Swift packages resolve from the local mirror $PACKAGE_MIRROR"
    fi
fi

# Both bases pinned by digest to the images just pulled or made: the build cannot pick up another
# image under the same tag, and the base.name label says exactly which base it got.
pinned() {  # name:tag -> name@sha256:…
    local digest name="$1"
    digest="$(buildah images --format '{{.Digest}}' "$1" | head -1)"
    [[ "$digest" == sha256:* ]] || die "no digest for $1"
    [[ "${name##*/}" == *:* ]] && name="${name%:*}"
    printf '%s@%s' "$name" "$digest"
}
build_args=(--build-arg "SWIFT_IMAGE=$(pinned "$swift_image")" --build-arg "RUNTIME_IMAGE=$(pinned "$runtime_image")")
log "bases: ${build_args[1]#*=}, ${build_args[3]#*=}"
# The same values as labels of the build itself: buildah's layer cache (1.28) does not look at
# build-argument values, so the Dockerfile's LABEL step, cached, would keep the first build's
# revision; --label is applied to the image it commits.
label_values=(--label "org.opencontainers.image.revision=${label_args[1]#REVISION=}"
              --label "org.opencontainers.image.created=${label_args[3]#CREATED=}"
              --label "org.opencontainers.image.base.name=${build_args[3]#RUNTIME_IMAGE=}")

previous="$(buildah images --quiet --no-trunc "$IMAGE" 2>/dev/null | head -1 || true)"
log "buildah bud -t $IMAGE (release build inside; several minutes on 2 cores)"
buildah bud --isolation chroot --network host --format docker --layers --pull=never \
    "${label_args[@]}" "${label_values[@]}" "${build_args[@]}" "${volumes[@]}" --tag "$IMAGE" . >&2
size="$(buildah images --format '{{.Size}}' "$IMAGE" | head -1)"
log "built $IMAGE ($size)"
# The image it replaces (now untagged) and its build layers would otherwise pile up with every
# commit; not forced, so an image a container still uses stays.
current="$(buildah images --quiet --no-trunc "$IMAGE" | head -1)"
if [ -n "$previous" ] && [ "$previous" != "$current" ] && buildah rmi "$previous" >/dev/null 2>&1; then
    log "removed the image it replaces (${previous:7:12})"
fi
