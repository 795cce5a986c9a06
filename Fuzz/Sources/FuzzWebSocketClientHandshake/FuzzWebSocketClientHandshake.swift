import FuzzSupport
@testable import HTTPServer

// libFuzzer entry for the client side of the opening handshake: what a server answers to
// `WebSocketClient`'s upgrade request, read by `HTTPResponseHeadParser`, checked by
// `WebSocketClientHandshake.validate` (with `PerMessageDeflateNegotiation.agreement`), then the
// frames after the head read by a client-role `WebSocketReader` with the agreed compression.
//
// Input layout: byte 0 chooses the offer, byte 1 seeds the chunk splitting, the rest is the
// server's bytes.
//   bit 0    no permessage-deflate offered
//   bit 1    server_no_context_takeover asked for
//   bit 2    server_max_window_bits=10 asked for
//   bit 3    client_max_window_bits=9 offered (else without a value)
//   bits 4-5 response head limit 16, 64, 256, 4096 bytes
// Checked:
// - nothing traps (the sanitizers and the Swift runtime catch the rest);
// - the head parser gives the same head and following bytes, or the same error, whether fed
//   whole or in chunks, and never a head longer than its limit;
// - an accepted answer's parameters are within the offer (window bits 8...15, no larger than
//   asked, no context takeover where asked) and make a client-role codec;
// - the client reader's messages respect its 1024-byte limit and control frames' 125 bytes.

/// RFC 6455's sample key, whose accept value the dictionary holds.
let key = "dGhlIHNhbXBsZSBub25jZQ=="

enum Outcome: Equatable {
    case head(HTTPResponseHead, [UInt8])
    case failed(WebSocketClientError)
    case incomplete
}

func parse(_ input: [UInt8], maxBytes: Int, splitter: inout Splitter?) -> Outcome {
    var parser = HTTPResponseHeadParser(maxBytes: maxBytes)
    var offset = 0
    while offset < input.count {
        let length = splitter?.nextLength(maxLength: input.count - offset) ?? input.count
        let piece = input[offset ..< offset + length]
        offset += length
        let result = piece.withUnsafeBytes { raw in
            Result { () throws(WebSocketClientError) in try parser.append(raw) }
        }
        switch result {
        case .success(let head?): return .head(head.0, head.1 + input[offset...])
        case .success(nil): continue
        case .failure(let error): return .failed(error)
        }
    }
    return .incomplete
}

func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size >= 2 else { return 0 }
    let options = data[0]
    let input = Array(UnsafeBufferPointer(start: data + 2, count: size - 2))
    let maxBytes = [16, 64, 256, 4096][Int(options >> 4 & 3)]
    let deflate: PerMessageDeflateConfiguration? = options & 1 != 0 ? nil : PerMessageDeflateConfiguration(
        serverNoContextTakeover: options & 2 != 0, serverMaxWindowBits: options & 4 != 0 ? 10 : 15,
        clientMaxWindowBits: options & 8 != 0 ? 9 : nil, memoryLevel: 1)

    var whole: Splitter?
    var chunked: Splitter? = Splitter(seed: data[1])
    let outcome = parse(input, maxBytes: maxBytes, splitter: &whole)
    precondition(outcome == parse(input, maxBytes: maxBytes, splitter: &chunked), "the head depends on how the bytes were split")
    guard case .head(let head, let rest) = outcome else { return 0 }
    precondition(input.count - rest.count <= maxBytes, "a head longer than the limit")

    let handshake = WebSocketClientHandshake(
        target: "/ws", host: "127.0.0.1", configuration: WebSocketClientConfiguration(deflate: deflate), key: key)
    guard head.status == 101, let agreement = try? handshake.validate(head) else { return 0 }
    var codec: PerMessageDeflate?
    if let parameters = agreement.deflate {
        guard let offered = deflate else { preconditionFailure("compression agreed without an offer") }
        for bits in [parameters.serverMaxWindowBits, parameters.clientMaxWindowBits] {
            precondition((8 ... 15).contains(bits), "window bits \(bits)")
        }
        precondition(parameters.serverMaxWindowBits <= offered.serverMaxWindowBits, "a larger server window than asked")
        precondition(parameters.clientMaxWindowBits <= (offered.clientMaxWindowBits ?? 15), "a larger client window than offered")
        precondition(!offered.serverNoContextTakeover || parameters.serverNoContextTakeover, "server_no_context_takeover dropped")
        codec = PerMessageDeflate(parameters: parameters, role: .client, configuration: offered)
        precondition(codec != nil, "zlib failed to initialise")
    } else {
        precondition(head.headers["Sec-WebSocket-Extensions"] == nil || deflate != nil, "an extension accepted without an offer")
    }
    var reader = WebSocketReader(maxMessageSize: 1024, deflate: codec, role: .client)
    reader.append(rest)
    while true {
        let message: WebSocketMessage?
        do { message = try reader.nextMessage() } catch { break }
        guard let message else { break }
        switch message {
        case .text(let text): precondition(text.utf8.count <= 1024, "text over the limit")
        case .binary(let bytes): precondition(bytes.count <= 1024, "binary over the limit")
        case .ping(let payload), .pong(let payload): precondition(payload.count <= 125, "control payload over 125")
        case .close: break
        }
    }
    return 0
}

/// The executable's entry point (SwiftPM links `FuzzWebSocketClientHandshake_main` as `main`;
/// built with `-parse-as-library`): hands over to libFuzzer's driver.
@_cdecl("FuzzWebSocketClientHandshake_main")
public func fuzzerMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runFuzzer(argc, argv, fuzz)
}
