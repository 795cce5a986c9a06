import HTTPServer

/// The WebSocket cases' state: a 64-byte text message, as the service's sessions exchange them.
enum WebSocketCases {
    static let payload = Array(#"{"type":"input","value":"heckj"} and thirty more bytes of text."#.utf8)

    /// A server's decoder fed one masked client frame at a time; an operation is one frame.
    final class Decoder: BatchOperation {
        private var decoder = WebSocketFrameDecoder(role: .server)
        private let frame = WebSocketFrameEncoder.frame(opcode: .text, payload: WebSocketCases.payload, maskingKey: 0x1234_5678)

        func run(_ count: Int) -> Int {
            var checksum = 0
            for _ in 0..<count {
                frame.withUnsafeBytes { decoder.append($0) }
                do {
                    while let decoded = try decoder.nextFrame() { checksum &+= decoded.payload.count }
                } catch {
                    preconditionFailure("the benchmark's frame does not decode: \(error)")
                }
            }
            return checksum
        }
    }

    /// A server's unmasked text frame written into one reused buffer; an operation is one frame.
    final class Encoder: BatchOperation {
        private var buffer: [UInt8] = []

        init() { buffer.reserveCapacity(256) }

        func run(_ count: Int) -> Int {
            var checksum = 0
            for _ in 0..<count {
                buffer.removeAll(keepingCapacity: true)
                WebSocketFrameEncoder.encode(opcode: .text, payload: WebSocketCases.payload, into: &buffer)
                checksum &+= buffer.count
            }
            return checksum
        }
    }
}
