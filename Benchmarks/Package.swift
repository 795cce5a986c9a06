// swift-tools-version:6.0
// Benchmarks of this project against comparison libraries. Not built by CI (slow to compile);
// run it by hand, release builds only — see docs/benchmarks.md.
import PackageDescription

// SwiftPM names the root path dependency after its folder (`main` in the lead's checkout, the
// branch name in a worktree), so read it from where this package sits.
let root = Context.packageDirectory.split(separator: "/").dropLast().last.map(String.init) ?? "main"

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
                .product(name: "StreamCore", package: root),
                .product(name: "OpenCombine", package: "OpenCombine"),
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
    ],
    swiftLanguageModes: [.v6]
)
