import Foundation
/// A parsed HTTP/1.x request with its whole body.
public struct HTTPRequest: Sendable {
    public var method: HTTPMethod
    /// The request target as sent (`/api/users/heckj?x=1`).
    public var target: String
    /// `(1, 1)` for HTTP/1.1.
    public var version: (major: Int, minor: Int)
    public var headers: HTTPHeaders
    public var body: [UInt8]
    /// Parameters captured by the router from the path pattern (`{login}` → `"login"`).
    public var pathParameters: [String: String] = [:]
    /// The TCP peer the request came from (nil for requests made in memory).
    public var peer: SocketAddress?

    public init(
        method: HTTPMethod, target: String, version: (major: Int, minor: Int) = (1, 1),
        headers: HTTPHeaders = [:], body: [UInt8] = []
    ) {
        self.method = method
        self.target = target
        self.version = version
        self.headers = headers
        self.body = body
    }

    /// The path part of the target, percent-decoded.
    public var path: String {
        let raw = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
        return raw.removingPercentEncoding ?? raw
    }

    /// The query part of the target, if any.
    public var query: String? {
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        return parts.count == 2 ? String(parts[1]) : nil
    }

    /// Whether the connection stays open after this request (HTTP/1.1 default, or
    /// `Connection: keep-alive` on 1.0; `Connection: close` ends it).
    public var keepAlive: Bool {
        if headers.contains("Connection", token: "close") { return false }
        if version.major == 1 && version.minor == 0 { return headers.contains("Connection", token: "keep-alive") }
        return true
    }
}

