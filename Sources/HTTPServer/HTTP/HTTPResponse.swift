/// An HTTP response: status, headers and a body that is either complete or streamed.
public struct HTTPResponse: Sendable {
    /// How the body is produced.
    public enum Body: Sendable {
        /// The whole body, sent with `Content-Length`.
        case bytes([UInt8])
        /// A body produced over time, sent with `Transfer-Encoding: chunked`. The producer calls
        /// `write` for each chunk and `finish` once.
        case stream(@Sendable (_ writer: ResponseBodyWriter) -> Void)
    }

    public var status: HTTPStatus
    public var headers: HTTPHeaders
    public var body: Body

    public init(status: HTTPStatus = .ok, headers: HTTPHeaders = [:], body: Body = .bytes([])) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A response with a UTF-8 text body.
    public init(status: HTTPStatus = .ok, contentType: String = "text/plain; charset=utf-8", text: String) {
        self.init(status: status, headers: ["Content-Type": contentType], body: .bytes(Array(text.utf8)))
    }
}

/// Receives the chunks of a streamed response body.
///
/// Back pressure: `write` never blocks and always accepts the chunk; a producer that can
/// outrun its client paces itself with `whenReady` (or `writeAndWait` from async code), so the
/// server holds at most about `readyThresholdBytes` of a body for a client that reads slowly.
public protocol ResponseBodyWriter: Sendable {
    /// Sends one chunk (an empty chunk is ignored).
    func write(_ bytes: [UInt8])
    /// Calls `body` once the connection can take more: when fewer than
    /// `ResponseBodyWriterDefaults.readyThresholdBytes` written bytes wait to be sent, or the
    /// response has ended, or the client has gone (later writes are then dropped). Called on
    /// the connection's loop; at once if that is already so. The default calls it at once.
    func whenReady(_ body: @escaping @Sendable () -> Void)
    /// Ends the body.
    func finish()
    /// Gives up on the body: the connection closes once what was written is sent, so the client
    /// sees a response cut short (a test fake's "connection reset mid-body"). The default ends
    /// the body normally.
    func abort()
}

/// Limits shared by the server's `ResponseBodyWriter`.
public enum ResponseBodyWriterDefaults {
    /// Unsent bytes below which `whenReady` calls back at once.
    public static let readyThresholdBytes = 64 * 1024
}

extension ResponseBodyWriter {
    public func abort() { finish() }

    public func whenReady(_ body: @escaping @Sendable () -> Void) { body() }

    /// Sends one chunk, then waits until the connection can take more (see `whenReady`).
    public func writeAndWait(_ bytes: [UInt8]) async {
        write(bytes)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            whenReady { continuation.resume() }
        }
    }
}
