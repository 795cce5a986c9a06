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
public protocol ResponseBodyWriter: Sendable {
    /// Sends one chunk (an empty chunk is ignored).
    func write(_ bytes: [UInt8])
    /// Ends the body.
    func finish()
    /// Gives up on the body: the connection closes once what was written is sent, so the client
    /// sees a response cut short (a test fake's "connection reset mid-body"). The default ends
    /// the body normally.
    func abort()
}

extension ResponseBodyWriter {
    public func abort() { finish() }
}
