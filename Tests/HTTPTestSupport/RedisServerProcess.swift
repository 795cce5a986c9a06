import Foundation
import XCTest

/// A `redis-server` of the test's own on a free loopback port, nothing persisted; stopped with
/// the test. Missing `redis-server` skips the test, or fails it under `CI`. `sentinel(…)` starts
/// a `redis-sentinel` the same way (Debian's `redis-sentinel` package).
public final class RedisServerProcess {
    public let port: UInt16
    private let directory: URL
    private let extraArguments: [String]
    /// A sentinel's configuration file (a sentinel rewrites it), nil for a server.
    private let sentinelConfiguration: String?
    private var process: Process?

    /// - Parameter arguments: more `redis-server` options (`["--requirepass", "s3cret"]`).
    public convenience init(arguments: [String] = []) throws {
        try self.init(binaryName: "redis-server", package: "redis-server", arguments: arguments, sentinelConfiguration: nil)
    }

    /// A `redis-sentinel` watching the master `masterName` at `127.0.0.1:masterPort` with
    /// `quorum`, declaring it down after `downAfterMilliseconds`; `configuration` adds lines
    /// (`requirepass …`, `sentinel auth-pass …`).
    public static func sentinel(
        masterName: String, masterPort: UInt16, quorum: Int = 2, downAfterMilliseconds: Int = 1_000,
        configuration: [String] = []
    ) throws -> RedisServerProcess {
        let lines = [
            "sentinel resolve-hostnames no",
            "sentinel monitor \(masterName) 127.0.0.1 \(masterPort) \(quorum)",
            "sentinel down-after-milliseconds \(masterName) \(downAfterMilliseconds)",
            "sentinel failover-timeout \(masterName) \(max(3_000, downAfterMilliseconds * 3))",
            "sentinel parallel-syncs \(masterName) 1",
        ] + configuration
        return try RedisServerProcess(
            binaryName: "redis-sentinel", package: "redis-sentinel", arguments: [], sentinelConfiguration: lines.joined(separator: "\n") + "\n")
    }

    private init(binaryName: String, package: String, arguments: [String], sentinelConfiguration: String?) throws {
        extraArguments = arguments
        self.sentinelConfiguration = sentinelConfiguration
        let binary = ["/usr/bin/\(binaryName)", "/usr/local/bin/\(binaryName)"].first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let binary else {
            let message = "\(binaryName) is not installed; install it with: apt-get install \(package)"
            if ProcessInfo.processInfo.environment["CI"] != nil { throw RedisServerMissing(message: "CI is set, so this fails: \(message)") }
            throw XCTSkip(message)
        }
        port = try unusedLoopbackPort()
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("redis-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        self.binary = URL(fileURLWithPath: binary)
        if let sentinelConfiguration {
            try Data(sentinelConfiguration.utf8).write(to: directory.appendingPathComponent("sentinel.conf"))
        }
        try start()
    }

    private let binary: URL

    /// Starts (again) on the same port; returns once it answers.
    public func start() throws {
        let process = Process()
        process.executableURL = binary
        let common = ["--port", String(port), "--bind", "127.0.0.1", "--dir", directory.path]
        process.arguments = sentinelConfiguration == nil
            ? common + ["--save", "", "--appendonly", "no", "--enable-debug-command", "local"] + extraArguments
            : [directory.appendingPathComponent("sentinel.conf").path] + common + extraArguments
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

    /// Freezes it (SIGSTOP): its connections stay open and nothing answers, as with a host that
    /// hangs; `resume()` thaws it.
    public func pause() {
        if let process, process.isRunning { kill(process.processIdentifier, SIGSTOP) }
    }

    /// Thaws a `pause()`d process (SIGCONT).
    public func resume() {
        if let process, process.isRunning { kill(process.processIdentifier, SIGCONT) }
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
