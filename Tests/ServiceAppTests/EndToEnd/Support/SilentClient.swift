import HTTPServer
import HTTPTestSupport

/// Sends `texts` in turn, as masked text frames, without ever reading, until the server stops
/// taking bytes (a write finds no room for 2 s) or `ceiling` bytes went out; returns the bytes
/// sent. A server that bounds what it queues for a client stops reading it well before.
func sendWithoutReading(_ client: TestWebSocketClient, texts: [String], ceiling: Int = 64 << 20) throws -> Int {
    let frames = texts.map { WebSocketFrameEncoder.frame(opcode: .text, payload: Array($0.utf8), maskingKey: 0x0BAD_F00D) }
    var sent = 0, frameIndex = 0, offset = 0
    while sent < ceiling {
        let frame = frames[frameIndex % frames.count]
        let count = try frame.withUnsafeBytes { try client.http.sendNonBlocking(UnsafeRawBufferPointer(rebasing: $0[offset...])) }
        if count == 0 {
            // The server stopped reading: it gave up on this client.
            if !client.http.waitWritable(timeout: 2) { break }
            continue
        }
        sent += count
        offset += count
        if offset == frame.count {
            offset = 0
            frameIndex += 1
        }
    }
    return sent
}
