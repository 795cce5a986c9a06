import Foundation
import XCTest

/// A `redis-server` of the test's own on a free loopback port, nothing persisted; stopped with
/// the test. Missing `redis-server` skips the test, or fails it under `CI`.
public final class RedisServerProcess {
    public let port: UInt16
    private let directory: URL
    private let extraArguments: [String]
    private var process: Process?

    /// - Parameter arguments: more `redis-server` options (`["--requirepass", "s3cret"]`).
    public init(arguments: [String] = []) throws {
        extraArguments = arguments
        let binary = ["/usr/bin/redis-server", "/usr/local/bin/redis-server"].first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let binary else {
            let message = "redis-server is not installed; install it with: apt-get install redis-server"
            if ProcessInfo.processInfo.environment["CI"] != nil { throw RedisServerMissing(message: "CI is set, so this fails: \(message)") }
            throw XCTSkip(message)
        }
        port = try unusedLoopbackPort()
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("redis-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        self.binary = URL(fileURLWithPath: binary)
        try start()
    }

    private let binary: URL

    /// Starts (again) on the same port; returns once it answers.
    public func start() throws {
        let process = Process()
        process.executableURL = binary
        process.arguments = [
            "--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
            "--dir", directory.path, "--enable-debug-command", "local",
        ] + extraArguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        self.process = process
        let deadline = Date().addingTimeInterval(5)
        while (try? TestHTTPClient(port: port, timeout: 1)) == nil {
            guard Date() < deadline else { throw RedisServerMissing(message: "redis-server did not start on \(port)") }
            usleep(20_000)
        }
    }

    /// Stops it (SIGKILL: as abrupt as a crash) and waits until it is gone.
    public func stop() {
        guard let process, process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        self.process = nil
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: directory)
    }
}

public struct RedisServerMissing: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}
