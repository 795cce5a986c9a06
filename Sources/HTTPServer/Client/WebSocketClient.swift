import Foundation

/// A WebSocket client (RFC 6455, with permessage-deflate, RFC 7692) on the server's own event
/// loops and frame codec: the same reader, writer and protocol state machine, in the client
/// role (masked frames, the client's side of the handshakes).
///
/// ```swift
/// let client = try WebSocketClient.connect(to: URL(string: "ws://127.0.0.1:8080/ws/echo")!) { client, event in
///     switch event {
///     case .opened: client.send(text: "hello")
///     case .message(let message): print(message); client.close()
///     case .closed(let code, _): print("closed", code)
///     case .failed(let error): print(error)
///     }
/// }
/// ```
/// Events arrive in order on the connection's loop (don't block there), each with the client
/// to answer on, ending with exactly one `.closed` or `.failed`. The connection stays open
/// until either side closes it, whoever holds the returned client (the loop does, meanwhile).
/// `send` and `close` may be called from any thread; they take effect in the order they are
/// called; messages sent before the handshake completes wait for it. `wss:` is not supported
/// (no TLS in this module).
public final class WebSocketClient: Sendable {
    /// What happens on the connection, in order.
    public enum Event: Sendable {
        /// The handshake succeeded: what the server agreed to.
        case opened(WebSocketClientHandshake.Agreement)
        /// A message from the server.
        case message(WebSocketSession.Message)
        /// The connection closed with the server's close code and reason (1006 when a close
        /// the client started went unanswered, or the client closed before the handshake).
        case closed(code: WebSocketCloseCode, reason: String)
        /// The connection failed (before or after opening).
        case failed(WebSocketClientError)
    }

    /// The URL connected to.
    public let url: URL
    /// The loop the connection lives on.
    public let loop: EventLoop
    private let connection: WebSocketClientConnection

    private init(url: URL, loop: EventLoop, connection: WebSocketClientConnection) {
        self.url = url
        self.loop = loop
        self.connection = connection
    }

    /// Starts connecting to `url` (`ws://host[:port][/path][?query]`) on a loop of `group`
    /// (by default `EventLoopGroup.sharedClient`); throws at once only for a URL it cannot use.
    public static func connect(
        to url: URL, configuration: WebSocketClientConfiguration = .init(), group: EventLoopGroup? = nil,
        onEvent: @escaping @Sendable (WebSocketClient, Event) -> Void
    ) throws(WebSocketClientError) -> WebSocketClient {
        let loop: EventLoop
        if let group {
            loop = group.next()
        } else {
            switch EventLoopGroup.sharedClient {
            case .success(let shared): loop = shared.next()
            case .failure(let error): throw .connectFailed(error)
            }
        }
        return try connect(to: url, configuration: configuration, loop: loop, onEvent: onEvent)
    }

    /// Starts connecting to `url` on `loop` (see `connect(to:configuration:group:onEvent:)`).
    public static func connect(
        to url: URL, configuration: WebSocketClientConfiguration = .init(), loop: EventLoop,
        onEvent: @escaping @Sendable (WebSocketClient, Event) -> Void
    ) throws(WebSocketClientError) -> WebSocketClient {
        let endpoint = try Endpoint(url)
        let handshake = WebSocketClientHandshake(target: endpoint.target, host: endpoint.hostHeader, configuration: configuration)
        let connection = WebSocketClientConnection(handshake: handshake, loop: loop)
        let client = WebSocketClient(url: url, loop: loop, connection: connection)
        // Set on the loop before anything else reaches the connection there (queued first).
        loop.enqueue { connection.setOnEvent { [client] event in onEvent(client, event) } }
        if let numeric = try? SocketAddress(host: endpoint.host, port: endpoint.port) {
            loop.enqueue { connection.connect(to: [numeric]) }
        } else {
            DispatchQueue.global().async {
                let addresses = SocketAddress.resolve(host: endpoint.host, port: endpoint.port)
                loop.enqueue { connection.connect(to: addresses) }
            }
        }
        return client
    }

    /// Sends a message (queued until the connection is open; dropped once it is closing).
    public func send(_ message: WebSocketSession.Message) {
        loop.enqueue { [connection] in connection.send(message) }
    }

    /// Sends a text message.
    public func send(text: String) { send(.text(text)) }

    /// Starts the closing handshake (or abandons the connection if it is not open yet).
    public func close(code: WebSocketCloseCode = .normalClosure, reason: String = "") {
        loop.enqueue { [connection] in connection.close(code: code, reason: reason) }
    }

    /// The parts of a `ws:` URL a connection needs.
    struct Endpoint: Equatable {
        var host: String
        var port: UInt16
        /// Path and query, percent-encoded as given.
        var target: String
        /// The `Host` field: the host (bracketed if IPv6), with the port unless it is 80.
        var hostHeader: String

        init(host: String, port: UInt16, target: String, hostHeader: String) {
            self.host = host
            self.port = port
            self.target = target
            self.hostHeader = hostHeader
        }

        init(_ url: URL) throws(WebSocketClientError) {
            guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
                  components.scheme?.lowercased() == "ws",
                  let rawHost = components.host, !rawHost.isEmpty, components.fragment == nil
            else { throw .invalidURL(url.absoluteString) }
            let port = components.port ?? 80
            guard (1 ... 65535).contains(port) else { throw .invalidURL(url.absoluteString) }
            host = rawHost.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
            self.port = UInt16(port)
            let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
            target = components.percentEncodedQuery.map { "\(path)?\($0)" } ?? path
            let bracketed = host.contains(":") ? "[\(host)]" : host
            hostHeader = port == 80 ? bracketed : "\(bracketed):\(port)"
        }
    }
}

extension EventLoopGroup {
    /// One loop for clients, started on first use and kept for the life of the process (like
    /// a server's loops, it costs a thread and an epoll descriptor, nothing while idle).
    public static let sharedClient: Result<EventLoopGroup, SocketError> = Result { () throws(SocketError) in
        try EventLoopGroup(count: 1, label: "ws.client")
    }
}
