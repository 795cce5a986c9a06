import Foundation
import XCTest

/// A subprocess whose standard output and error are collected as they come, so a test can wait
/// for a line (`listening on …`) and later for the exit.
final class ChildProcess: @unchecked Sendable {
    // Sendable: `collected` and `ended` are guarded by `lock`; `process` is only driven by the
    // test thread.
    let process = Process()
    private let lock = NSLock()
    private var collected = Data()
    /// The pipe reached its end: everything the child wrote is in `collected`.
    private var ended = false

    /// The package root (this file is four levels below it).
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The built executable `name`: next to the test bundle (SwiftPM puts products and the
    /// `.xctest` bundle in one directory), else in `.build/debug`. Nil when it is not built.
    static func builtProduct(_ name: String) -> URL? {
        var directories = [Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent()]
        if let executable = Bundle.main.executableURL { directories.append(executable.deletingLastPathComponent()) }
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            directories.append(bundle.bundleURL.deletingLastPathComponent())
        }
        directories.append(packageRoot.appendingPathComponent(".build/debug"))
        return directories.map { $0.appendingPathComponent(name) }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// The built executable `name`. Not built, the test is skipped, or under `CI=true` it fails
    /// (`ToolMissing`): there a missing binary must not pass unseen.
    static func requiredProduct(_ name: String) throws -> URL {
        if let binary = builtProduct(name) { return binary }
        let message = "the \(name) binary is not built (swift build --product \(name))"
        if ProcessInfo.processInfo.environment["CI"] != nil { throw ToolMissing(message: "CI is set, so this fails: \(message)") }
        throw XCTSkip(message)
    }

    /// Starts `executable` with `arguments`; its stdout and stderr are collected together.
    init(_ executable: URL, _ arguments: [String], environment: [String: String]? = nil, directory: URL? = nil) throws {
        let pipe = Pipe()
        process.executableURL = executable
        process.arguments = arguments
        // `make asan` checks the service processes the tests start for leaks (the test runner
        // itself runs without: scripts/sanitize.sh): CHILD_ASAN_OPTIONS becomes their ASAN_OPTIONS.
        var environment = environment ?? ProcessInfo.processInfo.environment
        if let childOptions = environment["CHILD_ASAN_OPTIONS"] { environment["ASAN_OPTIONS"] = childOptions }
        process.environment = environment
        if let directory { process.currentDirectoryURL = directory }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = pipe
        process.standardError = pipe
        pipe.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            guard let self else { return }
            if data.isEmpty {
                handle.readabilityHandler = nil
                self.lock.withLock { self.ended = true }
                return
            }
            self.lock.withLock { self.collected.append(data) }
        }
        try process.run()
    }

    deinit {
        if process.isRunning { process.terminate() }
    }

    /// Everything the child wrote so far.
    var output: String { lock.withLock { String(decoding: collected, as: UTF8.self) } }

    /// The first match of `pattern` (a regular expression with one capture group) in the
    /// output within `timeout`, captured.
    func waitForMatch(_ pattern: String, timeout: TimeInterval) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return nil }
        repeat {
            let text = output
            if let match = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
               let range = Range(match.range(at: 1), in: text)
            {
                return String(text[range])
            }
            usleep(20_000)
        } while Date() < deadline && process.isRunning
        return nil
    }

    /// Sends `signal`.
    func send(_ signal: Int32) { kill(process.processIdentifier, signal) }

    /// The exit status once the child exits within `timeout`; nil (and the child killed) if not.
    /// Returns once `output` holds all the child wrote (the pipe's end read, at most 1 s after
    /// the exit): the last lines can still be on their way when the process is gone.
    func waitForExit(timeout: TimeInterval) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        guard !process.isRunning else {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            return nil
        }
        process.waitUntilExit()
        let drained = Date().addingTimeInterval(1)
        while !lock.withLock({ ended }) && Date() < drained { usleep(5_000) }
        return process.terminationStatus
    }
}
