import HTTPTestSupport
import Foundation
import XCTest

/// `/ws/form` over a real WebSocket: the start state, validation as fields change, submit.
final class FormEndpointTests: EndToEndTestCase {
    func testFillTheFormAndSubmitOverTheWire() throws {
        try startService()
        let client = try connect("/ws/form")
        XCTAssertEqual(client.hello?.raw, #"{"pipeline":"form","type":"hello"}"#)
        let start = try (0..<3).map { _ in try client.next().raw }
        XCTAssertEqual(start, [
            #"{"field":"value1","message":"minimum of 3 characters required","type":"validation","valid":false}"#,
            #"{"field":"value2","message":"values must match and have at least 5 characters","type":"validation","valid":false}"#,
            #"{"allowed":false,"type":"submit"}"#,
        ])
        try client.sendText(#"{"type":"submit"}"#)
        XCTAssertEqual(try client.next().code, "not_ready")
        for (name, value) in [("value1", "joé"), ("value2", "👍🏽 secret"), ("value2_repeat", "👍🏽 secret")] {
            try client.sendText(#"{"type":"field","name":"\#(name)","value":"\#(value)"}"#)
        }
        XCTAssertEqual(try client.next().raw, #"{"field":"value1","message":"","type":"validation","valid":true}"#)
        XCTAssertEqual(try client.next().raw, #"{"field":"value2","message":"","type":"validation","valid":true}"#)
        XCTAssertEqual(try client.next().raw, #"{"allowed":true,"type":"submit"}"#)
        try client.sendText(#"{"type":"submit"}"#)
        XCTAssertEqual(try client.next().raw, #"{"type":"submitted","value1":"joé","value2":"👍🏽 secret"}"#)
        try client.sendText(#"{"type":"field","name":"nickname","value":"x"}"#)
        XCTAssertEqual(try client.next().code, "bad_message")
    }
}
