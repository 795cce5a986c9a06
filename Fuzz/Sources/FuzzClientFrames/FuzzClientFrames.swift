import CFuzzerDriver
import Foundation
@testable import ServiceApp

// libFuzzer entry for the pipelines' client frames: what a browser or `websocat` sends as text on
// `/ws` (`ClientFrame`), `/ws/search` (`SearchFrame`) and `/ws/form` (`FormFrame`).
//
// Input: the frame's bytes. The server only hands valid UTF-8 text to these parsers (the reader
// rejects anything else with 1007), so the bytes are decoded as UTF-8 first, with repair.
// Checked:
// - nothing traps (deep nesting, huge numbers, odd escapes, invalid surrogates...);
// - `/ws`: text not starting with `{` is the value itself, less one trailing "\n" or "\r\n";
//   a JSON frame read as input carries a value that reads back the same when re-encoded;
// - `/ws/search`: agrees with `/ws` on everything but `{"type":"refresh"}`;
// - `/ws/form`: a field frame re-encoded reads back as the same field and value.

/// Encodes `object` as a JSON text frame.
func frame(_ object: [String: String]) -> String {
    guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else {
        preconditionFailure("a dictionary of strings must encode")
    }
    return String(decoding: data, as: UTF8.self)
}

@inline(never)
func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)

    let client = ClientFrame(text: text)
    if text.utf8.first != UInt8(ascii: "{") {
        var expected = Substring(text).utf8[...]
        if expected.last == UInt8(ascii: "\n") {
            expected = expected.dropLast()
            if expected.last == UInt8(ascii: "\r") { expected = expected.dropLast() }
        }
        precondition(client == .input(String(decoding: expected, as: UTF8.self)), "plain text is the value itself")
    }
    if case .input(let value) = client, text.utf8.first == UInt8(ascii: "{") {
        precondition(ClientFrame(text: frame(["type": "input", "value": value])) == .input(value), "input round trip")
    }
    if case .unreadable(let reason) = client { precondition(!reason.isEmpty, "an error says why") }

    let search = SearchFrame(text: text)
    switch (search, client) {
    case (.refresh, _): break
    case (.input(let a), .input(let b)): precondition(a == b, "search and /ws read input alike")
    case (.unreadable, .unreadable): break
    default: preconditionFailure("search and /ws disagree on \(text.debugDescription)")
    }

    switch FormFrame(text: text) {
    case .field(let field, let value):
        let again = FormFrame(text: frame(["type": "field", "name": field.rawValue, "value": value]))
        precondition(again == .field(field, value), "field round trip")
    case .submit: break
    case .unreadable(let reason): precondition(!reason.isEmpty, "an error says why")
    }
    return 0
}

/// The executable's entry point (see docs/fuzzing.md): hands over to libFuzzer's driver.
@_cdecl("FuzzClientFrames_main")
public func fuzzerMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv) { data, size in
        guard let data else { return 0 }
        return fuzz(data, size)
    }
}
