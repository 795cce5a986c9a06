import Foundation
import HTTPTestSupport
import StreamCore
import XCTest

/// A `/ws/pipelines` client for tests: sends the four client frames, reads server frames, and
/// checks on every `event` frame that its id never got more than the client requested.
final class MuxClient {
    /// One server frame as read off the wire.
    struct Frame: CustomStringConvertible {
        let raw: String
        let object: [String: Any]
        var type: String { object["type"] as? String ?? "" }
        var id: String? { object["id"] as? String }
        var code: String? { object["code"] as? String }
        var pipeline: String? { object["pipeline"] as? String }
        var stage: String? { object["stage"] as? String }
        /// The `failure` code of a `completion`.
        var failure: String? { (object["failure"] as? [String: Any])?["code"] as? String }
        /// The event of an `event` frame, as sorted-key JSON text (comparable with an endpoint's).
        var event: String? { (object["event"] as? [String: Any]).map(normalizedJSON) }
        var description: String { raw }
    }

    /// The project's own WebSocket client (permessage-deflate offered, as browsers do).
    let socket: BlockingWebSocketClient
    private(set) var frames: [Frame] = []
    /// Demand requested so far, per live id.
    private var requested: [String: Subscribers.Demand] = [:]
    /// Events received since the id was last subscribed.
    private(set) var events: [String: [String]] = [:]
    private var barriers = 0

    /// Connects (from the local address `source` when given) and waits for the handshake (a
    /// refusal throws its `WebSocketClientError`).
    init(port: UInt16, source: String? = nil, timeout: TimeInterval = 10) throws {
        socket = try BlockingWebSocketClient(port: port, path: "/ws/pipelines", source: source)
        try socket.opened(timeout: timeout)
    }

    /// Starts the closing handshake.
    func close() { socket.close() }

    // MARK: Client frames

    /// `pipeline`: a catalog name, or a definition (`["stages": […]]`).
    func subscribe(_ id: String, _ pipeline: Any, demand: Subscribers.Demand = .unlimited, trace: Bool = false) throws {
        var frame: [String: Any] = ["type": "subscribe", "id": id, "pipeline": pipeline, "demand": Self.wire(demand)]
        if trace { frame["trace"] = true }
        // A live id stays as it is (the server answers duplicate_id).
        if requested[id] == nil {
            requested[id] = demand
            events[id] = []
        }
        try send(frame)
    }

    /// Subscribes with a frame that leaves `demand` out (the default, unlimited).
    func subscribeWithoutDemand(_ id: String, _ pipeline: String) throws {
        requested[id] = .unlimited
        events[id] = []
        try send(["type": "subscribe", "id": id, "pipeline": pipeline])
    }

    /// Sends `message` (a frame of the pipeline's endpoint) to subscription `id`.
    func send(_ id: String, _ message: Any) throws { try send(["type": "send", "id": id, "message": message]) }

    func request(_ id: String, _ demand: Subscribers.Demand) throws {
        requested[id]? += demand
        try send(["type": "request", "id": id, "n": Self.wire(demand)])
    }

    func cancel(_ id: String) throws {
        requested[id] = nil
        try send(["type": "cancel", "id": id])
    }

    func send(_ frame: [String: Any]) throws {
        socket.send(text: String(decoding: try JSONSerialization.data(withJSONObject: frame), as: UTF8.self))
    }

    func sendText(_ text: String) throws { socket.send(text: text) }

    /// Waits until the server has handled every frame sent before (and sent or held the events
    /// they caused at once): a `cancel` of an unknown id, up to its `unknown_id` error.
    func barrier(timeout: TimeInterval = 10) throws {
        barriers += 1
        let tag = "barrier-\(barriers)"
        try send(["type": "cancel", "id": tag])
        _ = try waitFor(timeout: timeout) { $0.type == "error" && $0.id == tag }
    }

    // MARK: Server frames

    /// The next frame within `timeout`; an `event` beyond the id's demand fails the test.
    @discardableResult
    func next(timeout: TimeInterval = 10, file: StaticString = #filePath, line: UInt = #line) throws -> Frame {
        let frame = try read(timeout: max(0.01, timeout))
        frames.append(frame)
        if frame.type == "event", let id = frame.id, let event = frame.event {
            events[id, default: []].append(event)
            let count = events[id]?.count ?? 0
            XCTAssertTrue((requested[id] ?? .none) >= count, "\(id): event \(count) beyond demand \(String(describing: requested[id]))",
                          file: file, line: line)
        }
        // The id is not live (any more): its tally goes.
        let notLive: Set<String> = ["unknown_id", "unknown_pipeline", "bad_pipeline", "too_many_subscriptions", "too_many_sessions"]
        if let id = frame.id, frame.type == "completion" || (frame.type == "error" && notLive.contains(frame.code ?? "")) {
            requested[id] = nil
        }
        return frame
    }

    @discardableResult
    func waitFor(timeout: TimeInterval = 10, _ match: (Frame) -> Bool) throws -> Frame {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else { throw TestClientError.timedOut }
            let frame = try next(timeout: remaining)
            if match(frame) { return frame }
        }
    }

    /// The `error` frame answering the last frame sent (after a barrier-free exchange).
    func error(timeout: TimeInterval = 10) throws -> Frame { try waitFor(timeout: timeout) { $0.type == "error" } }

    /// Reads whatever arrives within `seconds`.
    @discardableResult
    func drain(for seconds: TimeInterval) throws -> [Frame] {
        try readAll(for: seconds) { try next(timeout: $0) }
    }

    /// The frames read for `id` so far.
    func frames(for id: String) -> [Frame] { frames.filter { $0.id == id } }

    private func read(timeout: TimeInterval) throws -> Frame {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let text: String
            switch try socket.next(timeout: max(0, deadline.timeIntervalSinceNow)) {
            case .opened: continue
            case .message(.text(let message)): text = message
            case .message(.binary): throw TestClientError.malformed("expected text, got binary")
            case .closed: throw TestClientError.closed
            case .failed(let error): throw error
            }
            guard !text.contains("\n"), let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
                throw TestClientError.malformed("not one JSON object on one line: \(text)")
            }
            return Frame(raw: text, object: object)
        }
    }

    private static func wire(_ demand: Subscribers.Demand) -> Any { demand == .unlimited ? "unlimited" : demand.max ?? 0 }
}

/// `object` as compact JSON with sorted keys.
func normalizedJSON(_ object: Any) -> String {
    let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
    return String(decoding: data, as: UTF8.self)
}

/// A frame's JSON text with sorted keys.
func normalizedJSON(text: String) -> String {
    (try? JSONSerialization.jsonObject(with: Data(text.utf8))).map(normalizedJSON) ?? text
}
