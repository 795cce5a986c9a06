import Foundation

/// The status line and header fields of an HTTP/1.1 response.
public struct HTTPResponseHead: Sendable, Equatable {
    /// The status code (101, 403, …).
    public var status: Int
    /// The reason phrase as sent.
    public var reason: String
    public var headers: HTTPHeaders

    public init(status: Int, reason: String, headers: HTTPHeaders) {
        self.status = status
        self.reason = reason
        self.headers = headers
    }
}

/// Reads a response head (RFC 9112 §4, §5) from bytes arriving in pieces, for the client side
/// of the WebSocket opening handshake. The head may be at most `maxBytes` long: the limit is
/// checked before a byte is buffered, so a server that never ends its head costs no more.
struct HTTPResponseHeadParser: Sendable {
    /// The longest head accepted, CRLFCRLF included.
    let maxBytes: Int
    private var buffer: [UInt8] = []

    init(maxBytes: Int) {
        self.maxBytes = max(16, maxBytes)
    }

    /// Takes the next bytes; returns the head and the bytes after it once the head is
    /// complete, nil while more are needed.
    mutating func append(_ bytes: UnsafeRawBufferPointer) throws(WebSocketClientError) -> (HTTPResponseHead, [UInt8])? {
        let searchFrom = max(0, buffer.count - 3)
        let room = maxBytes - buffer.count
        // Buffer at most what the limit leaves; the rest can only be body or frames.
        buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes.prefix(room)))
        guard let end = Self.endOfHead(in: buffer, from: searchFrom) else {
            if buffer.count >= maxBytes { throw .responseHeadTooLarge(limit: maxBytes) }
            return nil
        }
        let head = try Self.parse(buffer[..<end])
        // The bytes after the head: those buffered, then those the limit left out.
        var rest = Array(buffer[(end + 4)...])
        if bytes.count > room { rest.append(contentsOf: bytes[room...]) }
        buffer = []
        return (head, rest)
    }

    /// The index of the CRLFCRLF ending the head, searching from `start`.
    private static func endOfHead(in bytes: [UInt8], from start: Int) -> Int? {
        guard bytes.count >= 4 else { return nil }
        var index = start
        while index + 3 < bytes.count {
            if bytes[index] == HTTPSyntax.cr, bytes[index + 1] == HTTPSyntax.lf,
               bytes[index + 2] == HTTPSyntax.cr, bytes[index + 3] == HTTPSyntax.lf { return index }
            index += 1
        }
        return nil
    }

    /// Parses `HTTP/1.x SP 3DIGIT SP reason CRLF *(field-line CRLF)`.
    static func parse(_ head: ArraySlice<UInt8>) throws(WebSocketClientError) -> HTTPResponseHead {
        let text = String(decoding: head, as: UTF8.self)
        var lines = text.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst()
        let parts = statusLine.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0] == "HTTP/1.1" || parts[0] == "HTTP/1.0",
              parts[1].utf8.count == 3, let status = Int(parts[1]), status >= 100
        else { throw .invalidHandshake("malformed status line \"\(statusLine.prefix(80))\"") }
        var headers = HTTPHeaders()
        for line in lines {
            guard let colon = line.firstIndex(of: ":"), line.first != " ", line.first != "\t" else {
                throw .invalidHandshake("malformed header line \"\(line.prefix(80))\"")
            }
            let name = String(line[..<colon])
            guard WebSocketExtensionOffer.isToken(name) else { throw .invalidHandshake("malformed header name \"\(name.prefix(80))\"") }
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            headers.add(name, value)
        }
        return HTTPResponseHead(status: status, reason: parts.count > 2 ? String(parts[2]) : "", headers: headers)
    }
}
