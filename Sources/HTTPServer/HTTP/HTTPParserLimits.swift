/// Size limits the request parser enforces, each checked as bytes arrive so that no input can
/// make the parser buffer more than about the largest limit.
///
/// Every limit is inclusive: a value exactly at the limit is accepted, one byte (or field) more
/// is rejected with the ``HTTPParseError`` named below.
public struct HTTPParserLimits: Sendable, Equatable {
    /// Longest request line, not counting its CRLF (`GET /x HTTP/1.1` is 15). Past it:
    /// ``HTTPParseError/requestLineTooLong`` (414; the target is what makes a request line long).
    public var maxRequestLineBytes: Int
    /// Largest header section: every field line with its CRLF plus the final empty line's CRLF
    /// (`Host: a\r\n\r\n` is 11). Past it: ``HTTPParseError/headerSectionTooLarge`` (431).
    /// Chunked trailers have the same budget of their own.
    public var maxHeaderBytes: Int
    /// Most header fields (lines) in one request. Past it: ``HTTPParseError/tooManyHeaders`` (431).
    public var maxHeaderCount: Int
    /// Largest body (decoded, for chunked bodies). Past it: ``HTTPParseError/bodyTooLarge`` (413),
    /// raised as soon as a `Content-Length` or chunk size announces it.
    public var maxBodyBytes: Int
    /// Whether HTTP/1.1 requests must carry exactly one `Host` field (RFC 9112 §3.2); any request
    /// with more than one is rejected either way.
    public var requireHost: Bool

    public init(
        maxRequestLineBytes: Int = 8 * 1024,
        maxHeaderBytes: Int = 32 * 1024,
        maxHeaderCount: Int = 100,
        maxBodyBytes: Int = 1024 * 1024,
        requireHost: Bool = true
    ) {
        self.maxRequestLineBytes = maxRequestLineBytes
        self.maxHeaderBytes = maxHeaderBytes
        self.maxHeaderCount = maxHeaderCount
        self.maxBodyBytes = maxBodyBytes
        self.requireHost = requireHost
    }

    /// Longest chunk-size line (size and ignored extensions) the parser buffers.
    static let maxChunkLineBytes = 4096
}
