@testable import HTTPServer

/// Builders and drivers shared by the WebSocket tests.
enum WSTest {
    static let maskKey = WebSocketMasking.key((0x37, 0xFA, 0x21, 0x3D))

    /// A masked client frame.
    static func client(
        _ opcode: WebSocketOpcode, _ payload: [UInt8] = [], fin: Bool = true, rsv1: Bool = false
    ) -> [UInt8] {
        WebSocketFrameEncoder.frame(fin: fin, rsv1: rsv1, opcode: opcode, payload: payload, maskingKey: maskKey)
    }

    /// A masked client text frame.
    static func client(text: String, fin: Bool = true) -> [UInt8] {
        client(.text, Array(text.utf8), fin: fin)
    }

    /// Feeds `bytes` in chunks of `chunk` bytes, draining frames after each.
    static func decode(
        _ bytes: [UInt8], chunk: Int = .max, decoder: WebSocketFrameDecoder = WebSocketFrameDecoder()
    ) -> (frames: [WebSocketFrame], error: WebSocketError?) {
        var decoder = decoder
        var frames: [WebSocketFrame] = []
        var start = 0
        repeat {
            let end = bytes.count - start > chunk ? start + chunk : bytes.count
            decoder.append(bytes[start ..< end])
            start = end
            do {
                while let frame = try decoder.nextFrame() { frames.append(frame) }
            } catch {
                return (frames, error)
            }
        } while start < bytes.count
        return (frames, nil)
    }

    /// Feeds `bytes` to a reader in chunks, collecting messages until an error.
    static func read(
        _ bytes: [UInt8], chunk: Int = .max, maxMessageSize: Int = 16 << 20, deflate: PerMessageDeflate? = nil
    ) -> (messages: [WebSocketMessage], error: WebSocketError?) {
        var reader = WebSocketReader(maxMessageSize: maxMessageSize, deflate: deflate)
        return read(bytes, chunk: chunk, reader: &reader)
    }

    /// Feeds `bytes` to an existing reader in chunks, collecting messages until an error.
    static func read(
        _ bytes: [UInt8], chunk: Int = .max, reader: inout WebSocketReader
    ) -> (messages: [WebSocketMessage], error: WebSocketError?) {
        var messages: [WebSocketMessage] = []
        var start = 0
        repeat {
            let end = bytes.count - start > chunk ? start + chunk : bytes.count
            reader.append(Array(bytes[start ..< end]))
            start = end
            do {
                while let message = try reader.nextMessage() { messages.append(message) }
            } catch {
                return (messages, error)
            }
        } while start < bytes.count
        return (messages, nil)
    }

    static func hex(_ text: String) -> [UInt8] {
        let digits = text.filter(\.isHexDigit)
        var bytes: [UInt8] = []
        var index = digits.startIndex
        while index < digits.endIndex {
            let next = digits.index(index, offsetBy: 2)
            bytes.append(UInt8(digits[index ..< next], radix: 16) ?? 0)
            index = next
        }
        return bytes
    }
}
