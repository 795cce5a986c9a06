import Dispatch
import Foundation
import Locking
import StreamCore
import Synchronization

/// A Redis client for the state replicas share: a pool of hiredis connections, each owned by its
/// own serial queue, so a command blocks that queue — never an event loop or the caller. A command
/// that waited in the queue for `timeout` fails unsent (`.timeout`); one that is sent
/// waits at most a connect and a command timeout more. Commands go to the pool's connections in
/// turn; a connection that breaks or times out is made again after a back-off, during which its
/// commands fail at once.
///
/// The design decision (hiredis's blocking API on dedicated queues rather than its async API on
/// the server's event loops): Redis calls are few per lookup and never on the keystroke path's
/// event loop; the blocking API keeps timeouts and reconnection in one small type.
public final class RedisClient: Sendable {
    /// Where Redis is and how to talk to it.
    public struct Configuration: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
        public var host: String
        public var port: Int
        public var database: Int
        /// An ACL user (Redis 6+) for `AUTH`; nil: the default user.
        public var username: String?
        /// Sent with `AUTH` on every new connection; nil: no `AUTH`. Never printed.
        public var password: String?
        /// Connections in the pool (each with its own queue).
        public var poolSize: Int
        /// Connect and command timeout.
        public var timeout: Duration
        /// With sentinels, the master is the one they name (`host` and `port` are not used).
        public var sentinels: RedisSentinels?
        /// How long a subscribed connection (other replicas' landings) may be quiet before a
        /// `PING` checks it; unanswered as long again, it is made anew.
        public var pingInterval: Duration = .seconds(5)

        public init(
            host: String = "127.0.0.1", port: Int = 6379, database: Int = 0, username: String? = nil, password: String? = nil,
            poolSize: Int = 4, timeout: Duration = .milliseconds(250)
        ) {
            self.host = host
            self.port = port
            self.database = database
            self.username = username
            self.password = password
            self.poolSize = max(1, poolSize)
            self.timeout = max(.milliseconds(1), timeout)
        }

        /// `redis://[[username]:password@]host[:port][/database]` (user and password
        /// percent-encoded); nil for anything else, such as a user without a password (TLS,
        /// `rediss://`, and Unix sockets are not supported).
        ///
        /// - Parameter password: the password when it is not in the URL (`REDIS_PASSWORD`); with
        ///   one in the URL as well, the URL's is used (the service refuses the pair before).
        public init?(url: String, password: String? = nil, poolSize: Int = 4, timeout: Duration = .milliseconds(250)) {
            guard let components = URLComponents(string: url), components.scheme == "redis",
                  let host = components.host, !host.isEmpty else { return nil }
            let path = components.path.trimmingCharacters(in: CharacterSet(charactersIn: "/"))
            guard path.isEmpty || Int(path) != nil else { return nil }
            let username = components.user.flatMap { $0.isEmpty ? nil : $0 }
            let password = components.password ?? password
            guard username == nil || password != nil else { return nil }
            self.init(
                host: host, port: components.port ?? 6379, database: Int(path) ?? 0, username: username,
                password: password, poolSize: poolSize, timeout: timeout
            )
        }

        /// The `AUTH` command a new connection sends first; nil without a password.
        var authentication: [String]? {
            guard let password else { return nil }
            return ["AUTH"] + (username.map { [$0] } ?? []) + [password]
        }

        /// `redis://host:port/database`, with the user and `***` for a password; with sentinels,
        /// `redis://:***@<master of sentinels a:1,b:2 master mymaster>/0`.
        public var description: String {
            let credentials = password == nil ? "" : "\(username ?? ""):***@"
            let server = sentinels.map { "<master of \($0)>" } ?? "\(host):\(port)"
            return "redis://\(credentials)\(server)/\(database)"
        }

        /// The same as `description`: the password is never shown.
        public var debugDescription: String { "RedisClient.Configuration(\(description))" }

        /// The description only, so `dump` and reflection never reach the password.
        public var customMirror: Mirror {
            Mirror(self, children: ["url": description, "poolSize": poolSize, "timeout": timeout], displayStyle: .struct)
        }
    }

    public let configuration: Configuration
    /// Where the connections go: the configured address, or the master the sentinels name.
    let endpoint: RedisEndpoint
    /// Asks the sentinels for the master and follows failovers (with sentinels only).
    private let monitor: SentinelMonitor?
    private let slots: [Slot]
    /// The next slot to take a command without affinity, in turn.
    private let next = Atomic<UInt>(0)
    /// Whether Redis was reached by the last command.
    private let reachable = Atomic<Bool>(true)
    private let onCommand: @Sendable () -> Void
    private let onFailure: @Sendable (RedisError) -> Void

    /// - Parameters:
    ///   - onCommand: called once per command sent (a round trip), for metrics.
    ///   - onFailure: called with every failure (for the "Redis unavailable" log and metric).
    ///   - onMasterChange: called with the new master when the sentinels name another (for the log).
    ///   - onSentinelFailure: called with a sentinel that could not be asked or followed, and why.
    public init(
        configuration: Configuration, onCommand: @escaping @Sendable () -> Void = {},
        onFailure: @escaping @Sendable (RedisError) -> Void = { _ in },
        onMasterChange: @escaping @Sendable (RedisAddress?) -> Void = { _ in },
        onSentinelFailure: @escaping @Sendable (RedisAddress, String) -> Void = { _, _ in }
    ) {
        self.configuration = configuration
        self.onCommand = onCommand
        self.onFailure = onFailure
        if let sentinels = configuration.sentinels {
            let monitor = SentinelMonitor(
                sentinels: sentinels, timeout: configuration.timeout, onMasterChange: onMasterChange,
                onSentinelFailure: onSentinelFailure)
            endpoint = monitor.endpoint
            self.monitor = monitor
        } else {
            endpoint = RedisEndpoint(RedisAddress(host: configuration.host, port: configuration.port))
            monitor = nil
        }
        let endpoint = endpoint
        slots = (0..<configuration.poolSize).map { index in
            Slot(queue: DispatchQueue(label: "redis.\(index)"), connection: RedisConnection(configuration: configuration, endpoint: endpoint))
        }
    }

    deinit { monitor?.stop() }

    /// The master's address now: the configured one, or the one the sentinels named; nil while
    /// the sentinels have named none.
    public var master: RedisAddress? { endpoint.target.address }

    /// Stops asking the sentinels (at shutdown; nothing without sentinels).
    public func stopFollowingMaster() { monitor?.stop() }

    /// Runs `arguments` as one command; `completion` runs on the connection's queue.
    public func run(
        _ arguments: [String], affinity: String? = nil, completion: @escaping @Sendable (Result<RedisReply, RedisError>) -> Void
    ) {
        run(arguments.map { Array($0.utf8) }, affinity: affinity, completion: completion)
    }

    /// Runs one command of byte-string arguments (values that are not text). Commands with the
    /// same `affinity` go to the same connection, so they reach Redis in the order they were
    /// given (a cache write, then the message that says it is there); without one, connections
    /// take turns.
    public func run(
        _ arguments: [[UInt8]], affinity: String? = nil, completion: @escaping @Sendable (Result<RedisReply, RedisError>) -> Void
    ) {
        let index = affinity.map { Int(UInt(bitPattern: $0.hashValue) % UInt(slots.count)) } ?? nextSlot()
        let slot = slots[index]
        onCommand()
        // The timeout counts from here: a command that waited its turn past it fails without
        // being sent, so a slow Redis never holds a caller longer than the timeout.
        let deadline = ContinuousClock.now + configuration.timeout
        slot.queue.async { [self] in
            guard ContinuousClock.now < deadline else { return completion(noted(.failure(.timeout))) }
            completion(noted(slot.run(arguments)))
        }
    }

    /// The connections take commands in turn.
    private func nextSlot() -> Int {
        Int(next.wrappingAdd(1, ordering: .relaxed).oldValue % UInt(slots.count))
    }

    /// Whether the last command reached Redis (true until one did not; an error reply still
    /// counts as reached). For `/readyz`.
    public var isAvailable: Bool { master != nil && reachable.load(ordering: .relaxed) }

    /// Records whether `result` reached Redis, and reports a failure.
    private func noted(_ result: Result<RedisReply, RedisError>) -> Result<RedisReply, RedisError> {
        switch result {
        case .success, .failure(.server): reachable.store(true, ordering: .relaxed)
        case .failure(.connection), .failure(.timeout):
            // Once per outage, the sentinels are asked again: the master may have moved.
            if reachable.exchange(false, ordering: .relaxed) { endpoint.connectionFailed() }
        }
        if case .failure(let error) = result { onFailure(error) }
        return result
    }

    /// Runs a Lua script (`EVAL`) with its keys and arguments; Redis runs it atomically.
    public func eval(
        _ script: String, keys: [String], arguments: [String], affinity: String? = nil,
        completion: @escaping @Sendable (Result<RedisReply, RedisError>) -> Void
    ) {
        let command = ["EVAL", script, String(keys.count)] + keys + arguments
        run(command.map { Array($0.utf8) }, affinity: affinity, completion: completion)
    }

    /// The command as a publisher: subscribing runs it once; the reply or the error follows on
    /// the connection's queue.
    public func command(_ arguments: [String]) -> AnyPublisher<RedisReply, RedisError> {
        Deferred {
            Future<RedisReply, RedisError> { [self] promise in
                run(arguments) { promise($0) }
            }
        }
        .eraseToAnyPublisher()
    }

    /// Runs `arguments` and waits for the reply (for tests and start-up checks; never on an
    /// event loop).
    public func runAndWait(_ arguments: [String]) -> Result<RedisReply, RedisError> {
        let slot = slots[nextSlot()]
        onCommand()
        return noted(slot.queue.sync { slot.run(arguments.map { Array($0.utf8) }) })
    }

    /// One connection and the queue that runs its commands, one at a time.
    private final class Slot: Sendable {
        let queue: DispatchQueue
        /// The hiredis context, inside its lock: only `queue` takes it (so it never waits), and
        /// the lock is what makes that checked.
        private let connection: Locked<RedisConnection>

        init(queue: DispatchQueue, connection: sending RedisConnection) {
            self.queue = queue
            self.connection = Locked(connection)
        }

        /// Runs one command and waits for its reply (on `queue`).
        func run(_ arguments: [[UInt8]]) -> Result<RedisReply, RedisError> {
            connection.withLock { $0.run(arguments) }
        }
    }
}
