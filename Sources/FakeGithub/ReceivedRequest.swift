import HTTPServer

/// One request the fake received, in arrival order.
public struct ReceivedRequest: Sendable {
    public var method: String
    /// The path, percent-decoded, without the query.
    public var path: String
    public var headers: HTTPHeaders
    /// The `{login}` of a `/users/{login}` request.
    public var login: String?

    /// The value of the header `name` (case-insensitive), if present.
    public func header(_ name: String) -> String? { headers[name] }
}
