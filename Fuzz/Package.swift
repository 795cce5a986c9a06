// swift-tools-version:6.0
// libFuzzer targets for the HTTPServer codecs. Not part of the main package or CI: build and
// run with `Fuzz/run.sh TARGET [RUNS]` (see docs/fuzzing.md).
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
        .executableTarget(
            name: "FuzzHTTPParser",
            dependencies: ["CFuzzerDriver", .product(name: "HTTPServer", package: rootName)]
        ),
        .executableTarget(
            name: "FuzzWebSocketReader",
            dependencies: ["CFuzzerDriver", .product(name: "HTTPServer", package: rootName)]
        ),
    ],
    swiftLanguageModes: [.v6]
)
