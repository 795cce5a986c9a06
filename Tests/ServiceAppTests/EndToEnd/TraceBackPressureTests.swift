import Foundation
import HTTPServer
import HTTPTestSupport
import XCTest

@testable import ServiceApp

/// Traces go through the session's bounded outbound queue like every event: a `?trace=1` client
/// that sends but never reads is cut off once `webSocket.outboundLimitBytes` of unsent events
/// pile up (1008), and the other sessions of the service are unaffected.
final class TraceBackPressureTests: EndToEndTestCase {
    func testATracedClientThatDoesNotReadIsCutOff() throws {
        let limit = 65_536
        try startService { $0.webSocket.outboundLimitBytes = limit }
        let silent = try TestWebSocketClient(port: port, path: "/ws/form?trace=1", timeout: 10)

        // Each frame changes value1 by 4 KiB, which comes back at least twice as a trace value
        // (the value1 and validatedValue1 lanes): the traces outgrow what the client sends.
        let frames = ["x", "y"].map { letter in
            let text = #"{"type":"field","name":"value1","value":"\#(String(repeating: letter, count: 4096))"}"#
            return WebSocketFrameEncoder.frame(opcode: .text, payload: Array(text.utf8), maskingKey: 0x0BAD_F00D)
        }
        var sent = 0, frameIndex = 0, offset = 0
        let ceiling = 64 << 20
        while sent < ceiling {
            let frame = frames[frameIndex % 2]
            let count = try frame.withUnsafeBytes { try silent.http.sendNonBlocking(UnsafeRawBufferPointer(rebasing: $0[offset...])) }
            if count == 0 {
                // The server stopped reading: it gave up on this client.
                if !silent.http.waitWritable(timeout: 2) { break }
                continue
            }
            sent += count
            offset += count
            if offset == frame.count {
                offset = 0
                frameIndex += 1
            }
        }
        XCTAssertLessThan(sent, ceiling, "the server kept taking frames from a traced client that never reads")

        // Meanwhile another session is served as usual.
        let other = try connect("/ws/form")
        try other.sendText(#"{"type":"field","name":"value1","value":"joé"}"#)
        let valid = #"{"field":"value1","message":"","type":"validation","valid":true}"#
        XCTAssertEqual(try other.waitFor { $0.type == "validation" && $0.raw == valid }.raw, valid)

        // The silent client's connection ends (a 1008 close the client may never see: the
        // server closes with the client's unread frames in its buffer, which resets it).
        XCTAssertTrue(silent.waitForTCPClose(timeout: 10), "the silent client was not cut off")
    }
}
