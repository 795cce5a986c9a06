import Foundation
import HTTPServer

/// A minimal blocking WebSocket client for end-to-end tests: masks its frames with the
/// module's encoder and reads the server's frames with the module's decoder.
public final class TestWebSocketClient {
    public let http: TestHTTPClient
    /// The 101 response.
    public let handshake: TestResponse
    private var decoder = WebSocketFrameDecoder(requireMasking: false, allowsCompressionBit: true)
    /// The client side of permessage-deflate (`role: .client`), when the server agreed to it.
    public private(set) var deflate: PerMessageDeflate?
    private var maskSeed: UInt32 = 0x1234_5678

    /// A fresh random `Sec-WebSocket-Key`.
    public static func makeKey() -> String {
        Data((0 ..< 16).map { _ in UInt8.random(in: 0 ... 255) }).base64EncodedString()
    }

    /// The upgrade request for `path`, with `extra` header lines (each ending in CRLF).
    public static func upgradeRequest(path: String, key: String, extra: String = "", hostHeader: String = "localhost") -> String {
        "GET \(path) HTTP/1.1\r\nHost: \(hostHeader)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: \(key)\r\nSec-WebSocket-Version: 13\r\n\(extra)\r\n"
    }

    /// Connects and upgrades; throws `TestClientError.malformed` unless the answer is 101.
    public init(
        port: UInt16, path: String = "/ws/echo", extra: String = "", host: String = "127.0.0.1", source: String? = nil,
        hostHeader: String = "localhost", timeout: TimeInterval = 5
    ) throws {
        http = try TestHTTPClient(host: host, port: port, source: source, timeout: timeout)
        try http.send(Self.upgradeRequest(path: path, key: Self.makeKey(), extra: extra, hostHeader: hostHeader))
        handshake = try http.readResponse()
        guard handshake.status == 101 else { throw TestClientError.malformed("status \(handshake.status)") }
        let agreed = handshake.headers.filter { $0.name.lowercased() == "sec-websocket-extensions" }.map(\.value)
        if !agreed.isEmpty {
            // The client side of what the server agreed to (any offer this client sends fits
            // the default configuration's limits); an answer no client may accept stays without.
            deflate = (try? PerMessageDeflateNegotiation.agreement(response: agreed, offered: PerMessageDeflateConfiguration()))
                .flatMap { $0 }
                .flatMap { PerMessageDeflate(parameters: $0, role: .client) }
        }
        let leftover = http.buffer
        http.buffer = []
        decoder.append(leftover)
    }

    private func nextMask() -> UInt32 {
        maskSeed = maskSeed &* 1_103_515_245 &+ 12345
        return maskSeed
    }

    // MARK: Sending

    /// Sends one masked frame.
    public func send(_ opcode: WebSocketOpcode, _ payload: [UInt8], fin: Bool = true, rsv1: Bool = false) throws {
        try http.send(WebSocketFrameEncoder.frame(fin: fin, rsv1: rsv1, opcode: opcode, payload: payload, maskingKey: nextMask()))
    }

    public func send(text: String) throws { try send(.text, Array(text.utf8)) }

    /// Sends a compressed text or binary message (RSV1) with the agreed permessage-deflate.
    public func sendCompressed(_ opcode: WebSocketOpcode, _ payload: [UInt8]) throws {
        guard let deflate else { throw TestClientError.malformed("permessage-deflate not agreed") }
        try send(opcode, deflate.compress(payload), rsv1: true)
    }

    /// Sends a close frame.
    public func sendClose(code: WebSocketCloseCode, reason: String = "") throws {
        try send(.close, WebSocketFrameEncoder.closePayload(code: code, reason: reason))
    }

    // MARK: Receiving

    /// The next frame from the server (unmasked, as the server must send).
    public func readFrame() throws -> WebSocketFrame {
        while true {
            if let frame = try decoder.nextFrame() { return frame }
            guard try http.fill() else { throw TestClientError.closed }
            decoder.append(http.buffer)
            http.buffer = []
        }
    }

    /// The next data message (fragments joined, decompressed); control frames other than
    /// close are returned as they come.
    public func readMessage() throws -> (opcode: WebSocketOpcode, payload: [UInt8]) {
        var first = try readFrame()
        if first.opcode.isControl || first.fin && !first.rsv1 { return (first.opcode, first.payload) }
        var payload = first.payload
        while !first.fin {
            let next = try readFrame()
            guard next.opcode == .continuation else { throw TestClientError.malformed("expected continuation") }
            payload += next.payload
            first.fin = next.fin
        }
        if first.rsv1 {
            guard let deflate else { throw TestClientError.malformed("RSV1 without deflate") }
            var inflated: [UInt8] = []
            try deflate.decompress(payload, isFinal: true, into: &inflated, limit: 64 << 20)
            payload = inflated
        }
        return (first.opcode, payload)
    }

    /// The next text message.
    public func readText() throws -> String {
        let message = try readMessage()
        guard message.opcode == .text else { throw TestClientError.malformed("expected text, got \(message.opcode)") }
        return String(decoding: message.payload, as: UTF8.self)
    }

    /// Reads until a close frame and returns its code (nil for an empty close payload).
    public func readClose() throws -> UInt16? {
        while true {
            let frame = try readFrame()
            guard frame.opcode == .close else { continue }
            guard frame.payload.count >= 2 else { return nil }
            return UInt16(frame.payload[0]) << 8 | UInt16(frame.payload[1])
        }
    }

    /// Whether the server closes TCP within `timeout`.
    public func waitForTCPClose(timeout: TimeInterval = 5) -> Bool { http.waitForClose(timeout: timeout) }
}
