// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "CombineServer",
    products: [
        .library(name: "StreamCore", targets: ["StreamCore"]),
    ],
    targets: [
        // Our Combine for Linux. Depends on Foundation and Dispatch only.
        .target(name: "StreamCore"),
        .testTarget(name: "StreamCoreTests", dependencies: ["StreamCore"]),
    ],
    swiftLanguageModes: [.v6]
)
