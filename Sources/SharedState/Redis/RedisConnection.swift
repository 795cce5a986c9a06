import CHiredis
import Foundation

/// One blocking connection to Redis through hiredis, with a connect and a command timeout.
/// Not thread-safe: `RedisClient` gives each one its own serial queue, so a blocking call never
/// runs on an event-loop thread. A broken or timed-out connection is dropped and made again by
/// a later command, no sooner than its back-off allows (reset only by a command that reaches
/// Redis). Connecting, the handshake and the wire are `HiredisContext`'s.
final class RedisConnection {
    /// Where to connect, `AUTH` and `SELECT` for every new connection, and the timeout.
    private let configuration: RedisClient.Configuration
    /// Where Redis is now (the sentinels' master may change).
    private let endpoint: RedisEndpoint
    private var context: HiredisContext.Context?
    /// The endpoint's generation `context` was made for.
    private var generation: UInt64 = 0
    private var backoff = ReconnectBackoff()
    private var nextAttempt = ContinuousClock.now

    init(configuration: RedisClient.Configuration, endpoint: RedisEndpoint) {
        self.configuration = configuration
        self.endpoint = endpoint
    }

    deinit { if let context { redisFree(context) } }

    /// Runs one command (`["SET", "k", "v", "PX", "1000"]`) and returns its reply.
    func run(_ arguments: [[UInt8]]) -> Result<RedisReply, RedisError> {
        let context: HiredisContext.Context
        switch connect() {
        case .success(let connected): context = connected
        case .failure(let error): return .failure(error)
        }
        let result = HiredisContext.command(context, arguments)
        switch result {
        case .success, .failure(.server):
            backoff.succeeded()
        case .failure(.timeout), .failure(.connection):
            // Timed out or broken: a slow Redis is treated as a down one — no new connection
            // before the back-off, so queued commands fail fast instead of each waiting out
            // the timeout.
            drop()
            backOff()
        }
        return result
    }

    /// Whether a connection is open now.
    var isConnected: Bool { context != nil }

    // MARK: Connecting

    private func connect() -> Result<HiredisContext.Context, RedisError> {
        let target = endpoint.target
        if target.generation != generation {
            // Another master: drop the connection to the old one, and try the new one at once.
            drop()
            generation = target.generation
            backoff.succeeded()
            nextAttempt = .now
        }
        if let context { return .success(context) }
        guard let address = target.address else { return .failure(.connection("no master known (asking the sentinels)")) }
        guard ContinuousClock.now >= nextAttempt else { return .failure(.connection("reconnecting after a failure (back-off)")) }
        switch HiredisContext.connect(address, timeout: configuration.timeout) {
        case .failure(let error):
            backOff()
            return .failure(error)
        case .success(let made):
            if let refused = HiredisContext.authenticate(made, configuration) {
                redisFree(made)
                backOff()
                return .failure(refused)
            }
            context = made
            return .success(made)
        }
    }

    /// The next connection waits out the back-off; a command that reaches Redis resets it.
    private func backOff() {
        nextAttempt = .now + backoff.failed()
    }

    private func drop() {
        if let context { redisFree(context) }
        context = nil
    }
}
