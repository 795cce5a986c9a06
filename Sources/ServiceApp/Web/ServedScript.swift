import HTTPServer

/// A script the service serves for its pages, at `path`, under a versioned URL
/// (`path?v=<digest of the source>`) that can be cached for good: a new script is a new URL.
/// The pages run no inline code, so their Content-Security-Policy can say `script-src 'self'`.
struct ServedScript: Sendable {
    /// The `Content-Type` to serve scripts with.
    static let contentType = "text/javascript; charset=utf-8"

    /// The path the service serves the script at.
    let path: String
    /// The script's text.
    let source: String
    /// A digest of `source`: FNV-1a, 64 bits, 16 hex digits.
    let version: String
    private let bytes: [UInt8]

    init(path: String, source: String) {
        self.path = path
        self.source = source
        bytes = Array(source.utf8)
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        version = String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// What the pages put in their `<script src>`.
    var versionedPath: String { "\(path)?v=\(version)" }

    /// The element that loads it.
    var element: String { #"<script src="\#(versionedPath)"></script>"# }

    /// The answer to `GET path` with `query`.
    func response(query: String?) -> HTTPResponse {
        HTTPResponse(status: .ok, headers: [
            "Content-Type": Self.contentType, "Cache-Control": cacheControl(query: query), "X-Content-Type-Options": "nosniff",
        ], body: .bytes(bytes))
    }

    /// `Cache-Control` for a request of `query`: the current version is immutable, anything else
    /// (no version, an older page's) must be revalidated.
    func cacheControl(query: String?) -> String {
        query == "v=\(version)" ? "public, max-age=31536000, immutable" : "no-cache"
    }
}
