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
    private var context: HiredisContext.Context?
    private var backoff = ReconnectBackoff()
    private var nextAttempt = ContinuousClock.now

    init(configuration: RedisClient.Configuration) { self.configuration = configuration }

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
        if let context { return .success(context) }
        guard ContinuousClock.now >= nextAttempt else { return .failure(.connection("reconnecting after a failure (back-off)")) }
        switch HiredisContext.connect(configuration) {
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
