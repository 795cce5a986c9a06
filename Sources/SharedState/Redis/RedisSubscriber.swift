import CHiredis
import Foundation
import Locking

/// A Redis `SUBSCRIBE` to one channel on a connection of its own, read by a thread of its own
/// (a subscribed connection blocks until a message comes, so it can share neither the pool nor
/// an event loop). Each message's payload goes to `onMessage` on that thread. A lost connection,
/// or one silent past a `PING`, is made again after a back-off (50 ms doubling to 2 s); messages
/// published meanwhile are missed, and `isSubscribed` says so. `stop()` ends the thread.
/// Connecting, `AUTH` and `SELECT` are `HiredisContext`'s, the back-off `ReconnectBackoff`'s, as
/// for the pool's connections.
public final class RedisSubscriber: Sendable {
    private let state: SubscriberState

    /// - Parameter pingInterval: how long the connection may be quiet before a `PING` checks it
    ///   (and, unanswered as long again, it is made anew).
    public convenience init(
        configuration: RedisClient.Configuration, channel: String, pingInterval: Duration = .seconds(5),
        onMessage: @escaping @Sendable ([UInt8]) -> Void
    ) {
        let endpoint = RedisEndpoint(RedisAddress(host: configuration.host, port: configuration.port))
        self.init(configuration: configuration, endpoint: endpoint, channel: channel, pingInterval: pingInterval, onMessage: onMessage)
    }

    /// A subscriber on `client`'s Redis: with sentinels, on the master they name now, and on the
    /// new one after a failover (the connection to the old one is dropped at the switch). The ping
    /// interval is the client's unless given.
    public convenience init(
        client: RedisClient, channel: String, pingInterval: Duration? = nil, onMessage: @escaping @Sendable ([UInt8]) -> Void
    ) {
        self.init(
            configuration: client.configuration, endpoint: client.endpoint, channel: channel,
            pingInterval: pingInterval ?? client.configuration.pingInterval, onMessage: onMessage)
    }

    private init(
        configuration: RedisClient.Configuration, endpoint: RedisEndpoint, channel: String, pingInterval: Duration,
        onMessage: @escaping @Sendable ([UInt8]) -> Void
    ) {
        state = SubscriberState(
            configuration: configuration, endpoint: endpoint, channel: channel, pingInterval: pingInterval, onMessage: onMessage)
        endpoint.observe { [weak state] in state?.reconnect() }
        let thread = Thread { [state] in state.run() }
        thread.start()
        thread.name = "redis.pubsub"  // after `start` (Foundation on Linux names started threads only); at most 15 bytes
    }

    deinit { state.stop() }

    /// Whether the subscription is in place now (messages published now will arrive).
    public var isSubscribed: Bool { state.isSubscribed }

    /// Closes the connection and ends the thread.
    public func stop() { state.stop() }
}

/// The subscriber thread's state.
private final class SubscriberState: Sendable {
    /// Where the subscription is, with the connection's socket. The thread alone owns the hiredis
    /// context, and frees it (closing the socket) only with the lock held and the phase moved
    /// off it, so `stop()` and `reconnect()` can shut the socket down from another thread.
    private enum Phase: Sendable {
        /// Between connections (or before the first).
        case waiting
        /// Connected, `SUBSCRIBE` not confirmed yet.
        case connected(socket: Int32)
        /// Subscribed: messages published now arrive.
        case subscribed(socket: Int32)
        /// `stop()` was called: the thread ends.
        case stopped

        /// The socket to shut down, if any.
        var socket: Int32? {
            switch self {
            case .connected(let socket), .subscribed(let socket): socket
            case .waiting, .stopped: nil
            }
        }
    }
    private let phase = Locked(Phase.waiting)
    private let wake = DispatchSemaphore(value: 0)
    private let configuration: RedisClient.Configuration
    private let endpoint: RedisEndpoint
    private let channel: String
    private let pingInterval: Duration
    private let onMessage: @Sendable ([UInt8]) -> Void

    init(
        configuration: RedisClient.Configuration, endpoint: RedisEndpoint, channel: String, pingInterval: Duration,
        onMessage: @escaping @Sendable ([UInt8]) -> Void
    ) {
        self.configuration = configuration
        self.endpoint = endpoint
        self.channel = channel
        self.pingInterval = max(.milliseconds(100), pingInterval)
        self.onMessage = onMessage
    }

    var isSubscribed: Bool {
        phase.withLock { phase in
            if case .subscribed = phase { true } else { false }
        }
    }

    func stop() {
        phase.withLock { phase in
            if let socket = phase.socket { _ = shutdown(socket, Int32(SHUT_RDWR)) }
            phase = .stopped
        }
        wake.signal()
    }

    /// The master changed: the connection to the old one is shut down, and the next is made at once.
    func reconnect() {
        phase.withLock { phase in
            if let socket = phase.socket { _ = shutdown(socket, Int32(SHUT_RDWR)) }
        }
        wake.signal()
    }

    private var isStopped: Bool {
        phase.withLock { phase in
            if case .stopped = phase { true } else { false }
        }
    }

    func run() {
        var backoff = ReconnectBackoff()
        while !isStopped {
            if subscribeAndRead() { backoff.succeeded() }
            let delay = backoff.failed()
            _ = wake.wait(timeout: .now() + .nanoseconds(Int(delay / .nanoseconds(1))))
        }
    }

    /// One connection's life: connect, subscribe, read messages until it breaks. Returns whether
    /// the subscription was made.
    private func subscribeAndRead() -> Bool {
        guard let address = endpoint.target.address,
              case .success(let made) = HiredisContext.connect(address, timeout: configuration.timeout) else { return false }
        // Reachable to `stop()` before the handshake, which may wait out the timeout.
        let socket = made.pointee.fd
        let admitted = phase.withLock { phase -> Bool in
            if case .stopped = phase { return false }
            phase = .connected(socket: socket)
            return true
        }
        defer {
            phase.withLock { phase in
                if case .stopped = phase {} else { phase = .waiting }
                redisFree(made)
            }
        }
        guard admitted, HiredisContext.authenticate(made, configuration) == nil,
              case .success = HiredisContext.command(made, [Array("SUBSCRIBE".utf8), Array(channel.utf8)])
        else { return false }
        phase.withLock { phase in
            if case .connected(let socket) = phase { phase = .subscribed(socket: socket) }
        }
        readMessages(made)
        return true
    }

    /// Delivers messages until the connection breaks or goes quiet: after `pingInterval` without
    /// a byte a `PING` goes out, and a connection that still says nothing for `pingInterval` more
    /// is given up (a peer that vanished without a reset is noticed within two intervals).
    private func readMessages(_ context: UnsafeMutablePointer<redisContext>) {
        var pinged = false
        while true {
            var raw: UnsafeMutableRawPointer?
            guard redisGetReplyFromReader(context, &raw) == REDIS_OK else { return }
            if let raw {
                defer { freeReplyObject(raw) }
                if let payload = HiredisContext.messagePayload(raw.assumingMemoryBound(to: redisReply.self).pointee) { onMessage(payload) }
                continue
            }
            var pending = pollfd(fd: context.pointee.fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&pending, 1, Int32(pingInterval / .milliseconds(1)))
            if ready > 0 {
                guard redisBufferRead(context) == REDIS_OK else { return }
                pinged = false
            } else if ready == 0 {
                guard !pinged, HiredisContext.ping(context) else { return }
                pinged = true
            } else if errno != EINTR {
                return
            }
        }
    }
}
