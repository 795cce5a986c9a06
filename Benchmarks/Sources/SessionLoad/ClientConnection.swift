import Dispatch
import Foundation
import HTTPServer
#if canImport(Glibc)
import Glibc
#endif

/// A minimal WebSocket client on one nonblocking socket, driven by Dispatch read/write sources
/// on a serial queue (every method and callback runs on that queue). Frames are encoded and
/// decoded with HTTPServer's codec (masked out, unmasked in); no compression is offered.
final class ClientConnection: @unchecked Sendable {
    // Sendable: confined to `queue`.
    enum Phase { case connecting, handshaking, open, closing, closed }

    let queue: DispatchQueue
    private(set) var phase = Phase.connecting
    private var fd: Int32 = -1
    private var readSource: DispatchSourceRead?
    private var writeSource: DispatchSourceWrite?
    private var writeSuspended = false
    private var liveSources = 0
    private var outbox: [UInt8] = []
    private var handshake: [UInt8] = []
    private var decoder = WebSocketFrameDecoder(maxFramePayload: 1 << 20, requireMasking: false)
    private var maskSeed: UInt32
    private let readBuffer: ReadBuffer

    /// The handshake completed (101).
    var onOpen: () -> Void = {}
    /// A text message arrived.
    var onText: ([UInt8]) -> Void = { _ in }
    /// The connection ended: `expected` when we started the close and the server answered it.
    var onClosed: (_ expected: Bool, _ why: String) -> Void = { _, _ in }

    init(queue: DispatchQueue, readBuffer: ReadBuffer, seed: UInt32) {
        self.queue = queue
        self.readBuffer = readBuffer
        maskSeed = seed | 1
    }

    /// Starts connecting to `host:port` and upgrading `path`.
    func connect(host: String, port: UInt16, path: String) {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return fail("socket: \(String(cString: strerror(errno)))") }
        var yes: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        inet_pton(AF_INET, host, &address.sin_addr)
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard rc == 0 || errno == EINPROGRESS else {
            let message = String(cString: strerror(errno))
            Glibc.close(fd)
            fd = -1
            return fail("connect: \(message)")
        }
        var key = [UInt8](repeating: 0, count: 16)
        for index in key.indices { key[index] = UInt8(truncatingIfNeeded: nextMask() >> 8) }
        let request = "GET \(path) HTTP/1.1\r\nHost: \(host):\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: \(Data(key).base64EncodedString())\r\nSec-WebSocket-Version: 13\r\n\r\n"
        outbox.append(contentsOf: Array(request.utf8))

        let read = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
        let write = DispatchSource.makeWriteSource(fileDescriptor: fd, queue: queue)
        read.setEventHandler { [unowned self] in self.readable() }
        write.setEventHandler { [unowned self] in self.writable() }
        let release: @Sendable () -> Void = { [unowned self] in self.sourceCancelled() }
        read.setCancelHandler(handler: release)
        write.setCancelHandler(handler: release)
        readSource = read
        writeSource = write
        liveSources = 2
        read.resume()
        write.resume()
    }

    /// Sends a masked text frame.
    func sendText(_ bytes: [UInt8]) {
        guard phase == .open else { return }
        WebSocketFrameEncoder.encode(opcode: .text, payload: bytes, maskingKey: nextMask(), into: &outbox)
        flush()
    }

    /// Starts the closing handshake; the socket closes when the server's close frame arrives.
    func close(code: WebSocketCloseCode) {
        guard phase == .open else { return }
        outbox.append(contentsOf: WebSocketFrameEncoder.closeFrame(code: code, maskingKey: nextMask()))
        phase = .closing
        flush()
    }

    /// Closes the socket now (a timeout, say); `onClosed` is called with `why`.
    func abort(_ why: String) { finish(expected: false, why) }

    // MARK: I/O

    private func writable() {
        if phase == .connecting {
            var error: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length)
            guard error == 0 else { return finish(expected: false, "connect: \(String(cString: strerror(error)))") }
            phase = .handshaking
        }
        flush()
    }

    private func flush() {
        guard phase != .connecting, phase != .closed else { return }
        while !outbox.isEmpty {
            let sent = outbox.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent > 0 {
                outbox.removeFirst(sent)
            } else if sent < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR {
                break
            } else {
                return finish(expected: false, "send: \(String(cString: strerror(errno)))")
            }
        }
        // Level-triggered: watch writability only while bytes wait.
        if outbox.isEmpty, !writeSuspended {
            writeSource?.suspend()
            writeSuspended = true
        } else if !outbox.isEmpty, writeSuspended {
            writeSource?.resume()
            writeSuspended = false
        }
    }

    private func readable() {
        let buffer = readBuffer.bytes
        let count = recv(fd, buffer.baseAddress, buffer.count, 0)
        if count == 0 { return finish(expected: phase == .closing, "the server closed the connection (EOF) while \(phase)") }
        if count < 0 {
            if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return }
            return finish(expected: false, "recv: \(String(cString: strerror(errno)))")
        }
        var bytes = ArraySlice(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
        if phase == .handshaking || phase == .connecting {
            handshake.append(contentsOf: bytes)
            guard let end = Self.headEnd(handshake) else {
                if handshake.count > 16 * 1024 { finish(expected: false, "handshake answer too long") }
                return
            }
            let head = String(decoding: handshake[..<end], as: UTF8.self)
            guard head.hasPrefix("HTTP/1.1 101") else {
                return finish(expected: false, "handshake refused: \(head.prefix(while: { $0 != "\r" }))")
            }
            bytes = handshake[(end + 4)...]
            handshake = []
            phase = .open
            onOpen()
        }
        decoder.append(bytes)
        drainFrames()
    }

    private func drainFrames() {
        while phase != .closed {
            let frame: WebSocketFrame?
            do {
                frame = try decoder.nextFrame()
            } catch {
                return finish(expected: false, "bad frame from the server: \(error)")
            }
            guard let frame else { return }
            switch frame.opcode {
            case .text:
                if phase == .open || phase == .closing { onText(frame.payload) }
            case .ping:
                if phase == .open {
                    WebSocketFrameEncoder.encode(opcode: .pong, payload: frame.payload, maskingKey: nextMask(), into: &outbox)
                    flush()
                }
            case .close:
                if phase == .closing { return finish(expected: true, "closed") }
                let code = frame.payload.count >= 2 ? Int(frame.payload[0]) << 8 | Int(frame.payload[1]) : 1005
                outbox.append(contentsOf: WebSocketFrameEncoder.closeFrame(code: .normalClosure, maskingKey: nextMask()))
                flush()
                return finish(expected: false, "the server closed the session (\(code))")
            default:
                break
            }
        }
    }

    private func finish(expected: Bool, _ why: String) {
        guard phase != .closed else { return }
        phase = .closed
        if writeSuspended {
            writeSource?.resume()  // a suspended source must not be cancelled and released
            writeSuspended = false
        }
        readSource?.cancel()
        writeSource?.cancel()
        if readSource == nil, fd >= 0 {
            Glibc.close(fd)
            fd = -1
        }
        let callback = onClosed
        onOpen = {}
        onText = { _ in }
        onClosed = { _, _ in }
        callback(expected, why)
    }

    private func fail(_ why: String) {
        phase = .closed
        let callback = onClosed
        onClosed = { _, _ in }
        callback(false, why)
    }

    /// Closes the descriptor once both sources are gone.
    private func sourceCancelled() {
        liveSources -= 1
        guard liveSources == 0 else { return }
        readSource = nil
        writeSource = nil
        if fd >= 0 {
            Glibc.close(fd)
            fd = -1
        }
    }

    private func nextMask() -> UInt32 {
        // xorshift32: masking keys need only be unpredictable to intermediaries, not secure.
        maskSeed ^= maskSeed << 13
        maskSeed ^= maskSeed >> 17
        maskSeed ^= maskSeed << 5
        return maskSeed
    }

    private static func headEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 0...(bytes.count - 4)
        where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index
        }
        return nil
    }
}

/// A receive buffer shared by the connections of one queue (only one reads at a time).
final class ReadBuffer: @unchecked Sendable {
    // Sendable: used only on its queue.
    let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: 16 * 1024, alignment: 8)
    deinit { bytes.deallocate() }
}
