// swift-tools-version:6.0
// Benchmarks of this project against comparison libraries. Not built by CI (slow to compile);
// run it by hand, release builds only — see docs/benchmarks.md and docs/benchmarks-method.md.
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
        // HTTP/WebSocket anchors: the same routes served by other Swift servers (scripts/run-all.sh).
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        // For `HummingbirdAnchor --threads N` (its own MultiThreadedEventLoopGroup).
        .package(url: "https://github.com/apple/swift-nio", from: "2.81.0"),
        .package(url: "https://github.com/swhitty/FlyingFox", from: "0.27.1"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        .executableTarget(
            name: "StreamCoreBench",
            dependencies: [
                .product(name: "StreamCore", package: root),
                .product(name: "OpenCombine", package: "OpenCombine"),
            ]
        ),
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
                .product(name: "StreamCore", package: root),
            ]
        ),
        // libcurl-multi CurlHTTPClient against FoundationNetworking's URLSession on a local fake GitHub.
        .executableTarget(
            name: "CurlClientBench",
            dependencies: [
                .product(name: "GithubProxy", package: root),
                .product(name: "FakeGithub", package: root),
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
            ]
        ),
        // The WebSocket load generator of the scripts (echo and idle modes), on HTTPServer's
        // WebSocketClient; scripts/ws-client.sh measures its own cost.
        .executableTarget(
            name: "WebSocketClientBench",
            dependencies: [
                .product(name: "HTTPServer", package: root),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
