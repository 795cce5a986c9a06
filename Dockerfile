# syntax=docker/dockerfile:1
# The ServiceApp container: a static-stdlib release build on the official Swift image, run as a
# non-root user on debian:bookworm-slim. Build and run commands: docs/container.md.

ARG SWIFT_IMAGE=swift:6.2-bookworm
ARG RUNTIME_IMAGE=debian:bookworm-slim

# ---- build ------------------------------------------------------------------------------------
FROM ${SWIFT_IMAGE} AS build
# Headers for the CCurl, CZlib and CHiredis system-library targets. Versions come from the pinned Debian
# release (bookworm) so security updates apply; pinning exact package versions would break the
# build whenever the archive moves on.
# hadolint ignore=DL3008
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
        libcurl4-openssl-dev zlib1g-dev libhiredis-dev pkg-config \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /src
# Resolve dependencies in their own layer, so source edits do not refetch them.
COPY Package.* ./
RUN swift package resolve
COPY Sources ./Sources
COPY Tests ./Tests
# Installed stripped of its symbol table (a large part of its size); to symbolicate a crash, keep
# the unstripped binary of the same build. Linked with the toolchain's lld: GNU ld prints a
# warning about `mktemp` in the static Foundation library (the toolchain's code, never called by
# ours), and lld does not, so the build log stays free of warnings.
RUN swift build -c release --static-swift-stdlib -Xswiftc -use-ld=lld --product ServiceApp \
    && install -D -s "$(swift build -c release --show-bin-path)/ServiceApp" /out/ServiceApp

# ---- run --------------------------------------------------------------------------------------
FROM ${RUNTIME_IMAGE}
# libcurl4, zlib1g and libhiredis0.14 for the binary, ca-certificates for TLS to api.github.com,
# curl for the health check. Same reasoning as above for not pinning versions.
# hadolint ignore=DL3008
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
        libcurl4 zlib1g libhiredis0.14 ca-certificates curl \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --uid 10001 --user-group --home-dir /app --shell /usr/sbin/nologin service

WORKDIR /app
COPY --from=build /out/ServiceApp /app/ServiceApp
COPY config/ /app/config/

# The contract's defaults, spelled out. GITHUB_TOKEN is deliberately absent: pass it at run time
# (docker run -e GITHUB_TOKEN / an orchestrator secret); it is never baked into the image.
ENV HOST=0.0.0.0 \
    PORT=8080 \
    GITHUB_API_URL=https://api.github.com \
    THROTTLE_MS=500 \
    CONFIG_FILE=/app/config/service.json

# Numeric, so orchestrators that enforce runAsNonRoot can verify it.
USER 10001:10001
EXPOSE 8080
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=10s --timeout=3s --start-period=5s --retries=3 \
    CMD ["sh", "-c", "curl -fsS \"http://127.0.0.1:${PORT}/healthz\" || exit 1"]

ENTRYPOINT ["/app/ServiceApp"]

# Labels per the OCI image spec (annotations.md), last so that a new commit changes only this
# metadata, not the cached layers above. make image passes the commit (REVISION), its time
# (CREATED: the commit's rather than the wall clock's, so rebuilding a commit changes no label)
# and the base it used, pinned by digest (RUNTIME_IMAGE, re-declared: an ARG before the first
# FROM is not visible inside a stage).
ARG RUNTIME_IMAGE
ARG REVISION=unknown
ARG CREATED=unknown
LABEL org.opencontainers.image.title="ServiceApp" \
      org.opencontainers.image.description="Combine-style pipelines over WebSockets: the GitHub user lookup, search and sign-up form, with REST" \
      org.opencontainers.image.revision="${REVISION}" \
      org.opencontainers.image.created="${CREATED}" \
      org.opencontainers.image.base.name="${RUNTIME_IMAGE}"
