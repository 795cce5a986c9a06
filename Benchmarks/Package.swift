// swift-tools-version:6.0
// Benchmarks of this project against comparison libraries. Not built by CI (slow to compile);
// run it by hand, release builds only — see docs/benchmarks.md.
import PackageDescription

let package = Package(
    name: "Benchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/OpenCombine/OpenCombine", exact: "0.14.0"),
    ],
    targets: [
        .executableTarget(
            name: "StreamCoreBench",
            dependencies: [
                .product(name: "StreamCore", package: "main"),
                .product(name: "OpenCombine", package: "OpenCombine"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
