import Foundation
import HTTPServer
import PipelineWire
import Synchronization

/// One `/ws/pipelines` socket shared by any number of `RemotePipeline` subscriptions, each
/// under an id of its own. It connects when a subscription first needs it (and again after a
/// drop, for the next one); when it drops, every live subscription fails with
/// `.connectionLost`.
///
/// ```swift
/// let connection = RemotePipelineConnection(url: URL(string: "ws://127.0.0.1:8080/ws/pipelines")!)
/// let users = RemotePipeline(connection: connection, pipeline: "github-user")
/// let search = RemotePipeline(connection: connection, pipeline: "github-search")
/// ```
public final class RemotePipelineConnection: Sendable {

    /// The `/ws/pipelines` URL.
    public let url: URL
    public let configuration: WebSocketClientConfiguration
    /// The loop this connection and its subscriptions live on (a failure when no loop could
    /// be started).
    let loop: Result<EventLoop, SocketError>
    /// Whether to close the socket when its last subscription ends (a connection a
    /// `RemotePipeline(url:pipeline:)` made for one subscription).
    private let closesWhenIdle: Bool
    private let nextID = Atomic<Int>(0)

    fileprivate enum Phase {
        /// No socket.
        case idle
        /// A socket, connecting or open; `generation` tells its events from an older one's.
        case connected(WebSocketClient, generation: Int, opened: Bool)
    }

    fileprivate struct State {
        var phase = Phase.idle
        var generation = 0
        var routes: [String: any MuxRoute] = [:]
    }

    /// The socket and the routes: only on `loop` (the WebSocket client's events arrive there,
    /// and every call hops there). Nil when there is no loop: then nothing runs there.
    private let state: LoopBound<State>?

    /// A connection to `url` (`ws://host:port/ws/pipelines`), opened when first used, on a loop
    /// of `group` (by default `EventLoopGroup.sharedClient`).
    public convenience init(url: URL, configuration: WebSocketClientConfiguration = .init(), group: EventLoopGroup? = nil) {
        self.init(url: url, configuration: configuration, group: group, closesWhenIdle: false)
    }

    init(url: URL, configuration: WebSocketClientConfiguration, group: EventLoopGroup?, closesWhenIdle: Bool) {
        self.url = url
        self.configuration = configuration
        self.closesWhenIdle = closesWhenIdle
        if let group {
            loop = .success(group.next())
        } else {
            loop = EventLoopGroup.sharedClient.map { $0.next() }
        }
        state = try? LoopBound(sending: State(), loop: loop.get())
    }

    /// Closes the socket; every live subscription fails with `.connectionLost`. A later
    /// subscription connects again.
    public func close() {
        guard let state else { return }
        state.loop.enqueue {
            guard case .connected(let client, _, _) = state.value.phase else { return }
            client.close()
        }
    }

    /// A fresh subscription id (never reused on this connection).
    func makeID() -> String {
        "s\(nextID.add(1, ordering: .relaxed).newValue)"
    }

    // MARK: On the loop

    /// Routes the server's frames for `id` to `route`, connecting if needed.
    func attach(_ id: String, _ route: any MuxRoute) {
        guard let state, let current = state.value.attach(id, route) else { return }
        do {
            let client = try WebSocketClient.connect(to: url, configuration: configuration, loop: state.loop) {
                [weak self] _, event in self?.handle(event, generation: current)
            }
            state.value.phase = .connected(client, generation: current, opened: false)
        } catch {
            end(with: .connectFailed(error))
        }
    }

    /// Stops routing `id`; closes the socket when it was the last one and this connection
    /// closes when idle.
    func detach(_ id: String) {
        guard let client = state?.value.detach(id, closingWhenIdle: closesWhenIdle) else { return }
        client.close()
    }

    /// Sends a client frame (queued by the client until the socket is open).
    func send(_ frame: MuxClientFrame) {
        guard case .connected(let client, _, _) = state?.value.phase else { return }
        client.send(text: frame.json)
    }

    private func handle(_ event: WebSocketClient.Event, generation: Int) {
        guard let state, case .connected(let client, let current, let opened) = state.value.phase, current == generation
        else { return }
        switch event {
        case .opened:
            state.value.phase = .connected(client, generation: current, opened: true)
        case .message(.text(let text)):
            switch Self.read(text) {
            case .success(let (frame, event)):
                route(frame, event: event)
            case .failure(let error):
                end(with: error)
                client.close(code: .protocolError, reason: "invalid frame")
            }
        case .message(.binary):
            end(with: .invalidFrame("a binary message"))
            client.close(code: .unsupportedData, reason: "binary")
        case .closed:
            end(with: opened ? .connectionLost : .connectFailed(.connectionLost))
        case .failed(let error):
            end(with: opened ? .connectionLost : .connectFailed(error))
        }
    }

    /// A server frame, read by the wire codec, with its event decoded when it is an `event`.
    private static func read(_ text: String) -> Result<(MuxServerFrame, RemoteEvent?), RemotePipelineError> {
        let frame: MuxServerFrame
        do {
            frame = try MuxServerFrame(decoding: text)
        } catch {
            return .failure(.invalidFrame(error.message))
        }
        guard case .event(_, let json) = frame else { return .success((frame, nil)) }
        guard let event = RemoteEvent(json: json) else {
            return .failure(.invalidFrame("an event frame without an event object: \(text.prefix(200))"))
        }
        return .success((frame, event))
    }

    private func route(_ frame: MuxServerFrame, event: RemoteEvent?) {
        // Frames for ids no longer routed (answers to a cancel crossing the server's frames)
        // are dropped: nothing is delivered after a cancel.
        guard let id = frame.id, let route = state?.value.routes[id] else { return }
        route.receive(frame, event: event)
    }

    /// The socket is gone: every subscription fails with `error`.
    private func end(with error: RemotePipelineError) {
        guard let ended = state?.value.end() else { return }
        for route in ended { route.connectionEnded(error) }
    }
}

extension RemotePipelineConnection.State {
    /// Routes `id` to `route`; returns the generation of a socket to open, if none is.
    mutating func attach(_ id: String, _ route: any MuxRoute) -> Int? {
        routes[id] = route
        guard case .idle = phase else { return nil }
        generation += 1
        return generation
    }

    /// Stops routing `id`; returns the socket to close when it was the last route and the
    /// connection closes when idle.
    mutating func detach(_ id: String, closingWhenIdle: Bool) -> WebSocketClient? {
        routes[id] = nil
        guard closingWhenIdle, routes.isEmpty, case .connected(let client, _, _) = phase else { return nil }
        phase = .idle
        return client
    }

    /// The socket is gone: the routes to tell.
    mutating func end() -> [any MuxRoute] {
        phase = .idle
        defer { routes = [:] }
        return Array(routes.values)
    }
}

/// A subscription as the connection sees it; called on the connection's loop.
protocol MuxRoute: AnyObject {
    /// A frame for the subscription's id; `event` is the decoded event of an `event` frame.
    func receive(_ frame: MuxServerFrame, event: RemoteEvent?)
    func connectionEnded(_ error: RemotePipelineError)
}
