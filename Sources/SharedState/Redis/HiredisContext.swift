import CHiredis
import Foundation

/// The one way to open and use a hiredis connection, for the pool's connections and the
/// subscriber alike: connect within the timeout, then `AUTH` and `SELECT`; commands as byte
/// strings; replies copied out as `RedisReply`, errors typed.
enum HiredisContext {
    typealias Context = UnsafeMutablePointer<redisContext>

    /// Connects to `configuration`'s Redis within its timeout, with that timeout set for every
    /// command; the handshake (`AUTH`, `SELECT`) is `authenticate(_:_:)`'s, so a caller can
    /// first make the new socket reachable to a `stop()` on another thread.
    static func connect(_ configuration: RedisClient.Configuration) -> Result<Context, RedisError> {
        connect(RedisAddress(host: configuration.host, port: configuration.port), timeout: configuration.timeout)
    }

    /// Connects to `address` within `timeout`, with that timeout set for every command.
    static func connect(_ address: RedisAddress, timeout duration: Duration) -> Result<Context, RedisError> {
        let timeout = timeval(duration)
        guard let made = redisConnectWithTimeout(address.host, Int32(address.port), timeout) else {
            return .failure(.connection("cannot allocate a connection"))
        }
        if made.pointee.err != 0 {
            let reason = errorText(made)
            redisFree(made)
            return .failure(.connection(reason))
        }
        redisSetTimeout(made, timeout)
        return .success(made)
    }

    /// Sends `AUTH` (with a password) and `SELECT` (for a database other than 0), which every new
    /// connection needs before anything else; nil when both passed. The caller frees the context
    /// on failure.
    static func authenticate(_ context: Context, _ configuration: RedisClient.Configuration) -> RedisError? {
        if let authentication = configuration.authentication,
           case .failure(let error) = command(context, authentication.map { Array($0.utf8) }) {
            return .connection("AUTH: \(error)")  // Redis's answer never repeats the password
        }
        if configuration.database != 0,
           case .failure(let error) = command(context, [Array("SELECT".utf8), Array(String(configuration.database).utf8)]) {
            return .connection("SELECT \(configuration.database): \(error)")
        }
        return nil
    }

    /// Runs one command and returns its reply. `.server` is Redis's error reply (the connection
    /// is fine); `.timeout` and `.connection` mean the connection is broken and must be freed.
    static func command(_ context: Context, _ arguments: [[UInt8]]) -> Result<RedisReply, RedisError> {
        let lengths = arguments.map(\.count)
        let raw = withArgv(arguments) { argv in
            redisCommandArgv(context, Int32(arguments.count), argv, lengths)
        }
        guard let raw else { return .failure(error(of: context)) }
        defer { freeReplyObject(raw) }
        let reply = raw.assumingMemoryBound(to: redisReply.self).pointee
        if reply.type == REDIS_REPLY_ERROR { return .failure(.server(text(reply))) }
        return .success(copy(reply))
    }

    /// Sends `PING` without waiting for its answer (allowed on a subscribed connection, where
    /// the answer is not a message); false when the connection is broken.
    static func ping(_ context: Context) -> Bool {
        let command = "*1\r\n$4\r\nPING\r\n"
        guard redisAppendFormattedCommand(context, command, command.utf8.count) == REDIS_OK else { return false }
        var done: Int32 = 0
        while done == 0 {
            guard redisBufferWrite(context, &done) == REDIS_OK else { return false }
        }
        return true
    }

    /// The payload of a `["message", channel, payload]` push; nil for anything else.
    static func messagePayload(_ reply: redisReply) -> [UInt8]? {
        guard reply.type == REDIS_REPLY_ARRAY, reply.elements == 3, let elements = reply.element,
              let kind = elements[0]?.pointee, kind.type == REDIS_REPLY_STRING, let kindText = kind.str,
              String(decoding: UnsafeRawBufferPointer(start: kindText, count: kind.len), as: UTF8.self) == "message",
              let payload = elements[2]?.pointee, payload.type == REDIS_REPLY_STRING, let bytes = payload.str
        else { return nil }
        return Array(UnsafeRawBufferPointer(start: bytes, count: payload.len))
    }

    /// The error hiredis recorded on `context`.
    static func error(of context: Context) -> RedisError {
        let reason = errorText(context)
        // hiredis reports a read timeout as an I/O error with EAGAIN's text.
        if context.pointee.err == REDIS_ERR_IO, reason.contains("temporarily unavailable") || reason.contains("timed out") {
            return .timeout
        }
        return .connection(reason)
    }

    /// A reply as a `RedisReply` (nested arrays copied whole).
    static func copy(_ reply: redisReply) -> RedisReply {
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

    private static func errorText(_ context: Context) -> String {
        withUnsafeBytes(of: context.pointee.errstr) { bytes in
            let prefix = bytes.prefix { $0 != 0 }
            return String(decoding: prefix, as: UTF8.self)
        }
    }

    private static func text(_ reply: redisReply) -> String {
        guard let str = reply.str else { return "" }
        return String(decoding: UnsafeRawBufferPointer(start: str, count: reply.len), as: UTF8.self)
    }

    private static func timeval(_ duration: Duration) -> Glibc.timeval {
        let microseconds = duration / .microseconds(1)
        return Glibc.timeval(tv_sec: Int(microseconds) / 1_000_000, tv_usec: Int(microseconds) % 1_000_000)
    }

    /// Calls `body` with a C `argv` of `arguments` (each a byte string, not NUL-terminated).
    private static func withArgv<R>(_ arguments: [[UInt8]], _ body: (UnsafeMutablePointer<UnsafePointer<CChar>?>) -> R) -> R {
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
