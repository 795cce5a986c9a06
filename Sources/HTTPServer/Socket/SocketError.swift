import Foundation

/// A failed socket system call.
public enum SocketError: Error, Equatable, CustomStringConvertible {
    /// The host is not a numeric IPv4 or IPv6 address.
    case invalidAddress(String)
    /// `call` failed with `errno`.
    case systemCall(String, errno: Int32)

    static func lastError(_ call: String) -> SocketError { .systemCall(call, errno: errno) }

    public var description: String {
        switch self {
        case .invalidAddress(let host): "invalid address '\(host)'"
        case .systemCall(let call, let code): "\(call) failed: \(String(cString: strerror(code))) (errno \(code))"
        }
    }
}
