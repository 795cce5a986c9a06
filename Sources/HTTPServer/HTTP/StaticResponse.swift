/// A response that is the same for every request (a health check, a fixed document),
/// serialized once when the route is registered: for a keep-alive HTTP/1.1 `GET` the server
/// writes the prepared bytes with only the `Date` field filled in. Other requests (`HEAD`,
/// HTTP/1.0, a closing connection, a body gzip could change) get ``response`` serialized as
/// usual, so the bytes on the wire are the same either way.
public struct StaticResponse: Sendable {
    /// The response.
    public let response: HTTPResponse
    /// The status line (with its CRLF), and everything after the `Date` field; nil for a
    /// streamed body.
    let prepared: (statusLine: [UInt8], rest: [UInt8])?
    /// Whether response compression could change the response (then it is used only when the
    /// server does not compress).
    let compressible: Bool

    public init(_ response: HTTPResponse) {
        self.response = response
        compressible = ResponseCompressor().isEligible(response)
        guard case .bytes = response.body else {
            prepared = nil
            return
        }
        var serializer = HTTPResponseSerializer()
        var bytes: [UInt8] = []
        serializer.serialize(response, context: .init(), includeDate: false, into: &bytes)
        let lineEnd = bytes.firstIndex(of: HTTPSyntax.lf)! + 1
        prepared = (Array(bytes[..<lineEnd]), Array(bytes[lineEnd...]))
    }

    /// Whether the prepared bytes answer `request` on a server that does or does not
    /// `compress`, with the connection kept open.
    func fits(_ request: HTTPRequest, compress: Bool) -> Bool {
        prepared != nil && request.method == .get && request.version.major == 1 && request.version.minor != 0
            && !(compress && compressible) && request.keepAlive
    }
}
