import Foundation

extension Socket {
    /// The outcome of starting a nonblocking connect.
    enum ConnectStart {
        /// Connected at once (loopback sometimes does).
        case connected(Socket)
        /// In progress: the socket turns writable when it is done (`pendingError()` tells how).
        case inProgress(Socket)
    }

    /// Starts a nonblocking TCP connect to `address` (`TCP_NODELAY`, close-on-exec), from
    /// `local` when given.
    static func connecting(to address: SocketAddress, from local: SocketAddress? = nil) throws(SocketError) -> ConnectStart {
        let fd = Glibc.socket(address.family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .lastError("socket") }
        let socket = Socket(fd: fd)
        var yes: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
        if let local, local.withSockAddr({ bind(fd, $0, $1) }) != 0 {
            let error = SocketError.lastError("bind \(local)")
            socket.close()
            throw error
        }
        while true {
            if address.withSockAddr({ Glibc.connect(fd, $0, $1) }) == 0 { return .connected(socket) }
            switch errno {
            case EINTR: continue
            case EINPROGRESS: return .inProgress(socket)
            default:
                let error = SocketError.lastError("connect \(address)")
                socket.close()
                throw error
            }
        }
    }

    /// The error of a finished nonblocking connect (`SO_ERROR`); nil when it succeeded.
    func pendingError() -> SocketError? {
        var code: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &code, &length) == 0 else { return .lastError("getsockopt") }
        return code == 0 ? nil : .systemCall("connect", errno: code)
    }
}

extension SocketAddress {
    /// The addresses of `host` (numeric, or a name looked up with `getaddrinfo`, which blocks:
    /// call it off the event loops), IPv4 first as the service binds there by default.
    static func resolve(host: String, port: UInt16) -> [SocketAddress] {
        if let numeric = try? SocketAddress(host: host, port: port) { return [numeric] }
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_family = AF_UNSPEC
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &list) == 0, let first = list else { return [] }
        defer { freeaddrinfo(first) }
        var addresses: [SocketAddress] = []
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let entry = cursor {
            if let raw = entry.pointee.ai_addr, entry.pointee.ai_family == AF_INET || entry.pointee.ai_family == AF_INET6 {
                var storage = sockaddr_storage()
                withUnsafeMutableBytes(of: &storage) { target in
                    target.copyMemory(from: UnsafeRawBufferPointer(start: raw, count: Int(entry.pointee.ai_addrlen)))
                }
                addresses.append(SocketAddress(storage: storage))
            }
            cursor = entry.pointee.ai_next
        }
        return addresses.sorted { $0.family == AF_INET && $1.family != AF_INET }
    }
}
