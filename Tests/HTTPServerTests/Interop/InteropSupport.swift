import Foundation
import HTTPServer
import WebSocketPublishers
import StreamCore
import XCTest

/// What a finished (or killed) subprocess left behind.
struct ProcessResult {
    var status: Int32
    var stdout: Data
    var stderr: Data
    var timedOut: Bool

    var output: String { String(decoding: stdout, as: UTF8.self) }
    var errors: String { String(decoding: stderr, as: UTF8.self) }

    /// A one-line summary for assertion messages.
    var summary: String {
        "exit \(status)\(timedOut ? " (timed out)" : ""); stdout: \(output.prefix(2000)); stderr: \(errors.prefix(2000))"
    }
}

/// Finds and runs the real clients the interop tests drive.
enum Interop {
    /// The package root (`Tests/HTTPServerTests/Interop/` is three levels below it).
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The committed client scripts.
    static let scripts = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Scripts")

    /// Where tests leave files worth looking at (not committed: under `.build`).
    static var artifacts: URL {
        let url = packageRoot.appendingPathComponent(".build/test-artifacts")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// The first of `names` found on `PATH`.
    static func which(_ names: [String]) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for name in names {
            for directory in path.split(separator: ":") {
                let candidate = "\(directory)/\(name)"
                if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            }
        }
        return nil
    }

    /// Under CI (`CI` set) a missing tool fails the test, so CI cannot silently skip; elsewhere
    /// the test is skipped with the install command.
    static func missing(_ what: String, install: String, file: StaticString = #filePath, line: UInt = #line) throws -> Never {
        let message = "\(what) is not installed; install it with: \(install)"
        if ProcessInfo.processInfo.environment["CI"] != nil {
            throw InteropError.toolMissing("CI is set, so this fails instead of skipping: \(message)")
        }
        throw XCTSkip(message, file: file, line: line)
    }

    /// The path of the first of `names` on `PATH`, or a skip/failure naming `install`.
    static func require(_ names: [String], install: String, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        if let path = which(names) { return path }
        try missing(names.joined(separator: " or "), install: install, file: file, line: line)
    }

    /// Runs `executable` with `arguments`, capturing stdout and stderr (through files, so a
    /// chatty child never blocks on a full pipe), and kills it after `timeout` seconds.
    static func run(_ executable: String, _ arguments: [String], timeout: TimeInterval = 15) throws -> ProcessResult {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("interop-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let outURL = directory.appendingPathComponent("stdout")
        let errURL = directory.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let deadline = Date().addingTimeInterval(timeout)
        var timedOut = false
        while process.isRunning {
            if Date() >= deadline {
                timedOut = true
                process.terminate()
                let grace = Date().addingTimeInterval(2)
                while process.isRunning && Date() < grace { usleep(20_000) }
                if process.isRunning { kill(process.processIdentifier, SIGKILL) }
                break
            }
            usleep(10_000)
        }
        process.waitUntilExit()
        try out.close()
        try err.close()
        return ProcessResult(
            status: process.terminationStatus, stdout: try Data(contentsOf: outURL), stderr: try Data(contentsOf: errURL),
            timedOut: timedOut
        )
    }

    /// A server on 127.0.0.1 with an ephemeral port, `/ws/echo` echoing every message, plus
    /// the routes `configure` adds.
    static func startServer(configure: (inout Router) -> Void = { _ in }) throws -> (HTTPServer, SocketAddress) {
        var router = Router()
        configure(&router)
        let server = HTTPServer(configuration: .init(host: "127.0.0.1", port: 0, loopCount: 2), router: router)
        server.webSocket("/ws/echo") { session in session.messages.subscribe(session.outbound) }
        let address = try server.start()
        return (server, address)
    }

    /// Shuts `server` down and waits for it.
    static func stop(_ server: HTTPServer) {
        let done = DispatchSemaphore(value: 0)
        server.shutdown { done.signal() }
        _ = done.wait(timeout: .now() + 15)
    }
}

enum InteropError: Error, CustomStringConvertible {
    case toolMissing(String)

    var description: String {
        switch self {
        case .toolMissing(let message): message
        }
    }
}
