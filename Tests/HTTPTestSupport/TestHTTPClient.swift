import Foundation

/// Shared by the HTTPServer and ServiceApp test targets (test targets cannot import each other).
///
/// Why a test client call failed.
public enum TestClientError: Error, Equatable {
    case connectFailed(Int32)
    case timedOut
    case closed
    case malformed(String)
    case io(Int32)
}

/// A response as the test client read it.
public struct TestResponse {
    public var status: Int
    public var reason: String
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]

    /// The first value of `name` (case-insensitive).
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    public var text: String { String(decoding: body, as: UTF8.self) }
}

/// A small blocking HTTP client over a raw POSIX socket, for end-to-end tests: every read waits
/// at most `timeout` (poll), so a broken server fails a test instead of hanging it.
public final class TestHTTPClient {
    public let fd: Int32
    /// Bytes read from the socket but not consumed yet.
    public var buffer: [UInt8] = []
    public var timeout: TimeInterval

    /// Connects to `host:port` (numeric IPv4 or IPv6), from the local address `source` when
    /// given (e.g. `127.0.0.2`: a second client on loopback).
    public init(host: String = "127.0.0.1", port: UInt16, source: String? = nil, timeout: TimeInterval = 5) throws {
        self.timeout = timeout
        let v6 = host.contains(":")
        fd = socket(v6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestClientError.connectFailed(errno) }
        if let source, !v6 {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            inet_pton(AF_INET, source, &local.sin_addr)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0 else {
                let code = errno
                Glibc.close(fd)
                throw TestClientError.connectFailed(code)
            }
        }
        var result: Int32
        if v6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = port.bigEndian
            inet_pton(AF_INET6, host, &address.sin6_addr)
            result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
                }
            }
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            inet_pton(AF_INET, host, &address.sin_addr)
            result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
        guard result == 0 else {
            let code = errno
            Glibc.close(fd)
            throw TestClientError.connectFailed(code)
        }
        var yes: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
    }

    deinit { Glibc.close(fd) }

    // MARK: Sending

    /// Sends every byte (blocking).
    public func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw TestClientError.io(errno)
            }
            offset += count
        }
    }

    public func send(_ text: String) throws { try send(Array(text.utf8)) }

    /// Sends as much of `bytes` as the socket takes without blocking; returns the count (0 when
    /// the send buffer is full), or throws on a socket error.
    public func sendNonBlocking(_ bytes: UnsafeRawBufferPointer) throws -> Int {
        let count = Glibc.send(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
        if count >= 0 { return count }
        if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return 0 }
        throw TestClientError.io(errno)
    }

    /// Waits up to `timeout` for the socket to take more bytes.
    public func waitWritable(timeout: TimeInterval) -> Bool {
        var pfd = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        return poll(&pfd, 1, Int32(timeout * 1000)) > 0
    }

    /// Half-closes: the server reads end-of-file.
    public func shutdownWrite() { _ = Glibc.shutdown(fd, Int32(SHUT_WR)) }

    /// Makes the close (when the client is released) a reset (`SO_LINGER` 0) rather than a FIN,
    /// as when a client process dies with unread data.
    public func resetOnClose() {
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
    }

    // MARK: Receiving

    /// Reads once more into `buffer`; false at end-of-file. Throws on timeout or error
    /// (a reset counts as end-of-file).
    @discardableResult
    public func fill(timeout: TimeInterval? = nil) throws -> Bool {
        var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let ready = poll(&pfd, 1, Int32((timeout ?? self.timeout) * 1000))
        guard ready > 0 else { throw TestClientError.timedOut }
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if count > 0 {
            buffer += chunk[..<count]
            return true
        }
        if count == 0 || errno == ECONNRESET { return false }
        throw TestClientError.io(errno)
    }

    /// Reads exactly `count` bytes.
    public func read(count: Int) throws -> [UInt8] {
        while buffer.count < count {
            guard try fill() else { throw TestClientError.closed }
        }
        defer { buffer.removeFirst(count) }
        return Array(buffer[..<count])
    }

    /// Reads until the server closes; returns everything left.
    public func readToEnd() throws -> [UInt8] {
        while try fill() {}
        defer { buffer = [] }
        return buffer
    }

    /// Whether the server closes the connection within `timeout` (data it sends meanwhile is
    /// kept in `buffer`).
    public func waitForClose(timeout: TimeInterval = 5) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            do {
                if try !fill(timeout: max(0.01, deadline.timeIntervalSinceNow)) { return true }
            } catch {
                return false
            }
        }
        return false
    }

    /// Reads one response; `head` says the request was HEAD (no body whatever the framing).
    public func readResponse(head: Bool = false) throws -> TestResponse {
        var end: Int?
        while true {
            end = Self.find([13, 10, 13, 10], in: buffer)
            if end != nil { break }
            guard try fill() else { throw TestClientError.closed }
        }
        let headEnd = end! + 4
        let lines = String(decoding: buffer[..<end!], as: UTF8.self).components(separatedBy: "\r\n")
        buffer.removeFirst(headEnd)
        let statusParts = lines[0].split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard statusParts.count >= 2, statusParts[0].hasPrefix("HTTP/1."), let status = Int(statusParts[1]) else {
            throw TestClientError.malformed(lines[0])
        }
        var response = TestResponse(
            status: status, reason: statusParts.count > 2 ? String(statusParts[2]) : "", headers: [], body: [])
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { throw TestClientError.malformed(line) }
            response.headers.append(
                (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        if head || status < 200 || status == 204 || status == 304 { return response }
        if response.header("Transfer-Encoding")?.lowercased() == "chunked" {
            response.body = try readChunkedBody()
        } else if let length = response.header("Content-Length").flatMap(Int.init) {
            response.body = try read(count: length)
        } else {
            response.body = try readToEnd()
        }
        return response
    }

    /// Sends `request` and reads one response.
    public func request(_ request: String, head: Bool = false) throws -> TestResponse {
        try send(request)
        return try readResponse(head: head)
    }

    private func readLine() throws -> String {
        while true {
            if let end = Self.find([13, 10], in: buffer) {
                defer { buffer.removeFirst(end + 2) }
                return String(decoding: buffer[..<end], as: UTF8.self)
            }
            guard try fill() else { throw TestClientError.closed }
        }
    }

    private func readChunkedBody() throws -> [UInt8] {
        var body: [UInt8] = []
        while true {
            let line = try readLine()
            let sizeText = line.split(separator: ";").first.map(String.init) ?? ""
            guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16) else {
                throw TestClientError.malformed("chunk size \(line)")
            }
            if size == 0 {
                while try !readLine().isEmpty {}
                return body
            }
            body += try read(count: size)
            guard try readLine().isEmpty else { throw TestClientError.malformed("chunk end") }
        }
    }

    public static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for index in 0 ... haystack.count - needle.count where haystack[index] == needle[0] {
            if Array(haystack[index ..< index + needle.count]) == needle { return index }
        }
        return nil
    }
}

/// Polls `condition` every 10 ms until it holds or `timeout` passes.
public func waitUntil(timeout: TimeInterval = 5, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if condition() { return true }
        usleep(10_000)
    }
    return condition()
}

/// A loopback port nothing listens on now: binds port 0, reads the port the kernel chose, and
/// closes the socket again.
public func unusedLoopbackPort() throws -> UInt16 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw TestClientError.connectFailed(errno) }
    defer { Glibc.close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
    }
    guard bound else { throw TestClientError.connectFailed(errno) }
    return UInt16(bigEndian: address.sin_port)
}
