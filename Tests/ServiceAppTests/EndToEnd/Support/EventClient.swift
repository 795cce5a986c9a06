import HTTPTestSupport
import Foundation
import XCTest

/// A `/ws` client that reads and records the server's events: `hello` first, then whatever the
/// pipeline says. Blocking, with deadlines, so a broken service fails a test instead of hanging it.
final class EventClient {
    let socket: TestWebSocketClient
    /// Every event read so far, in arrival order (barrier replies included).
    private(set) var events: [WireEvent] = []
    /// The `hello` event.
    private(set) var hello: WireEvent?
    private var barriers = 0

    init(
        port: UInt16, path: String = "/ws", extra: String = "", host: String = "127.0.0.1", source: String? = nil,
        hostHeader: String = "localhost", timeout: TimeInterval = 10
    ) throws {
        socket = try TestWebSocketClient(
            port: port, path: path, extra: extra, host: host, source: source, hostHeader: hostHeader, timeout: timeout
        )
        hello = try next(timeout: timeout)
    }

    /// Events other than barrier replies.
    var pipelineEvents: [WireEvent] { events.filter { !Self.isBarrierReply($0) } }
    var results: [WireEvent] { events.filter(\.isResult) }
    var activity: [Bool] { events.compactMap { $0.isActivity ? $0.active : nil } }

    // MARK: Sending

    /// Sends `{"type":"input","value":value}`.
    func input(_ value: String) throws {
        let data = try JSONSerialization.data(withJSONObject: ["type": "input", "value": value])
        try socket.send(text: String(decoding: data, as: UTF8.self))
    }

    /// Sends a raw text frame.
    func sendText(_ text: String) throws { try socket.send(text: text) }

    /// Waits until the server has processed every frame sent before: sends a frame of an unknown
    /// type and reads up to its `error` reply (frames of one connection are handled in order, and
    /// a value reaches the throttle synchronously as its frame is handled).
    func barrier(timeout: TimeInterval = 10) throws {
        barriers += 1
        let tag = "barrier-\(barriers)"
        try socket.send(text: #"{"type":"\#(tag)"}"#)
        _ = try waitFor(timeout: timeout) { $0.type == "error" && ($0.message ?? "").contains(tag) }
    }

    static func isBarrierReply(_ event: WireEvent) -> Bool {
        event.type == "error" && (event.message ?? "").contains("barrier-")
    }

    // MARK: Receiving

    /// The next event, waiting at most `timeout`.
    @discardableResult
    func next(timeout: TimeInterval = 10) throws -> WireEvent {
        socket.http.timeout = max(0.01, timeout)
        let event = try WireEvent.decode(nextText())
        events.append(event)
        return event
    }

    /// Reads events until one matches; throws `timedOut` after `timeout`.
    @discardableResult
    func waitFor(timeout: TimeInterval = 10, _ match: (WireEvent) -> Bool) throws -> WireEvent {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else { throw TestClientError.timedOut }
            let event = try next(timeout: remaining)
            if match(event) { return event }
        }
    }

    /// The `result` for `query`.
    @discardableResult
    func result(for query: String, timeout: TimeInterval = 10) throws -> WireEvent {
        try waitFor(timeout: timeout) { $0.isResult && $0.query == query }
    }

    /// Reads whatever arrives within `seconds`; returns it.
    @discardableResult
    func drain(for seconds: TimeInterval) throws -> [WireEvent] {
        try readAll(for: seconds) { try next(timeout: $0) }
    }

    /// The next text message: pings and pongs are skipped; a close throws `closed`.
    private func nextText() throws -> String {
        while true {
            let message = try socket.readMessage()
            if message.opcode == .ping || message.opcode == .pong { continue }
            if message.opcode == .close { throw TestClientError.closed }
            guard message.opcode == .text else { throw TestClientError.malformed("expected text, got \(message.opcode)") }
            return String(decoding: message.payload, as: UTF8.self)
        }
    }
}

/// Asserts the contract's activity guarantee: `true`, `false`, `true`, `false`, … (every `true`
/// followed by exactly one `false` before the next `true`), ending with `false`.
func assertActivityBalanced(_ activity: [Bool], file: StaticString = #filePath, line: UInt = #line) {
    for (index, active) in activity.enumerated() where active != (index % 2 == 0) {
        XCTFail("activity \(activity) breaks true/false alternation at \(index)", file: file, line: line)
        return
    }
    XCTAssertEqual(activity.count % 2, 0, "activity \(activity) does not end with false", file: file, line: line)
}
