/// Gzips response bodies worth it for clients that accept gzip.
///
/// A response is *eligible* when its body is `.bytes` of at least ``minimumBytes``, its
/// `Content-Type` is compressible (``isCompressible(contentType:)``), its status can carry a
/// body, and it has no `Content-Encoding` yet. Eligible responses get `Vary: Accept-Encoding`
/// (their representation depends on it); they are gzipped, with `Content-Encoding: gzip`, when
/// ``AcceptEncoding/prefersGzip(_:)`` and the result is smaller. Keep one per connection.
public final class ResponseCompressor {
    /// Smallest body worth compressing.
    public let minimumBytes: Int
    private let level: Int32
    private var encoder: GzipEncoder?

    public init(minimumBytes: Int = 1024, level: Int32 = 6) {
        self.minimumBytes = minimumBytes
        self.level = level
    }

    /// `response`, gzipped if eligible and the client (its `Accept-Encoding` value) accepts gzip.
    public func compress(_ response: HTTPResponse, acceptEncoding: String?) -> HTTPResponse {
        guard isEligible(response), case .bytes(let body) = response.body else { return response }
        var result = response
        if !result.headers.contains("Vary", token: "accept-encoding") && !result.headers.contains("Vary", token: "*") {
            result.headers.add("Vary", "Accept-Encoding")
        }
        guard AcceptEncoding.prefersGzip(acceptEncoding) else { return result }
        do {
            let gz = try encoder ?? GzipEncoder(level: level)
            encoder = gz
            let compressed = try gz.compress(body)
            guard compressed.count < body.count else { return result }
            result.body = .bytes(compressed)
            result.headers.set("Content-Encoding", "gzip")
            result.headers.remove("Content-Length")
        } catch {
            return result  // zlib failure: send it uncompressed
        }
        return result
    }

    /// Whether compression applies to `response` at all (see the type's description).
    public func isEligible(_ response: HTTPResponse) -> Bool {
        guard case .bytes(let body) = response.body, body.count >= minimumBytes,
              response.status.code >= 200, response.status.code != 204, response.status.code != 304,
              response.headers["Content-Encoding"] == nil,
              let type = response.headers["Content-Type"], Self.isCompressible(contentType: type)
        else { return false }
        return true
    }

    /// Convenience: compresses for `request`'s `Accept-Encoding`.
    public func compress(_ response: HTTPResponse, for request: HTTPRequest) -> HTTPResponse {
        guard isEligible(response) else { return response }
        let values = request.headers.values(for: "Accept-Encoding")
        return compress(response, acceptEncoding: values.isEmpty ? nil : values.joined(separator: ", "))
    }

    /// Whether a media type gains from compression: `text/*`, JSON, JavaScript, XML, SVG and
    /// other `+json`/`+xml` types.
    public static func isCompressible(contentType: String) -> Bool {
        let media = (contentType.split(separator: ";", maxSplits: 1).first.map(String.init) ?? "")
            .trimmingWhitespace().lowercased()
        if media.hasPrefix("text/") { return true }
        if media.hasSuffix("+json") || media.hasSuffix("+xml") { return true }
        switch media {
        case "application/json", "application/javascript", "application/x-javascript",
             "application/ecmascript", "application/xml", "application/xhtml+xml",
             "application/wasm", "application/manifest+json", "image/svg+xml",
             "application/x-ndjson", "font/ttf", "font/otf", "image/x-icon", "image/bmp":
            return true
        default:
            return false
        }
    }
}
