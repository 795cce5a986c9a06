import FuzzSupport
import HTTPServer

// libFuzzer entry for `HTTPRequestParser`.
//
// Input layout: byte 0 seeds the chunk splitting, byte 1 picks the limits, the rest is the
// bytes a client sends. The same bytes are parsed twice, fed in one piece and fed in chunks
// (byte-at-a-time or pseudo-random sizes), draining `next()` after every chunk. Checked:
// - nothing traps (the sanitizers and the Swift runtime catch the rest);
// - every limit holds for what the parser returns (body, headers, request line);
// - events come as head then complete, with the same head, and a head has no body;
// - both feedings produce the same events and both fail or neither does (the parser must not
//   depend on how TCP segmented the bytes).

/// One parsed event, flattened for comparison.
struct Summary: Equatable {
    var complete: Bool
    var method: String
    var target: String
    var major: Int
    var minor: Int
    var headers: [String]
    var body: [UInt8]

    init(_ event: HTTPRequestParser.Event) {
        let request: HTTPRequest
        switch event {
        case .head(let r): request = r; complete = false
        case .complete(let r): request = r; complete = true
        }
        method = request.method.rawValue
        target = request.target
        major = request.version.major
        minor = request.version.minor
        headers = request.headers.fields.map { $0.name + ":" + $0.value }
        body = request.body
    }
}

struct Outcome {
    var events: [Summary] = []
    var failed: HTTPParseError?
}

func limits(for selector: UInt8) -> HTTPParserLimits {
    let lineSizes = [16, 64, 256, 8 * 1024]
    let headerSizes = [24, 128, 512, 32 * 1024]
    let bodySizes = [0, 5, 64, 1024]
    return HTTPParserLimits(
        maxRequestLineBytes: lineSizes[Int(selector & 3)],
        maxHeaderBytes: headerSizes[Int(selector >> 2 & 3)],
        maxHeaderCount: selector & 0x10 == 0 ? 4 : 100,
        maxBodyBytes: bodySizes[Int(selector >> 5 & 3)],
        requireHost: selector & 0x80 == 0
    )
}

/// Drains the parser, checking the per-event invariants.
func drain(_ parser: inout HTTPRequestParser, into outcome: inout Outcome) {
    let limits = parser.limits
    while outcome.failed == nil {
        let event: HTTPRequestParser.Event?
        do {
            event = try parser.next()
        } catch {
            outcome.failed = error
            // A failed parser keeps failing with the same error.
            do {
                _ = try parser.next()
                preconditionFailure("parser recovered after \(error)")
            } catch let again {
                precondition(again == error, "parser changed its error")
            }
            return
        }
        guard let event else { return }
        let summary = Summary(event)
        precondition(summary.body.count <= limits.maxBodyBytes, "body exceeds maxBodyBytes")
        precondition(summary.headers.count <= limits.maxHeaderCount, "more headers than maxHeaderCount")
        // Scalars, not UTF-8 bytes: a repaired invalid byte (obs-text) becomes a 3-byte U+FFFD.
        precondition(summary.target.unicodeScalars.count <= limits.maxRequestLineBytes, "target exceeds the request line limit")
        precondition(summary.major == 1, "version other than HTTP/1.x accepted")
        var headerBytes = 2
        for field in summary.headers {
            headerBytes += field.unicodeScalars.count + 2
            precondition(!field.utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0 }, "CR, LF or NUL in a field")
        }
        precondition(headerBytes <= limits.maxHeaderBytes, "header section exceeds maxHeaderBytes")
        if summary.complete {
            guard let head = outcome.events.last, !head.complete else { preconditionFailure("complete without head") }
            var withoutBody = summary
            withoutBody.body = []
            withoutBody.complete = false
            precondition(withoutBody == head, "complete request differs from its head")
        } else {
            precondition(summary.body.isEmpty, "head event with a body")
            precondition(outcome.events.last?.complete ?? true, "two heads in a row")
        }
        outcome.events.append(summary)
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size >= 2 else { return 0 }
    let limits = limits(for: data[1])
    let input = UnsafeRawBufferPointer(start: data + 2, count: size - 2)

    // Whole input at once.
    var whole = HTTPRequestParser(limits: limits)
    var wholeOutcome = Outcome()
    whole.append(input)
    drain(&whole, into: &wholeOutcome)

    // The same bytes in chunks.
    var chunked = HTTPRequestParser(limits: limits)
    var chunkedOutcome = Outcome()
    var splitter = Splitter(seed: data[0])
    var offset = 0
    while offset < input.count, chunkedOutcome.failed == nil {
        let length = splitter.nextLength(maxLength: input.count - offset)
        chunked.append(UnsafeRawBufferPointer(rebasing: input[offset..<offset + length]))
        offset += length
        drain(&chunked, into: &chunkedOutcome)
    }

    precondition(wholeOutcome.events == chunkedOutcome.events, "events depend on how the bytes were split")
    precondition((wholeOutcome.failed == nil) == (chunkedOutcome.failed == nil), "failure depends on the split")
    if wholeOutcome.failed == nil {
        _ = whole.hasPartialRequest
        let rest = whole.takeUnparsedBytes()
        precondition(rest.count <= input.count, "more unparsed bytes than received")
    }
    return 0
}

/// The executable's entry point (SwiftPM links `FuzzHTTPParser_main` as `main`; built with
/// `-parse-as-library`, so there is no top-level code): hands over to libFuzzer's driver.
@_cdecl("FuzzHTTPParser_main")
public func fuzzerMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runFuzzer(argc, argv, fuzz)
}
