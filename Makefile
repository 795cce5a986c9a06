# The two entry points of the README: `make run` and `make test`. Each installs the system
# packages a fresh machine lacks first.
SYSTEM_PACKAGES := libcurl4-openssl-dev zlib1g-dev libhiredis-dev pkg-config
# What the cluster tests start besides the replicas: Redis (and its sentinels), nginx, headless
# Chromium, and the TLS tunnel to Redis (stunnel4, with a CA made by openssl).
CLUSTER_PACKAGES := redis-server redis-sentinel nginx chromium stunnel4 openssl
SWIFT_TEST_FLAGS ?= --disable-swift-testing
CONFORMANCE_PORT ?= 9011

.PHONY: deps run demo docs test build-tests check-warnings unit-tests cluster-test conformance schemathesis \
	image container-test tsan asan fuzz bench-check bench-update

deps:
	@missing=""; for p in $(SYSTEM_PACKAGES); do \
	  dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing >/dev/null; \
	fi

run: deps
	swift run -c release ServiceApp

# The service with the bundled fake GitHub (FakeGithubServer --demo) on loopback: every page works
# offline, without a token; PORT, HOST and every other setting as for `make run`. scripts/demo.sh.
demo: deps
	@./scripts/demo.sh

# Everything: zero-warning build, StreamCore's documentation, every test target, the cluster
# tests, then the Autobahn WebSocket conformance suite against the service's /ws/echo.
test: deps check-warnings docs unit-tests cluster-test conformance

# StreamCore's API documentation and articles (DocC: Sources/StreamCore/StreamCore.docc); a
# warning (an unresolved symbol link, say) fails. The archive lands in
# .build/plugins/Swift-DocC/outputs/StreamCore.doccarchive;
# `swift package --disable-sandbox preview-documentation --target StreamCore` serves it.
docs:
	swift package generate-documentation --target StreamCore --warnings-as-errors

unit-tests:
	./scripts/swift-test.sh $(SWIFT_TEST_FLAGS) --skip ServiceAppTests.Cluster

# Two ServiceApp processes, redis-server and nginx (deploy/nginx/nginx.conf) on loopback ports,
# FakeGithub upstream: one upstream request for a login typed on both replicas, quota and cache
# shared, a replica killed while a headless Chromium page types, Redis restarted under load; and
# (ClusterFailoverTests) a Sentinel failover under a typing load, with its numbers.
cluster-test: deps
	@$(MAKE) --no-print-directory deps SYSTEM_PACKAGES="$(CLUSTER_PACKAGES)"
	@swift build --product ServiceApp
	./scripts/swift-test.sh $(SWIFT_TEST_FLAGS) --filter ServiceAppTests.Cluster

check-warnings:
	@swift build --build-tests 2>&1 | tee .build-warnings.log | grep -E "error|Compiling|Build" | tail -3; \
	if grep -E "^/.*/(Sources|Tests)/.*warning:" .build-warnings.log | grep -v "/.build/" ; then \
	  echo "warnings in project code (above)"; rm -f .build-warnings.log; exit 1; fi; \
	if grep -q "error:" .build-warnings.log; then rm -f .build-warnings.log; exit 1; fi; \
	rm -f .build-warnings.log

# The safety nets (CI runs them after `make test`; docs/sanitizers.md, docs/fuzzing.md).
# The whole suite, cluster tests included, under ThreadSanitizer in .build-tsan: the project's lock
# becomes a pthread mutex the sanitizer sees (-DSANITIZER_VISIBLE_LOCKS); any report fails.
tsan: deps
	@$(MAKE) --no-print-directory deps SYSTEM_PACKAGES="$(CLUSTER_PACKAGES)"
	@SWIFT_TEST_FLAGS="$(SWIFT_TEST_FLAGS)" ./scripts/sanitize.sh thread

# The same under AddressSanitizer and LeakSanitizer, in .build-asan.
asan: deps
	@$(MAKE) --no-print-directory deps SYSTEM_PACKAGES="$(CLUSTER_PACKAGES)"
	@SWIFT_TEST_FLAGS="$(SWIFT_TEST_FLAGS)" ./scripts/sanitize.sh address

# Every libFuzzer target for FUZZ_SECONDS (default 60) from its committed corpus; a crash fails.
fuzz: deps
	@./Fuzz/smoke.sh

# RFC 6455 / 7692 conformance: the Autobahn TestSuite's cases through kosoku (PyPI, in a venv under
# .build), summarised by scripts/ws_conformance_summary.py; fails on any case not passing.
conformance:
	@$(MAKE) --no-print-directory deps SYSTEM_PACKAGES="python3-venv"
	@swift build --product ServiceApp
	@./scripts/conformance.sh $(CONFORMANCE_PORT)

# The benchmark regression gate (CI runs it): StreamCore's operators and HTTPServer's codecs in a
# release build, instructions per operation (callgrind) and mallocs per operation
# (package-benchmark) against the thresholds committed in Benchmarks/Thresholds/; fails on more
# than 5 % more instructions or on a new allocation per operation. `make bench-update` rewrites the
# thresholds from the current build (commit them with the change that moved them). docs/benchmarks.md.
bench-check: deps
	@$(MAKE) --no-print-directory deps SYSTEM_PACKAGES="valgrind binutils"
	@./Benchmarks/scripts/bench-check.sh

bench-update: deps
	@$(MAKE) --no-print-directory deps SYSTEM_PACKAGES="valgrind binutils"
	@./Benchmarks/scripts/bench-check.sh --update

# Property-based API tests of the live service (FakeGithubServer upstream) against its own
# /openapi.json. Needs schemathesis: pip install schemathesis
schemathesis:
	@command -v schemathesis >/dev/null || { echo "schemathesis not found: pip install schemathesis"; exit 1; }
	@./scripts/schemathesis.sh

# The container image serviceapp:latest from the Dockerfile: Docker when an engine answers, else
# buildah (local base images via debootstrap when no registry can be reached). docs/container.md.
image:
	@./scripts/container-image.sh

# Runs the image and checks it: labels, uid 10001 writing nowhere but /tmp, /var/tmp, /run/lock,
# ldd, PORT and GITHUB_API_URL (FakeGithubServer): /healthz, /, a /ws lookup; the image's
# HEALTHCHECK; SIGTERM drain (an open WebSocket closed with 1001, exit 0); size.
container-test: image
	@./scripts/container-test.sh
