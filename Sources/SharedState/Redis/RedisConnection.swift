import CHiredis
import Foundation

/// One blocking connection to Redis through hiredis, with a connect and a command timeout.
/// Not thread-safe: `RedisClient` gives each one its own serial queue, so a blocking call never
/// runs on an event-loop thread. A broken or timed-out connection is dropped and made again by
/// a later command, no sooner than its back-off allows (reset only by a command that succeeds).
final class RedisConnection {
    /// Where to connect, `AUTH` and `SELECT` for every new connection, and the timeout.
    private let configuration: RedisClient.Configuration
    private var context: UnsafeMutablePointer<redisContext>?
    /// Reconnection back-off: 50 ms doubling to 5 s, reset by a successful connection.
    private var backoffMilliseconds = 0
    private var nextAttempt = DispatchTime(uptimeNanoseconds: 0)

    init(configuration: RedisClient.Configuration) { self.configuration = configuration }

    deinit { if let context { redisFree(context) } }

    /// Runs one command (`["SET", "k", "v", "PX", "1000"]`) and returns its reply.
    func run(_ arguments: [[UInt8]]) -> Result<RedisReply, RedisError> {
        let connected = connect()
        guard case .success(let context) = connected else {
            if case .failure(let error) = connected { return .failure(error) }
            return .failure(.connection("not connected"))
        }
        let lengths = arguments.map(\.count)
        let raw = withArgv(arguments) { argv in
            redisCommandArgv(context, Int32(arguments.count), argv, lengths)
        }
        guard let raw else {
            // Timed out or broken: a slow Redis is treated as a down one — no new connection
            // before the back-off, so queued commands fail fast instead of each waiting out
            // the timeout.
            let error = Self.error(of: context)
            drop()
            backOff()
            return .failure(error)
        }
        backoffMilliseconds = 0
        let reply = raw.assumingMemoryBound(to: redisReply.self)
        defer { freeReplyObject(raw) }
        if reply.pointee.type == REDIS_REPLY_ERROR {
            return .failure(.server(Self.text(reply.pointee)))
        }
        return .success(Self.copy(reply.pointee))
    }

    /// Whether a connection is open now.
    var isConnected: Bool { context != nil }

    // MARK: Connecting

    private func connect() -> Result<UnsafeMutablePointer<redisContext>, RedisError> {
        if let context { return .success(context) }
        guard DispatchTime.now() >= nextAttempt else { return .failure(.connection("reconnecting after a failure (back-off)")) }
        let timeout = Self.timeval(milliseconds: configuration.timeoutMilliseconds)
        guard let made = redisConnectWithTimeout(configuration.host, Int32(configuration.port), timeout) else {
            return failedConnection("cannot allocate a connection")
        }
        if made.pointee.err != 0 {
            let reason = Self.errorText(made)
            redisFree(made)
            return failedConnection(reason)
        }
        redisSetTimeout(made, timeout)
        context = made
        if let authentication = configuration.authentication {
            if case .failure(let error) = run(authentication.map { Array($0.utf8) }) {
                drop()
                return failedConnection("AUTH: \(error)")  // Redis's answer never repeats the password
            }
        }
        if configuration.database != 0 {
            if case .failure(let error) = run([Array("SELECT".utf8), Array(String(configuration.database).utf8)]) {
                drop()
                return failedConnection("SELECT \(configuration.database): \(error)")
            }
        }
        return .success(made)
    }

    private func failedConnection(_ reason: String) -> Result<UnsafeMutablePointer<redisContext>, RedisError> {
        backOff()
        return .failure(.connection(reason))
    }

    /// The next connection waits 50 ms, doubling to 5 s; a command that succeeds resets it.
    private func backOff() {
        backoffMilliseconds = min(5_000, max(50, backoffMilliseconds * 2))
        nextAttempt = .now() + .milliseconds(backoffMilliseconds)
    }

    private func drop() {
        if let context { redisFree(context) }
        context = nil
    }

    // MARK: hiredis values

    private static func error(of context: UnsafeMutablePointer<redisContext>) -> RedisError {
        let reason = errorText(context)
        // hiredis reports a read timeout as an I/O error with EAGAIN's text.
        if context.pointee.err == REDIS_ERR_IO, reason.contains("temporarily unavailable") || reason.contains("timed out") {
            return .timeout
        }
        return .connection(reason)
    }

    private static func errorText(_ context: UnsafeMutablePointer<redisContext>) -> String {
        withUnsafeBytes(of: context.pointee.errstr) { bytes in
            let prefix = bytes.prefix { $0 != 0 }
            return String(decoding: prefix, as: UTF8.self)
        }
    }

    private static func text(_ reply: redisReply) -> String {
        guard let str = reply.str else { return "" }
        return String(decoding: UnsafeRawBufferPointer(start: str, count: reply.len), as: UTF8.self)
    }

    private static func copy(_ reply: redisReply) -> RedisReply {
        switch reply.type {
        case REDIS_REPLY_STRING:
            guard let str = reply.str else { return .string([]) }
            return .string(Array(UnsafeRawBufferPointer(start: str, count: reply.len)))
        case REDIS_REPLY_STATUS: return .status(text(reply))
        case REDIS_REPLY_INTEGER: return .integer(Int(reply.integer))
        case REDIS_REPLY_ARRAY:
            guard let elements = reply.element else { return .array([]) }
            return .array((0..<reply.elements).map { index in elements[index].map { copy($0.pointee) } ?? .null })
        default: return .null
        }
    }

    private static func timeval(milliseconds: Int) -> Glibc.timeval {
        Glibc.timeval(tv_sec: milliseconds / 1_000, tv_usec: (milliseconds % 1_000) * 1_000)
    }

    /// Calls `body` with a C `argv` of `arguments` (each a byte string, not NUL-terminated).
    private func withArgv<R>(_ arguments: [[UInt8]], _ body: (UnsafeMutablePointer<UnsafePointer<CChar>?>) -> R) -> R {
        let buffers = arguments.map { bytes -> UnsafeMutablePointer<CChar> in
            let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: max(1, bytes.count))
            bytes.withUnsafeBufferPointer { source in
                guard let base = source.baseAddress else { return }
                base.withMemoryRebound(to: CChar.self, capacity: bytes.count) { buffer.update(from: $0, count: bytes.count) }
            }
            return buffer
        }
        defer { buffers.forEach { $0.deallocate() } }
        var argv: [UnsafePointer<CChar>?] = buffers.map { UnsafePointer($0) }
        return argv.withUnsafeMutableBufferPointer { body($0.baseAddress!) }
    }
}
