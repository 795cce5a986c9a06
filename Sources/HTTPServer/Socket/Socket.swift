import Foundation

/// A nonblocking socket file descriptor and the system calls the server makes on it.
///
/// A value type over the descriptor: whoever owns the connection closes it exactly once.
struct Socket: Sendable, Hashable {
    let fd: Int32

    /// The result of a nonblocking read.
    enum ReadResult {
        case bytes(Int)
        case wouldBlock
        case endOfFile
        case failed(Int32)
    }

    /// The result of a nonblocking write.
    enum WriteResult {
        case wrote(Int)
        case wouldBlock
        case failed(Int32)
    }

    /// Creates a listening socket bound to `address` (`SO_REUSEADDR`; IPv6 sockets also accept
    /// IPv4 when bound to `::`).
    static func listening(on address: SocketAddress, backlog: Int32) throws(SocketError) -> Socket {
        let fd = socket(address.family, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw .lastError("socket") }
        let socket = Socket(fd: fd)
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        if address.family == AF_INET6 {
            var no: Int32 = 0
            setsockopt(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &no, socklen_t(MemoryLayout<Int32>.size))
        }
        guard address.withSockAddr({ bind(fd, $0, $1) }) == 0 else {
            let error = SocketError.lastError("bind \(address)")
            socket.close()
            throw error
        }
        guard listen(fd, backlog) == 0 else {
            let error = SocketError.lastError("listen")
            socket.close()
            throw error
        }
        try socket.setNonBlocking()
        return socket
    }

    /// Accepts a pending connection as a nonblocking socket with `TCP_NODELAY`; `nil` when none
    /// is waiting.
    func accept() throws(SocketError) -> (Socket, SocketAddress)? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let client = withUnsafeMutableBytes(of: &storage) { raw in
            Glibc.accept(fd, raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), &length)
        }
        guard client >= 0 else {
            if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR || errno == ECONNABORTED { return nil }
            throw .lastError("accept")
        }
        let accepted = Socket(fd: client)
        do {
            try accepted.setNonBlocking()
        } catch {
            accepted.close()
            throw error
        }
        _ = fcntl(client, F_SETFD, FD_CLOEXEC)
        var yes: Int32 = 1
        setsockopt(client, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
        return (accepted, SocketAddress(storage: storage))
    }

    /// Reads up to `buffer.count` bytes without blocking.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> ReadResult {
        while true {
            let count = Glibc.read(fd, buffer.baseAddress, buffer.count)
            if count > 0 { return .bytes(count) }
            if count == 0 { return .endOfFile }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .wouldBlock
            default: return .failed(errno)
            }
        }
    }

    /// Writes as much of `bytes` as the socket takes without blocking.
    func write(_ bytes: UnsafeRawBufferPointer) -> WriteResult {
        while true {
            let count = Glibc.send(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL))
            if count >= 0 { return .wrote(count) }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .wouldBlock
            default: return .failed(errno)
            }
        }
    }

    /// The address the socket is bound to (for `port 0`).
    func localAddress() throws(SocketError) -> SocketAddress {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = withUnsafeMutableBytes(of: &storage) { raw in
            getsockname(fd, raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), &length)
        }
        guard result == 0 else { throw .lastError("getsockname") }
        return SocketAddress(storage: storage)
    }

    /// Stops further sends (`shutdown(SHUT_WR)`), so the peer reads end-of-file.
    func shutdownWrite() { _ = Glibc.shutdown(fd, Int32(SHUT_WR)) }

    func close() { _ = Glibc.close(fd) }

    private func setNonBlocking() throws(SocketError) {
        let flags = fcntl(fd, F_GETFL)
        guard flags >= 0, fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0 else { throw .lastError("fcntl") }
    }
}
