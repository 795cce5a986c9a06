import HTTPTestSupport
import Foundation
import XCTest

/// The built binary under an open-file limit far below `maxConnections`: it says so at start,
/// pauses accepting while out of descriptors (rather than spinning and logging on every wake-up)
/// and serves again once descriptors are free.
final class OpenFileLimitTests: XCTestCase {
    func testOutOfDescriptorsPausesAcceptingAndRecovers() throws {
        let binary = try ChildProcess.requiredProduct("ServiceApp")
        var environment = ProcessInfo.processInfo.environment
        for name in ["HOST", "PORT", "GITHUB_API_URL", "THROTTLE_MS", "CONFIG_FILE"] { environment[name] = nil }
        // `ulimit -n` sets the hard limit too: the service cannot raise it.
        let child = try ChildProcess(
            URL(fileURLWithPath: "/bin/sh"),
            ["-c", #"ulimit -n 48 && exec "$0" "$@""#, binary.path,
             "--port", "0", "--host", "127.0.0.1", "--github-api-url", "http://127.0.0.1:9"],
            environment: environment, directory: FileManager.default.temporaryDirectory
        )
        defer { child.send(SIGKILL) }
        let portText = child.waitForMatch(#"listening on http://127\.0\.0\.1:(\d+)"#, timeout: 20)
        let port = try XCTUnwrap(portText.flatMap(UInt16.init), "no listening line: \(child.output)")
        XCTAssertTrue(child.output.contains("the open-file limit allows fewer connections than maxConnections"), child.output)
        XCTAssertTrue(child.output.contains("open_file_limit=48"), child.output)

        // More connections than descriptors: the kernel completes them into the backlog; the
        // service accepts until it runs out, then pauses.
        let started = Date()
        var held: [TestHTTPClient] = []
        for _ in 0..<80 { held.append(try TestHTTPClient(port: port)) }
        _ = child.waitForMatch("(accept failed)", timeout: 10)
        Thread.sleep(forTimeInterval: 1)  // out of descriptors for a while
        held.removeAll()  // closes them
        let exhausted = Date().timeIntervalSince(started)

        var answered: TestResponse?
        let deadline = Date().addingTimeInterval(10)
        while answered == nil, Date() < deadline {
            answered = try? TestHTTPClient(port: port, timeout: 2).request("GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n")
        }
        XCTAssertEqual(answered?.status, 200, "serves again once descriptors are free; output:\n\(child.output.suffix(2_000))")

        // One warning per 100 ms pause at most (a spinning listener logs thousands a second);
        // the bound is generous for a slow machine.
        let warnings = child.output.components(separatedBy: "accept failed").count - 1
        XCTAssertGreaterThan(warnings, 0, "ran out of descriptors: \(child.output.suffix(2_000))")
        XCTAssertLessThanOrEqual(Double(warnings), exhausted * 20 + 20, "warnings while out of descriptors for \(exhausted) s")
    }
}
