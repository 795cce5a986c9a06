import Foundation
import HTTPServer
import XCTest

/// The echo endpoint driven by Python's `websockets` (with permessage-deflate) and
/// `websocket-client` (without), each a script in `Scripts/` that prints a JSON verdict.
final class PythonWebSocketInteropTests: XCTestCase {
    private static let install = "pip install websockets websocket-client"

    func testWebsocketsWithCompression() throws {
        let verdict = try runScript("websockets_echo.py", module: "websockets")
        let checks = verdict["checks"] as? [String: Bool] ?? [:]
        for name in [
            "deflate_negotiated", "text_small", "text_empty", "text_64k", "text_unicode", "binary_small",
            "binary_random_100k", "binary_zeros_1m", "text_fragmented", "ping_pong", "burst_in_order", "close_1000",
        ] where checks[name] != true {
            XCTFail("\(name) failed: \(verdict)")
        }
        XCTAssertEqual(verdict["ok"] as? Bool, true, "\(verdict)")
        let details = verdict["details"] as? [String: Any] ?? [:]
        XCTAssertEqual(details["close_code"] as? Int, 1000)
    }

    func testWebsocketClientWithoutCompression() throws {
        let verdict = try runScript("websocket_client_echo.py", module: "websocket-client")
        let checks = verdict["checks"] as? [String: Bool] ?? [:]
        for name in ["no_extension", "text_small", "text_unicode", "text_64k", "binary_random_100k", "ping_pong", "close_1000"]
        where checks[name] != true {
            XCTFail("\(name) failed: \(verdict)")
        }
        XCTAssertEqual(verdict["ok"] as? Bool, true, "\(verdict)")
    }

    /// Starts a server, runs `script` against its echo endpoint and decodes the JSON verdict.
    private func runScript(_ script: String, module: String) throws -> [String: Any] {
        let python = try Interop.require(["python3", "python"], install: "apt-get install -y python3 python3-pip")
        let (server, address) = try Interop.startServer()
        defer { Interop.stop(server) }
        let url = "ws://127.0.0.1:\(address.port)/ws/echo"
        let result = try Interop.run(python, [Interop.scripts.appendingPathComponent(script).path, url], timeout: 20)
        if result.status == 2 { try Interop.missing("Python package \(module)", install: Self.install) }
        XCTAssertFalse(result.timedOut, result.summary)
        let line = result.output.split(separator: "\n").last.map(String.init) ?? ""
        guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
            XCTFail("no JSON verdict: \(result.summary)")
            return [:]
        }
        XCTAssertEqual(result.status, 0, result.summary)
        return object
    }
}
