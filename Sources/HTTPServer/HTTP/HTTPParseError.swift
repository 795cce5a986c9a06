/// Why a request could not be parsed, and so which status to answer with (``status``) before
/// closing the connection. After throwing one, the parser keeps throwing it.
public enum HTTPParseError: Error, Equatable, Sendable {
    /// The request line is not `method SP target SP HTTP/d.d` (400).
    case malformedRequestLine
    /// A header line has no colon, a bad name, space before the colon, a CR/NUL in its value,
    /// or a line ends in a bare LF (400).
    case malformedHeader
    /// A header line starts with whitespace (obsolete line folding, RFC 9112 §5.2) (400).
    case obsoleteLineFolding
    /// `Content-Length` is not digits, or several values differ (400).
    case invalidContentLength
    /// Both `Content-Length` and `Transfer-Encoding` are present (400).
    case conflictingFraming
    /// `Transfer-Encoding` lists `chunked` twice or not last, or is sent with HTTP/1.0 (400).
    case invalidTransferEncoding
    /// A chunk size is not hex, overflows, or a chunk is not followed by CRLF (400).
    case invalidChunk
    /// An HTTP/1.1 request without `Host`, or any request with more than one (400).
    case invalidHost
    /// The request line is longer than ``HTTPParserLimits/maxRequestLineBytes`` (414).
    case requestLineTooLong
    /// The header section (or trailer section) is larger than
    /// ``HTTPParserLimits/maxHeaderBytes`` (431).
    case headerSectionTooLarge
    /// More header fields than ``HTTPParserLimits/maxHeaderCount`` (431).
    case tooManyHeaders
    /// The body is, or is announced to be, larger than ``HTTPParserLimits/maxBodyBytes`` (413).
    case bodyTooLarge
    /// `Transfer-Encoding` names a coding other than `chunked` (501).
    case unsupportedTransferEncoding
    /// The version is not HTTP/1.x (505).
    case unsupportedVersion

    /// The response status this error calls for.
    public var status: HTTPStatus {
        switch self {
        case .malformedRequestLine, .malformedHeader, .obsoleteLineFolding, .invalidContentLength,
             .conflictingFraming, .invalidTransferEncoding, .invalidChunk, .invalidHost:
            return .badRequest
        case .requestLineTooLong: return .uriTooLong
        case .headerSectionTooLarge, .tooManyHeaders: return .headerFieldsTooLarge
        case .bodyTooLarge: return .payloadTooLarge
        case .unsupportedTransferEncoding: return .notImplemented
        case .unsupportedVersion: return .httpVersionNotSupported
        }
    }
}
