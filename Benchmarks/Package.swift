// swift-tools-version:6.1
// Benchmarks of this project against comparison libraries, release builds only (docs/benchmarks.md,
// docs/benchmarks-method.md).
// CI builds only the regression gate's targets (Benchmarks/StreamCoreBenchmarks and
// Benchmarks/HTTPServerBenchmarks, on ordo-one/benchmark: `make bench-check`); the anchors and load
// tools are built by the scripts in scripts/.
import Foundation
import PackageDescription

/// SwiftPM names a path dependency after its folder: the checkout's name, whatever it is.
let root = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().lastPathComponent.lowercased()

let package = Package(
    name: "Benchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/OpenCombine/OpenCombine", exact: "0.14.0"),
        // package-benchmark: instructions, mallocs and wall clock per case, and the committed
        // thresholds `make bench-check` holds the gated cases to (Thresholds/).
        .package(url: "https://github.com/ordo-one/benchmark", exact: "1.38.1", traits: ["MallocInterposer"]),
        // HTTP/WebSocket anchors: the same routes served by other Swift servers (scripts/run-all.sh).
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        // For `HummingbirdAnchor --threads N` (its own MultiThreadedEventLoopGroup).
        .package(url: "https://github.com/apple/swift-nio", from: "2.81.0"),
        .package(url: "https://github.com/swhitty/FlyingFox", from: "0.27.1"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // The pipeline anchor's upstream client, and the load tools' latency histograms (#30).
        .package(url: "https://github.com/swift-server/async-http-client", exact: "1.37.0"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", exact: "0.2.0"),
    ],
    targets: [
        // The regression gate (scripts/bench-check.sh, `make bench-check`). The cases, one catalog:
        // StreamCore's operators beside OpenCombine's same cases, HTTPServer's codecs and PipelineWire's.
        .target(
            name: "GateCases",
            dependencies: [
                .product(name: "StreamCore", package: root),
                .product(name: "HTTPServer", package: root),
                .product(name: "PipelineWire", package: root),
                .product(name: "GithubProxy", package: root),
                .product(name: "OpenCombine", package: "OpenCombine"),
            ]
        ),
        // The catalog on package-benchmark (targets in Benchmarks/NAME, as its plugin expects):
        // wall clock, mallocs (gated against Thresholds/), instructions where the CPU counts them.
        .target(
            name: "BenchmarkGate",
            dependencies: ["GateCases", .product(name: "Benchmark", package: "benchmark")]
        ),
        .executableTarget(
            name: "StreamCoreBenchmarks",
            dependencies: ["BenchmarkGate", .product(name: "Benchmark", package: "benchmark")],
            path: "Benchmarks/StreamCoreBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "HTTPServerBenchmarks",
            dependencies: ["BenchmarkGate", .product(name: "Benchmark", package: "benchmark")],
            path: "Benchmarks/HTTPServerBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // One case under callgrind, counting the instructions of its operations only (the gate's
        // instruction figures: these virtual CPUs have no hardware counters).
        .executableTarget(name: "GateInstructions", dependencies: ["GateCases", "CCallgrind"]),
        // Callgrind's client requests (valgrind's header; no-ops without valgrind).
        .target(name: "CCallgrind"),
        // GET /hello and a WebSocket echo at /ws/echo on Hummingbird 2 (SwiftNIO).
        .executableTarget(
            name: "HummingbirdAnchor",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "HummingbirdWSCompression", package: "hummingbird-websocket"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The same two routes on FlyingFox (BSD sockets + Swift concurrency).
        .executableTarget(
            name: "FlyingFoxAnchor",
            dependencies: [
                .product(name: "FlyingFox", package: "FlyingFox"),
            ]
        ),
        // Our HTTPServer serving the same two routes as the anchors.
        .executableTarget(
            name: "HTTPServerBench",
            dependencies: [
                .product(name: "HTTPServer", package: root),
                .product(name: "WebSocketPublishers", package: root),
                .product(name: "StreamCore", package: root),
            ]
        ),
        // libcurl-multi CurlHTTPClient against FoundationNetworking's URLSession on a local fake GitHub.
        .executableTarget(
            name: "CurlClientBench",
            dependencies: [
                .product(name: "GithubProxy", package: root),
                .product(name: "FakeGithub", package: root),
                "LatencyHistogram",
            ]
        ),
        // The user cache at a million entries: get, put and evicting put, and memory per entry.
        .executableTarget(
            name: "CacheBench",
            dependencies: [
                .product(name: "GithubProxy", package: root),
            ]
        ),
        // The session load scenario (scripts/session-load.sh): a fake GitHub with 50 ms latency
        // and N WebSocket sessions typing logins into the service's /ws.
        .executableTarget(
            name: "FakeUpstream",
            dependencies: [
                .product(name: "FakeGithub", package: root),
                .product(name: "HTTPServer", package: root),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "SessionLoad",
            dependencies: [
                .product(name: "HTTPServer", package: root),
                "LatencyHistogram",
            ]
        ),
        // The machine's floor under the service's timer lateness: a timer every millisecond on
        // an event loop with nothing else to do (scripts/session-load.sh runs it beside the load).
        .executableTarget(
            name: "TimerProbe",
            dependencies: [
                .product(name: "HTTPServer", package: root),
                .product(name: "Locking", package: root),
                "LatencyHistogram",
            ]
        ),
        // The `/ws` github-user pipeline as a Swift developer would build it instead of the
        // service: Hummingbird 2 + hummingbird-websocket, OpenCombine on Dispatch queues, and
        // AsyncHTTPClient to the same FakeUpstream (scripts/session-load.sh with ANCHOR=1).
        .executableTarget(
            name: "HummingbirdPipelineAnchor",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "OpenCombine", package: "OpenCombine"),
                .product(name: "OpenCombineDispatch", package: "OpenCombine"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // HdrHistogram percentiles for every latency figure the load tools print.
        .target(
            name: "LatencyHistogram",
            dependencies: [
                .product(name: "Histogram", package: "hdrhistogram-swift"),
            ]
        ),
        .testTarget(name: "LatencyHistogramTests", dependencies: ["LatencyHistogram"]),
        // The WebSocket load generator of the scripts (echo and idle modes), on HTTPServer's
        // WebSocketClient; scripts/ws-client.sh measures its own cost.
        .executableTarget(
            name: "WebSocketClientBench",
            dependencies: [
                .product(name: "HTTPServer", package: root),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                "LatencyHistogram",
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
