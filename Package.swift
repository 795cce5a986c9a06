// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "CombineServer",
    products: [
        .library(name: "StreamCore", targets: ["StreamCore"]),
        .library(name: "Locking", targets: ["Locking"]),
        .library(name: "HTTPServer", targets: ["HTTPServer"]),
        .library(name: "WebSocketPublishers", targets: ["WebSocketPublishers"]),
        .library(name: "SharedState", targets: ["SharedState"]),
        .library(name: "GithubProxy", targets: ["GithubProxy"]),
        .library(name: "FakeGithub", targets: ["FakeGithub"]),
        .library(name: "ServiceAppLibrary", targets: ["ServiceApp"]),
        .library(name: "RemotePipeline", targets: ["RemotePipeline"]),
        .library(name: "PipelineWire", targets: ["PipelineWire"]),
        .executable(name: "ServiceApp", targets: ["ServiceAppMain"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        // Configuration: the command-line and environment-variable providers (the
        // CommandLineArguments trait; the default JSON trait is off: the config file's own strict
        // snapshot reads it, see Sources/ServiceApp/Config/ConfigFile.swift).
        .package(url: "https://github.com/apple/swift-configuration", from: "1.4.0", traits: ["CommandLineArguments"]),
        // Start-up and graceful shutdown of the service's parts (ServiceGroup, SIGTERM/SIGINT).
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        // `swift package generate-documentation` for StreamCore's DocC catalog (`make docs`).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // The project's one lock type: the standard library's Mutex, or a pthread mutex that
        // ThreadSanitizer can see when built with -DSANITIZER_VISIBLE_LOCKS (`make tsan`).
        .target(name: "Locking"),
        // Our Combine for Linux. Depends on Foundation and Dispatch only (and the lock above).
        // StreamCore.docc: its DocC catalog (articles: getting started, differences from Apple's
        // Combine, testing).
        .target(name: "StreamCore", dependencies: ["Locking"]),

        // C libraries from Debian's -dev packages (`make deps` installs them). No `pkgConfig:` on
        // purpose: hiredis's .pc file adds -D_FILE_OFFSET_BITS=64, which SwiftPM reports as a
        // "prohibited flag" warning on every build; the headers are on the compiler's default
        // paths (/usr/include, /usr/include/x86_64-linux-gnu) and each module map links its library.
        // zlib, for gzip responses and WebSocket permessage-deflate.
        .systemLibrary(name: "CZlib", providers: [.apt(["zlib1g-dev"])]),
        // epoll and eventfd (Linux headers Swift's Glibc module leaves out), for the server's loops.
        .systemLibrary(name: "CEpoll"),
        // HTTP/1.1 + WebSocket (RFC 6455, permessage-deflate) server: nonblocking sockets on our
        // own epoll event loops (one per core) with their timers, zlib for compression; no
        // SwiftNIO, and a plain WebSocket API (no Combine library).
        .target(
            name: "HTTPServer",
            dependencies: [
                "Locking", "CZlib", "CEpoll",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
            ]
        ),

        // StreamCore on HTTPServer: a session's messages as a publisher, a subscriber that sends,
        // and an event loop as a scheduler (the pipelines' bridge to the server).
        .target(name: "WebSocketPublishers", dependencies: ["HTTPServer", "StreamCore", "Locking"]),

        // libcurl, for the upstream HTTP client.
        .systemLibrary(name: "CCurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        // hiredis, Redis's own C client, for the state replicas share (issue #13).
        .systemLibrary(name: "CHiredis", providers: [.apt(["libhiredis-dev"])]),
        // State replicas share through Redis: the hiredis client and subscriber, the shared cache,
        // rate limits and flights GithubProxy uses, and fair use's session counts and token buckets.
        .target(name: "SharedState", dependencies: ["StreamCore", "Locking", "CHiredis"]),
        // The libcurl (multi) dataTask publisher, the GitHub client and the lookup (cache, rate
        // limits, concurrency gate, retry, coalescing).
        .target(
            name: "GithubProxy",
            dependencies: [
                "StreamCore", "Locking", "SharedState", "CCurl",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        // A fake GitHub API on loopback (fixtures, scripted faults, request log) for the tests,
        // the end-to-end tests and the load benchmark.
        .target(
            name: "FakeGithub",
            dependencies: [
                "HTTPServer", "Locking",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        // The frames of /ws/pipelines, written and read in one place: the multiplexer (ServiceApp)
        // and RemotePipeline share them, with the project's one JSON writer. Foundation only.
        .target(name: "PipelineWire"),

        // The service: configuration, routes, fair use, the pipelines, the pages. A library, so
        // that the tests, the fuzzers (Fuzz/) and the benchmarks reach the same code as the
        // executable (ServiceAppMain).
        .target(
            name: "ServiceApp",
            dependencies: [
                "StreamCore", "Locking", "HTTPServer", "WebSocketPublishers", "SharedState", "GithubProxy", "PipelineWire",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ]
        ),
        // A remote pipeline is a Publisher: the Swift client of /ws/pipelines, on HTTPServer's
        // WebSocketClient.
        .target(name: "RemotePipeline", dependencies: ["StreamCore", "HTTPServer", "PipelineWire"]),

        // The `ServiceApp` executable: ServiceCommand.main(), nothing else.
        .executableTarget(name: "ServiceAppMain", dependencies: ["ServiceApp"]),

        // Blocking loopback HTTP and WebSocket test clients shared by the HTTPServer and ServiceApp test targets.
        .target(name: "HTTPTestSupport", dependencies: ["HTTPServer"], path: "Tests/HTTPTestSupport"),

        .testTarget(name: "LockingTests", dependencies: ["Locking"]),
        .testTarget(name: "StreamCoreTests", dependencies: ["StreamCore"]),
        // The wire codec in memory: every frame both ways, the refusals, the JSON writer, the
        // composer's definitions (HTTPTestSupport for its seeded generator).
        .testTarget(name: "PipelineWireTests", dependencies: ["PipelineWire", "HTTPTestSupport"]),
        .testTarget(
            name: "HTTPServerTests",
            dependencies: ["HTTPServer", "WebSocketPublishers", "StreamCore", "HTTPTestSupport"],
            // Client scripts the interop tests run as subprocesses.
            exclude: ["Interop/Scripts"]
        ),
        .testTarget(name: "SharedStateTests", dependencies: ["SharedState", "StreamCore", "HTTPTestSupport"]),
        .testTarget(
            name: "GithubProxyTests",
            dependencies: ["GithubProxy", "SharedState", "StreamCore", "FakeGithub", "HTTPServer", "HTTPTestSupport"]
        ),
        // FakeGithub as a standalone process (`--port`, `--demo`, `--help`), for `make demo`,
        // scripts/schemathesis.sh and scripts/container-test.sh.
        .executableTarget(
            name: "FakeGithubServer",
            dependencies: ["FakeGithub", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),

        .testTarget(
            name: "ServiceAppTests",
            dependencies: [
                "ServiceApp", "FakeGithub", "HTTPServer", "SharedState", "GithubProxy", "StreamCore", "HTTPTestSupport", "PipelineWire",
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            // The AsyncAPI event validator the end-to-end tests run as a subprocess.
            exclude: ["EndToEnd/Scripts"]
        ),
        // Against a real service and the fake GitHub, started in-process.
        .testTarget(
            name: "RemotePipelineTests",
            dependencies: ["RemotePipeline", "StreamCore", "HTTPServer", "ServiceApp", "FakeGithub", "HTTPTestSupport", "PipelineWire"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
