import Foundation
import HTTPServer
import XCTest

/// Headless Chromium loads a page from the server whose script talks to `/ws/echo` and writes
/// what came back into the DOM; the dumped DOM must show every echo.
final class ChromiumInteropTests: XCTestCase {
    private static let install = "apt-get install -y chromium"

    /// Virtual time does not wait for WebSocket traffic, so under load `--dump-dom` could dump
    /// the page before the echoes are back. The page therefore ends with a parser-blocking
    /// `/hold.js` that the server answers only once the page reported `/done` (or after 8 s):
    /// the load event, and so the dump, come after the close.
    ///
    /// Sends a short text, an empty one, a 175 KB unicode text (compressed by
    /// permessage-deflate, which Chromium always offers) and a binary message; closes with
    /// 1000 once all four are back.
    static let page = """
        <!doctype html>
        <html><head><meta charset="utf-8"><title>WebSocket interop</title>
        <style>body { font: 24px sans-serif; margin: 2em; } div { margin: .5em 0; }</style></head>
        <body>
        <h1>WebSocket echo</h1>
        <div id="result">pending</div>
        <div id="extensions"></div>
        <div id="status">connecting</div>
        <script>
        const big = "☃ snow ".repeat(25000);
        const results = [];
        const ws = new WebSocket("ws://" + location.host + "/ws/echo");
        ws.binaryType = "arraybuffer";
        const show = (id, text) => { document.getElementById(id).textContent = text; };
        ws.onopen = () => {
          show("status", "open");
          ws.send("hello");
          ws.send("");
          ws.send(big);
          ws.send(new Uint8Array([1, 2, 3, 255]));
        };
        ws.onmessage = (event) => {
          if (typeof event.data !== "string") {
            results.push("binary:" + Array.from(new Uint8Array(event.data)).join(","));
          } else {
            results.push(event.data === big ? "big:" + event.data.length : "echo:" + event.data);
          }
          if (results.length === 4) {
            show("result", results.join(" "));
            show("extensions", "extensions:" + ws.extensions);
            ws.close(1000, "done");
          }
        };
        ws.onerror = () => show("status", "error");
        ws.onclose = (event) => {
          show("status", "closed:" + event.code + ":" + event.wasClean);
          fetch("/done");
        };
        </script>
        <script src="/hold.js"></script>
        </body></html>
        """

    func testPageEchoesOverWebSocket() throws {
        let chromium = try Interop.require(["chromium", "chromium-browser", "google-chrome"], install: Self.install)
        let done = DoneFlag()
        let (server, address) = try Interop.startServer { router in
            router.get("/interop", immediate: { _ in HTTPResponse(contentType: "text/html; charset=utf-8", text: Self.page) })
            router.get("/done", immediate: { _ in
                done.set(true)
                return HTTPResponse(text: "ok")
            })
            router.get("/hold.js") { _ in
                for _ in 0 ..< 160 where !done.value { try? await Task.sleep(nanoseconds: 50_000_000) }
                return HTTPResponse(contentType: "text/javascript", text: "")
            }
        }
        defer { Interop.stop(server) }
        let url = "http://127.0.0.1:\(address.port)/interop"
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent("chromium-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: profile) }
        let common = [
            "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
            "--user-data-dir=\(profile.path)", "--virtual-time-budget=5000",
        ]

        let dump = try Interop.run(chromium, common + ["--dump-dom", url], timeout: 20)
        XCTAssertFalse(dump.timedOut, dump.summary)
        XCTAssertEqual(dump.status, 0, dump.summary)
        let dom = dump.output
        XCTAssertTrue(
            dom.contains("<div id=\"result\">echo:hello echo: big:\(25000 * 7) binary:1,2,3,255</div>"),
            "echoes missing from the DOM: \(dump.summary)"
        )
        XCTAssertTrue(dom.contains("extensions:permessage-deflate"), "deflate not negotiated: \(dom)")
        XCTAssertTrue(dom.contains("<div id=\"status\">closed:1000:true</div>"), "no clean close: \(dom)")

        done.set(false)
        let screenshot = Interop.artifacts.appendingPathComponent("chromium-websocket-echo.png")
        try? FileManager.default.removeItem(at: screenshot)
        let shot = try Interop.run(
            chromium, common + ["--window-size=1000,500", "--screenshot=\(screenshot.path)", url], timeout: 20
        )
        XCTAssertEqual(shot.status, 0, shot.summary)
        let png = (try? Data(contentsOf: screenshot)) ?? Data()
        XCTAssertEqual(Array(png.prefix(4)), [0x89, 0x50, 0x4E, 0x47], "no PNG at \(screenshot.path): \(shot.summary)")
    }
}

/// Whether the test page reported that its WebSocket closed.
private final class DoneFlag: @unchecked Sendable {
    // Sendable: `flag` is only touched under `lock`.
    private let lock = NSLock()
    private var flag = false

    var value: Bool { lock.withLock { flag } }
    func set(_ newValue: Bool) { lock.withLock { flag = newValue } }
}
