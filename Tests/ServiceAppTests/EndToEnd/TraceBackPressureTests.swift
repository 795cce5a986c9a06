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
        let texts = ["x", "y"].map { letter in #"{"type":"field","name":"value1","value":"\#(String(repeating: letter, count: 4096))"}"# }
        let ceiling = 64 << 20
        let sent = try sendWithoutReading(silent, texts: texts, ceiling: ceiling)
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
