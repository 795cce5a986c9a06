/// An HTTP response status code with its reason phrase.
public struct HTTPStatus: Hashable, Sendable, CustomStringConvertible {
    public let code: Int
    public let reason: String

    public init(_ code: Int, _ reason: String) {
        self.code = code
        self.reason = reason
    }

    public var description: String { "\(code) \(reason)" }

    public static let switchingProtocols = HTTPStatus(101, "Switching Protocols")
    public static let `continue` = HTTPStatus(100, "Continue")
    public static let ok = HTTPStatus(200, "OK")
    public static let noContent = HTTPStatus(204, "No Content")
    public static let notModified = HTTPStatus(304, "Not Modified")
    public static let badRequest = HTTPStatus(400, "Bad Request")
    public static let forbidden = HTTPStatus(403, "Forbidden")
    public static let notFound = HTTPStatus(404, "Not Found")
    public static let methodNotAllowed = HTTPStatus(405, "Method Not Allowed")
    public static let requestTimeout = HTTPStatus(408, "Request Timeout")
    public static let payloadTooLarge = HTTPStatus(413, "Content Too Large")
    public static let uriTooLong = HTTPStatus(414, "URI Too Long")
    public static let expectationFailed = HTTPStatus(417, "Expectation Failed")
    public static let upgradeRequired = HTTPStatus(426, "Upgrade Required")
    public static let tooManyRequests = HTTPStatus(429, "Too Many Requests")
    public static let headerFieldsTooLarge = HTTPStatus(431, "Request Header Fields Too Large")
    public static let internalServerError = HTTPStatus(500, "Internal Server Error")
    public static let notImplemented = HTTPStatus(501, "Not Implemented")
    public static let badGateway = HTTPStatus(502, "Bad Gateway")
    public static let serviceUnavailable = HTTPStatus(503, "Service Unavailable")
    public static let gatewayTimeout = HTTPStatus(504, "Gateway Timeout")
    public static let httpVersionNotSupported = HTTPStatus(505, "HTTP Version Not Supported")
}
