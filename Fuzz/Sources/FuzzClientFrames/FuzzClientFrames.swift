import FuzzSupport
import Foundation
import PipelineWire
import StreamCore
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
// - `/ws/form`: a field frame re-encoded reads back as the same field and value;
// - `/ws/pipelines` (PipelineWire's `MuxClientFrame`): an accepted frame has an id of 1–64 code
//   points and a valid demand, reads back as itself once written again, and agrees with
//   Foundation's parser that the frame is JSON; a `send`'s object message is JSON to Foundation
//   too and reads as a frame of the endpoints (for both: a number beyond `Double`'s range aside,
//   the codec's one documented difference); a refusal says why, and its error frame is one line of
//   valid JSON that reads back as itself; the frame fed to a new `MuxStateMachine` traps nowhere
//   and always lets the next frame be read or asks fair use.

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
    fuzzMux(text)
    return 0
}

func fuzzMux(_ text: String) {
    let input: MuxStateMachine.Input
    do {
        let frame = try MuxClientFrame(decoding: text)
        precondition(!frame.id.isEmpty && frame.id.unicodeScalars.count <= MuxClientFrame.maxIDLength, "an accepted id is 1–64 code points")
        precondition((try? MuxClientFrame(decoding: frame.json)) == frame, "an accepted frame reads back as itself")
        precondition(isFoundationObject(text), "an accepted frame is JSON to Foundation")
        switch frame {
        case .send(_, let message):
            if case .object(let json) = message {
                precondition(isFoundationObject(json), "the message is the object's text")
            }
            let body = message.frameText
            _ = (ClientFrame(text: body), SearchFrame(text: body), FormFrame(text: body))
        case .request(_, let demand):
            precondition(demand != .none, "a request asks for at least one")
        case .subscribe, .cancel:
            break
        }
        input = .frame(frame)
    } catch {
        precondition(!error.message.isEmpty, "an error says why")
        let json = MuxServerFrame.error(id: error.id, code: error.code, message: error.message).json
        precondition(!json.contains("\n"), "one line")
        let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        precondition(object?["code"] as? String == error.code.rawValue && object?["id"] as? String == error.id, "the error frame is valid JSON")
        precondition((try? MuxServerFrame(decoding: json)) == .error(id: error.id, code: error.code, message: error.message), "it reads back")
        input = .refused(error)
    }
    var machine = MuxStateMachine(settings: .init())
    let actions = machine.handle(input)
    precondition(actions.last == .readNext || actions.last.map { if case .openSession = $0 { true } else { false } } == true,
                 "the next frame is read, unless fair use is asked")
}

/// Whether Foundation reads `json` as an object, allowing the codec's one documented difference
/// (`JSONScanner`): a number beyond `Double`'s range (`1e999`) is grammar to the codec, which leaves
/// its range to the reader of the message, where Foundation refuses the text. Foundation checks the
/// grammar of the whole text before it converts numbers, so that refusal means the rest is JSON.
func isFoundationObject(_ json: String) -> Bool {
    do {
        return try JSONSerialization.jsonObject(with: Data(json.utf8)) is [String: Any]
    } catch {
        let reason = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? ""
        return reason.hasPrefix("Number ") && reason.hasSuffix(" is not representable in Swift.")
    }
}

/// The executable's entry point (see docs/fuzzing.md): hands over to libFuzzer's driver.
@_cdecl("FuzzClientFrames_main")
public func fuzzerMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runFuzzer(argc, argv, fuzz)
}
