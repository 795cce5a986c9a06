import FuzzSupport
import HTTPServer

// libFuzzer entry for `WebSocketReader` (frame decoder, message assembler, UTF-8 validation,
// permessage-deflate) and the bare `WebSocketFrameDecoder`.
//
// Input layout: byte 0 chooses the options, byte 1 seeds the chunk splitting, the rest is the
// bytes a client sends after the upgrade.
//   bit 0    permessage-deflate on
//   bit 1    client_no_context_takeover
//   bits 2-3 client_max_window_bits 8, 9, 12, 15
//   bits 4-5 max message size 0, 3, 125, 1024 bytes
// Checked:
// - nothing traps (the sanitizers and the Swift runtime catch the rest);
// - no message exceeds the limit; control payloads are at most 125 bytes; close codes are
//   valid on the wire; text is valid UTF-8 (its bytes re-validated);
// - fed in one piece and in chunks, the reader returns the same messages and fails in both or
//   in neither;
// - `UTF8Validator`, which decides whether text is accepted, agrees with the standard library
//   (`String(validating:)`) on the input, whole and split at a seeded point;
// - the bare decoder (unmasked frames allowed) respects its payload limit and control rules.

struct Options {
    var deflate: PerMessageDeflateParameters?
    var maxMessageSize: Int

    init(_ byte: UInt8) {
        let windows = [8, 9, 12, 15]
        let sizes = [0, 3, 125, 1024]
        deflate = byte & 1 == 0 ? nil : PerMessageDeflateParameters(
            serverNoContextTakeover: true, clientNoContextTakeover: byte & 2 != 0,
            serverMaxWindowBits: 9, clientMaxWindowBits: windows[Int(byte >> 2 & 3)])
        maxMessageSize = sizes[Int(byte >> 4 & 3)]
    }

    func makeReader() -> WebSocketReader {
        guard let deflate else { return WebSocketReader(maxMessageSize: maxMessageSize) }
        // A small compressor: this side only inflates.
        let configuration = PerMessageDeflateConfiguration(
            serverNoContextTakeover: true, serverMaxWindowBits: 9, memoryLevel: 1)
        guard let codec = PerMessageDeflate(parameters: deflate, configuration: configuration) else {
            preconditionFailure("zlib failed to initialise")
        }
        return WebSocketReader(maxMessageSize: maxMessageSize, deflate: codec)
    }
}

struct Outcome {
    var messages: [WebSocketMessage] = []
    var failed: WebSocketError?
}

func check(_ message: WebSocketMessage, limit: Int) {
    switch message {
    case .text(let text):
        let bytes = Array(text.utf8)
        precondition(bytes.count <= limit, "text message over the limit")
        precondition(UTF8Validator.isValid(bytes), "text message is not valid UTF-8")
    case .binary(let bytes):
        precondition(bytes.count <= limit, "binary message over the limit")
    case .ping(let bytes), .pong(let bytes):
        precondition(bytes.count <= 125, "control frame payload over 125 bytes")
    case .close(let code, let reason):
        precondition(reason.utf8.count <= 123, "close reason over 123 bytes")
        precondition(code == .noStatusReceived || code.isValidOnWire, "invalid close code accepted")
    }
}

func drain(_ reader: inout WebSocketReader, limit: Int, into outcome: inout Outcome) {
    while outcome.failed == nil {
        do {
            guard let message = try reader.nextMessage() else { return }
            check(message, limit: limit)
            outcome.messages.append(message)
        } catch {
            outcome.failed = error
        }
    }
}

/// `UTF8Validator` against the standard library, on the whole input and split in two.
func checkValidator(_ bytes: UnsafeRawBufferPointer, split: Int) {
    let expected = String(validating: bytes, as: UTF8.self) != nil
    var whole = UTF8Validator()
    let wholeValid = whole.validate(bytes) && whole.isComplete
    precondition(wholeValid == expected, "UTF8Validator disagrees with the standard library")
    var parts = UTF8Validator()
    let cut = min(split, bytes.count)
    let first = parts.validate(UnsafeRawBufferPointer(rebasing: bytes[..<cut]))
    let second = first && parts.validate(UnsafeRawBufferPointer(rebasing: bytes[cut...]))
    precondition((second && parts.isComplete) == expected, "UTF8Validator depends on the split")
}

/// The bare decoder, unmasked frames allowed: limits and control-frame rules.
func checkDecoder(_ bytes: UnsafeRawBufferPointer, limit: Int, compression: Bool) {
    var decoder = WebSocketFrameDecoder(maxFramePayload: limit, requireMasking: false, allowsCompressionBit: compression)
    decoder.append(bytes)
    while true {
        guard let frame = try? decoder.nextFrame() else { return }
        precondition(frame.payload.count <= limit, "frame payload over maxFramePayload")
        precondition(!frame.rsv2 && !frame.rsv3, "RSV2/RSV3 accepted")
        precondition(compression || !frame.rsv1, "RSV1 accepted without compression")
        if frame.opcode.rawValue >= 8 {
            precondition(frame.fin && frame.payload.count <= 125, "fragmented or large control frame")
        }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size >= 2 else { return 0 }
    let options = Options(data[0])
    let input = UnsafeRawBufferPointer(start: data + 2, count: size - 2)

    var whole = options.makeReader()
    var wholeOutcome = Outcome()
    whole.append(input)
    drain(&whole, limit: options.maxMessageSize, into: &wholeOutcome)

    var chunked = options.makeReader()
    var chunkedOutcome = Outcome()
    var splitter = Splitter(seed: data[1])
    var offset = 0
    while offset < input.count, chunkedOutcome.failed == nil {
        let length = splitter.nextLength(maxLength: input.count - offset)
        chunked.append(UnsafeRawBufferPointer(rebasing: input[offset..<offset + length]))
        offset += length
        drain(&chunked, limit: options.maxMessageSize, into: &chunkedOutcome)
    }

    precondition(wholeOutcome.messages == chunkedOutcome.messages, "messages depend on how the bytes were split")
    precondition((wholeOutcome.failed == nil) == (chunkedOutcome.failed == nil), "failure depends on the split")

    checkValidator(input, split: Int(data[1]))
    checkDecoder(input, limit: options.maxMessageSize, compression: options.deflate != nil)
    return 0
}

/// The executable's entry point (SwiftPM links `FuzzWebSocketReader_main` as `main`; built with
/// `-parse-as-library`, so there is no top-level code): hands over to libFuzzer's driver.
@_cdecl("FuzzWebSocketReader_main")
public func fuzzerMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runFuzzer(argc, argv, fuzz)
}
