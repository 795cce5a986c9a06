/// Writes HTTP/1.1 responses: status line, headers (with `Date`, framing and `Connection`
/// fields it manages itself) and, for `.bytes` bodies, the body.
///
/// For `.stream` bodies it writes the head and returns ``BodyFraming/chunked``: the connection
/// layer then runs the producer and frames each write with ``HTTPChunkedEncoding``, ending with
/// ``HTTPChunkedEncoding/lastChunk``. One serializer per connection (it caches the `Date`).
public struct HTTPResponseSerializer: Sendable {
    /// What the request implies for the response.
    public struct Context: Sendable, Equatable {
        /// A `HEAD` request: headers as for `GET`, no body.
        public var isHeadRequest: Bool
        /// Adds `Connection: close`; the connection layer closes after writing.
        public var closeConnection: Bool
        /// An HTTP/1.0 client: no chunked coding (a streamed body is sent raw and ends by
        /// closing), and `Connection: keep-alive` when the connection stays open.
        public var isHTTP10: Bool

        public init(isHeadRequest: Bool = false, closeConnection: Bool = false, isHTTP10: Bool = false) {
            self.isHeadRequest = isHeadRequest
            self.closeConnection = closeConnection
            self.isHTTP10 = isHTTP10
        }

        /// The context a parsed request calls for.
        public init(request: HTTPRequest) {
            self.init(
                isHeadRequest: request.method == .head, closeConnection: !request.keepAlive,
                isHTTP10: request.version.major == 1 && request.version.minor == 0)
        }
    }

    /// What remains to be written after ``serialize(_:context:into:)``.
    public enum BodyFraming: Sendable, Equatable {
        /// Nothing: the response is complete.
        case complete
        /// A `.stream` body follows, each write framed with ``HTTPChunkedEncoding``.
        case chunked
        /// A `.stream` body follows unframed (HTTP/1.0); close the connection after it.
        case untilClose
    }

    private var date = HTTPDateCache()

    public init() {}

    /// Appends the response to `out`; returns what the caller still has to write.
    @discardableResult
    public mutating func serialize(
        _ response: HTTPResponse, context: Context = Context(), into out: inout [UInt8]
    ) -> BodyFraming {
        serialize(response, context: context, includeDate: true, into: &out)
    }

    /// Appends a static response's prepared bytes (see ``StaticResponse/fits(_:compress:)``)
    /// with the current `Date`.
    mutating func serialize(_ response: StaticResponse, into out: inout [UInt8]) {
        guard let prepared = response.prepared else { return }
        let date = date.bytes()
        out.reserveCapacity(out.count + prepared.statusLine.count + date.count + 8 + prepared.rest.count)
        out.append(contentsOf: prepared.statusLine)
        out.append(contentsOf: "Date: ".utf8)
        out.append(contentsOf: date)
        appendCRLF(&out)
        out.append(contentsOf: prepared.rest)
    }

    /// `serialize`, optionally without `Date` (for ``StaticResponse``, which adds it per request).
    @discardableResult
    mutating func serialize(
        _ response: HTTPResponse, context: Context, includeDate: Bool, into out: inout [UInt8]
    ) -> BodyFraming {
        let code = response.status.code
        let bodyless = (100..<200).contains(code) || code == 204 || code == 304
        var close = context.closeConnection
        var framing = BodyFraming.complete
        var lengthField: Int?
        var chunked = false
        switch response.body {
        case .bytes(let bytes):
            if !bodyless {
                let declared = context.isHeadRequest && bytes.isEmpty ? response.headers["Content-Length"] : nil
                lengthField = declared.flatMap { Int($0) }.flatMap { $0 >= 0 ? $0 : nil } ?? bytes.count
            }
        case .stream:
            if !bodyless && !context.isHeadRequest {
                if context.isHTTP10 {
                    framing = .untilClose
                    close = true
                } else {
                    framing = .chunked
                }
            }
            chunked = !bodyless && !context.isHTTP10
        }

        if case .bytes(let bytes) = response.body { out.reserveCapacity(out.count + 256 + bytes.count) }
        out.append(contentsOf: "HTTP/1.1 ".utf8)
        appendDecimal(code, to: &out)
        out.append(HTTPSyntax.space)
        appendSanitized(response.status.reason, to: &out)
        appendCRLF(&out)
        if code >= 200 && includeDate {
            out.append(contentsOf: "Date: ".utf8)
            out.append(contentsOf: date.bytes())
            appendCRLF(&out)
        }
        for field in response.headers where !isManaged(field.name, close: close) {
            appendField(field.name, field.value, to: &out)
        }
        if let lengthField {
            out.append(contentsOf: "Content-Length: ".utf8)
            appendDecimal(lengthField, to: &out)
            appendCRLF(&out)
        }
        if chunked { out.append(contentsOf: "Transfer-Encoding: chunked\r\n".utf8) }
        if close {
            out.append(contentsOf: "Connection: close\r\n".utf8)
        } else if context.isHTTP10 && code >= 200 {
            out.append(contentsOf: "Connection: keep-alive\r\n".utf8)
        }
        appendCRLF(&out)
        if case .bytes(let bytes) = response.body, !bodyless, !context.isHeadRequest {
            out.append(contentsOf: bytes)
        }
        return framing
    }

    /// The serialized response and what remains to be written.
    public mutating func serialize(_ response: HTTPResponse, context: Context = Context()) -> (bytes: [UInt8], framing: BodyFraming) {
        var out: [UInt8] = []
        if case .bytes(let body) = response.body { out.reserveCapacity(256 + body.count) }
        let framing = serialize(response, context: context, into: &out)
        return (out, framing)
    }

    /// Fields the serializer writes itself: framing, `Date`, and `Connection` when closing.
    private func isManaged(_ name: String, close: Bool) -> Bool {
        switch name.utf8.count {
        case 4: return name.caseInsensitiveEquals("Date")
        case 10: return close && name.caseInsensitiveEquals("Connection")
        case 14: return name.caseInsensitiveEquals("Content-Length")
        case 17: return name.caseInsensitiveEquals("Transfer-Encoding")
        default: return false
        }
    }

    /// Appends `name: value CRLF`, skipping invalid names and blanking CR/LF/NUL in values
    /// (no response splitting through handler-supplied values).
    private func appendField(_ name: String, _ value: String, to out: inout [UInt8]) {
        guard !name.isEmpty, name.utf8.allSatisfy(HTTPSyntax.isTchar) else { return }
        out.append(contentsOf: name.utf8)
        out.append(HTTPSyntax.colon)
        out.append(HTTPSyntax.space)
        appendSanitized(value, to: &out)
        appendCRLF(&out)
    }

    private func appendSanitized(_ text: String, to out: inout [UInt8]) {
        if text.utf8.contains(where: { $0 == 0 || $0 == HTTPSyntax.cr || $0 == HTTPSyntax.lf }) {
            out.append(contentsOf: text.utf8.map { $0 == 0 || $0 == HTTPSyntax.cr || $0 == HTTPSyntax.lf ? HTTPSyntax.space : $0 })
        } else {
            out.append(contentsOf: text.utf8)
        }
    }

    private func appendCRLF(_ out: inout [UInt8]) {
        out.append(HTTPSyntax.cr)
        out.append(HTTPSyntax.lf)
    }

    private func appendDecimal(_ n: Int, to out: inout [UInt8]) {
        guard n > 0 else {
            out.append(0x30)
            return
        }
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        var v = n
        withUnsafeMutableBytes(of: &digits) { d in
            while v > 0 && count < 20 {
                d[19 - count] = UInt8(v % 10) + 0x30
                v /= 10
                count += 1
            }
            out.append(contentsOf: d[(20 - count)...])
        }
    }
}
