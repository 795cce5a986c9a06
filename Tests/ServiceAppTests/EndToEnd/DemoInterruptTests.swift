import Foundation
import XCTest

/// `make demo` ended with Ctrl-C (SIGINT to the terminal's foreground process group: make, the
/// script, the service and the fake) stops both processes and ends quietly: `scripts/demo.sh`
/// exits 0, so `make` prints no `make: *** … Error 130` (issue #31). Runs the real `make demo`
/// with the debug build (`DEMO_BIN`) on a free port, in a process group of its own.
final class DemoInterruptTests: XCTestCase {
    func testCtrlCEndsMakeDemoWithoutAnError() throws {
        let make = try ToolMissing.executable(["make"], name: "make", install: "apt-get install -y make")
        let bin = try ChildProcess.requiredProduct("ServiceApp").deletingLastPathComponent()
        _ = try ChildProcess.requiredProduct("FakeGithubServer")
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("demo-\(UUID().uuidString).log")
        defer { try? FileManager.default.removeItem(at: log) }
        // `set -m`: the job gets a process group of its own, which `kill -INT -PGID` signals as a
        // terminal's Ctrl-C does.
        let harness = """
            set -m
            HOST=127.0.0.1 PORT=0 DEMO_BIN="$1" "$2" --no-print-directory -C "$3" demo >"$4" 2>&1 &
            job=$!
            for _ in $(seq 300); do grep -q "listening on http" "$4" && break; sleep 0.1; done
            kill -INT -- -"$job"
            wait "$job"
            echo "make exited $?"
            """
        let run = try ChildProcess(
            URL(fileURLWithPath: "/bin/bash"), ["-c", harness, "harness", bin.path, make, ChildProcess.packageRoot.path, log.path])
        XCTAssertEqual(run.waitForExit(timeout: 60), 0, run.output)
        let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        XCTAssertTrue(output.contains("listening on http"), "the demo never started:\n\(output)")
        XCTAssertTrue(output.contains("stopped"), "the service did not stop gracefully:\n\(output)")
        XCTAssertFalse(output.contains("make: ***"), "make reported an error:\n\(output)")
        // make itself dies by the SIGINT it got (130), as an interrupted command does, silently.
        XCTAssertTrue(run.output.contains("make exited 130") || run.output.contains("make exited 0"), run.output)
    }
}
