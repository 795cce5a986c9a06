import Dispatch
import Foundation
import StreamCore

/// A Redis client for the state replicas share: a pool of hiredis connections, each owned by its
/// own serial queue, so a command blocks that queue — never an event loop or the caller — for at
/// most `timeoutMilliseconds` (connect and each command). Commands go to the pool's connections
/// in turn; a connection that breaks is made again by its next command, after a back-off.
///
/// The design decision (hiredis's blocking API on dedicated queues rather than its async API on
/// the server's event loops): Redis calls are few per lookup and never on the keystroke path's
/// event loop; the blocking API keeps timeouts and reconnection in one small type.
public final class RedisClient: Sendable {
    /// Where Redis is and how to talk to it.
    public struct Configuration: Sendable, Equatable {
        public var host: String
        public var port: Int
        public var database: Int
        /// Connections in the pool (each with its own queue).
        public var poolSize: Int
        /// Connect and command timeout.
        public var timeoutMilliseconds: Int

        public init(host: String = "127.0.0.1", port: Int = 6379, database: Int = 0, poolSize: Int = 4, timeoutMilliseconds: Int = 250) {
            self.host = host
            self.port = port
            self.database = database
            self.poolSize = max(1, poolSize)
            self.timeoutMilliseconds = max(1, timeoutMilliseconds)
        }

        /// `redis://host[:port][/database]`; nil for anything else (TLS, passwords and sockets
        /// are not supported yet).
        public init?(url: String, poolSize: Int = 4, timeoutMilliseconds: Int = 250) {
            guard let components = URLComponents(string: url), components.scheme == "redis",
                  let host = components.host, !host.isEmpty, components.user == nil, components.password == nil else { return nil }
            let path = components.path.trimmingCharacters(in: CharacterSet(charactersIn: "/"))
            guard path.isEmpty || Int(path) != nil else { return nil }
            self.init(host: host, port: components.port ?? 6379, database: Int(path) ?? 0, poolSize: poolSize, timeoutMilliseconds: timeoutMilliseconds)
        }
    }

    public let configuration: Configuration
    private let slots: [Slot]
    private let next = RoundRobin()

    public init(configuration: Configuration) {
        self.configuration = configuration
        let settings = RedisConnection.Settings(
            host: configuration.host, port: configuration.port, database: configuration.database,
            timeoutMilliseconds: configuration.timeoutMilliseconds
        )
        slots = (0..<configuration.poolSize).map { index in
            Slot(queue: DispatchQueue(label: "redis.\(index)"), connection: RedisConnection(settings: settings))
        }
    }

    /// Runs `arguments` as one command; `completion` runs on the connection's queue.
    public func run(_ arguments: [String], completion: @escaping @Sendable (Result<RedisReply, RedisError>) -> Void) {
        run(arguments.map { Array($0.utf8) }, completion: completion)
    }

    /// Runs one command of byte-string arguments (values that are not text).
    public func run(_ arguments: [[UInt8]], completion: @escaping @Sendable (Result<RedisReply, RedisError>) -> Void) {
        let slot = slots[next.take(modulo: slots.count)]
        slot.queue.async { completion(slot.connection.run(arguments)) }
    }

    /// The command as a publisher: subscribing runs it once; the reply or the error follows on
    /// the connection's queue.
    public func command(_ arguments: [String]) -> AnyPublisher<RedisReply, RedisError> {
        Deferred {
            Future<RedisReply, RedisError> { [self] promise in
                let promise = PromiseBox(promise)
                run(arguments) { promise.fulfill($0) }
            }
        }
        .eraseToAnyPublisher()
    }

    /// Runs `arguments` and waits for the reply (for tests and start-up checks; never on an
    /// event loop).
    public func runAndWait(_ arguments: [String]) -> Result<RedisReply, RedisError> {
        let slot = slots[next.take(modulo: slots.count)]
        return slot.queue.sync { slot.connection.run(arguments.map { Array($0.utf8) }) }
    }

    /// One connection and the queue that owns it.
    private final class Slot: @unchecked Sendable {
        // Sendable: `connection` is only used on `queue`.
        let queue: DispatchQueue
        let connection: RedisConnection

        init(queue: DispatchQueue, connection: RedisConnection) {
            self.queue = queue
            self.connection = connection
        }
    }
}

/// A counter handing out slot indices in turn.
private final class RoundRobin: @unchecked Sendable {
    // Sendable: `value` is guarded by `lock`.
    private let lock = NSLock()
    private var value = 0

    func take(modulo count: Int) -> Int {
        lock.withLock {
            defer { value &+= 1 }
            return value % count
        }
    }
}

