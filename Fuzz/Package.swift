// swift-tools-version:6.0
// libFuzzer targets for the HTTPServer codecs and the service's parsers. A package of its own
// (built with -sanitize=fuzzer,address): `Fuzz/run.sh TARGET [RUNS]` fuzzes one target,
// `Fuzz/smoke.sh` runs every target for a bounded time, as CI does (see docs/fuzzing.md).
import Foundation
import PackageDescription

// SwiftPM names a path dependency after its folder (the checkout's folder name varies), so the
// root package's identity is computed rather than spelled.
let rootName = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().lastPathComponent

let package = Package(
    name: "Fuzz",
    dependencies: [.package(path: "..")],
    targets: [
        // Declares libFuzzer's LLVMFuzzerRunDriver, which each target's entry point calls.
        .target(name: "CFuzzerDriver"),
        // What the targets share: the hand-over to libFuzzer and the TCP-like input splitter.
        .target(name: "FuzzSupport", dependencies: ["CFuzzerDriver"]),
        .executableTarget(
            name: "FuzzHTTPParser",
            dependencies: ["FuzzSupport", .product(name: "HTTPServer", package: rootName)]
        ),
        .executableTarget(
            name: "FuzzWebSocketReader",
            dependencies: ["FuzzSupport", .product(name: "HTTPServer", package: rootName)]
        ),
        // The client side of the WebSocket opening handshake (internal types: -enable-testing).
        .executableTarget(
            name: "FuzzWebSocketClientHandshake",
            dependencies: ["FuzzSupport", .product(name: "HTTPServer", package: rootName)]
        ),
        // The service's own parsers (built with -enable-testing, so `@testable import` reaches
        // their internal types): the pipelines' client frames and the config file.
        .executableTarget(
            name: "FuzzClientFrames",
            dependencies: [
                "FuzzSupport", .product(name: "ServiceAppLibrary", package: rootName),
                .product(name: "StreamCore", package: rootName), .product(name: "PipelineWire", package: rootName),
            ]
        ),
        // Composed pipeline definitions (PipelineWire), also as a subscribe's pipeline.
        .executableTarget(
            name: "FuzzPipelineDefinition",
            dependencies: [
                "FuzzSupport", .product(name: "ServiceAppLibrary", package: rootName),
                .product(name: "PipelineWire", package: rootName),
            ]
        ),
        .executableTarget(
            name: "FuzzConfigFile",
            dependencies: ["FuzzSupport", .product(name: "ServiceAppLibrary", package: rootName)]
        ),
    ],
    swiftLanguageModes: [.v6]
)
