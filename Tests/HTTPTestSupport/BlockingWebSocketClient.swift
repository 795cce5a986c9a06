import Foundation
import HTTPServer

/// `WebSocketClient` for tests that read in sequence: its events are queued as they arrive on
/// the loop and taken one by one, waiting up to a timeout for each.
public final class BlockingWebSocketClient: @unchecked Sendable {
    // Sendable: `events` and `ended` are guarded by `condition`.
    public private(set) var client: WebSocketClient!
    private let condition = NSCondition()
    private var events: [WebSocketClient.Event] = []
    private var ended = false

    /// Starts connecting to `url`.
    public init(url: URL, configuration: WebSocketClientConfiguration = .init(), group: EventLoopGroup? = nil) throws {
        client = try WebSocketClient.connect(to: url, configuration: configuration, group: group) { [weak self] _, event in
            self?.append(event)
        }
    }

    /// Starts connecting to `ws://127.0.0.1:port/path`, from the local address `source` when
    /// given (fair-use tests tell clients apart by it).
    public convenience init(
        port: UInt16, path: String = "/ws/echo", source: String? = nil, configuration: WebSocketClientConfiguration = .init()
    ) throws {
        var configuration = configuration
        if let source { configuration.localAddress = try SocketAddress(host: source, port: 0) }
        try self.init(url: URL(string: "ws://127.0.0.1:\(port)\(path)")!, configuration: configuration)
    }

    deinit { client?.close() }

    private func append(_ event: WebSocketClient.Event) {
        condition.lock()
        events.append(event)
        if case .closed = event { ended = true }
        if case .failed = event { ended = true }
        condition.broadcast()
        condition.unlock()
    }

    /// Whether the terminal event has arrived (it may still be queued).
    public var hasEnded: Bool { condition.withLock { ended } }

    /// The next event within `timeout`.
    public func next(timeout: TimeInterval = 10) throws -> WebSocketClient.Event {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while events.isEmpty {
            guard condition.wait(until: deadline) else { throw TestClientError.timedOut }
        }
        return events.removeFirst()
    }

    /// Waits for `.opened` and returns the agreement; throws the failure otherwise.
    @discardableResult
    public func opened(timeout: TimeInterval = 10) throws -> WebSocketClientHandshake.Agreement {
        switch try next(timeout: timeout) {
        case .opened(let agreement): return agreement
        case .failed(let error): throw error
        case let other: throw TestClientError.malformed("expected opened, got \(other)")
        }
    }

    /// The next message, skipping nothing; throws on the end of the connection.
    public func message(timeout: TimeInterval = 10) throws -> WebSocketSession.Message {
        switch try next(timeout: timeout) {
        case .message(let message): return message
        case .failed(let error): throw error
        case .closed: throw TestClientError.closed
        case let other: throw TestClientError.malformed("expected a message, got \(other)")
        }
    }

    /// The next message as text.
    public func text(timeout: TimeInterval = 10) throws -> String {
        guard case .text(let text) = try message(timeout: timeout) else { throw TestClientError.malformed("expected text") }
        return text
    }

    /// Skips messages until the terminal event, and returns it.
    public func end(timeout: TimeInterval = 10) throws -> WebSocketClient.Event {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let event = try next(timeout: max(0, deadline.timeIntervalSinceNow))
            switch event {
            case .closed, .failed: return event
            case .opened, .message: continue
            }
        }
    }

    public func send(text: String) { client.send(text: text) }
    public func send(_ message: WebSocketSession.Message) { client.send(message) }
    public func close(code: WebSocketCloseCode = .normalClosure, reason: String = "") { client.close(code: code, reason: reason) }
}
