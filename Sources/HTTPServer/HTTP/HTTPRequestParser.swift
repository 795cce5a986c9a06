#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An incremental HTTP/1.1 request parser: a pure state machine fed with byte chunks of any size.
///
/// Usage (pull): ``append(_:)-(UnsafeRawBufferPointer)`` the bytes as they arrive, then call
/// ``next()`` until it returns `nil` (it needs more bytes). Every request yields exactly two
/// events, in order:
/// - ``Event/head(_:)`` as soon as the request line and headers are complete (the body is empty
///   there). This is the moment to answer `Expect: 100-continue` (see
///   ``HTTPRequest/expectsContinue``); limits on the announced body were already checked.
/// - ``Event/complete(_:)`` with the whole body once it has arrived.
///
/// Pipelined requests are parsed one after the other. After a request that switches protocols
/// (a WebSocket upgrade), stop calling `next()` and hand ``takeUnparsedBytes()`` to the new
/// protocol. A thrown ``HTTPParseError`` names the status to answer with; the connection must
/// then be closed (the parser keeps throwing it).
///
/// Memory stays bounded by the limits: at most one partial line, or the body being collected.
public struct HTTPRequestParser: Sendable {
    /// What ``next()`` reports.
    public enum Event: Sendable {
        /// Request line and headers are complete; the body (if any) follows.
        case head(HTTPRequest)
        /// The request with its whole body (chunked trailers are dropped).
        case complete(HTTPRequest)
    }

    enum State: Sendable, Equatable {
        case requestLine
        case headers
        case body(remaining: Int)
        case chunkSize
        case chunkData(remaining: Int)
        case chunkDataEnd
        case trailers
        case done
    }

    /// The limits in force.
    public let limits: HTTPParserLimits

    var buffer: [UInt8] = []
    /// Start of the bytes not consumed yet.
    var readIndex = 0
    /// Where the search for the next LF resumes (so byte-at-a-time feeding stays linear).
    var scanIndex = 0
    var state: State = .requestLine
    var failure: HTTPParseError?

    var head = HTTPRequest(method: .get, target: "/")
    var body: [UInt8] = []
    var framing = FramingFields()
    var headerBytes = 0
    var headerCount = 0

    public init(limits: HTTPParserLimits = HTTPParserLimits()) {
        self.limits = limits
    }

    /// Whether part of a request has been received but not yet completed (useful to tell a
    /// clean close or idle timeout from a truncated request).
    public var hasPartialRequest: Bool {
        state != .requestLine || buffer[readIndex...].contains { $0 != HTTPSyntax.cr && $0 != HTTPSyntax.lf }
    }

    /// Appends received bytes. Body bytes are copied straight into the body when possible.
    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        compact()
        var input = bytes
        if failure == nil, readIndex == buffer.count, !input.isEmpty {
            switch state {
            case .body(let remaining) where remaining > 0:
                let n = min(remaining, input.count)
                body.append(contentsOf: UnsafeRawBufferPointer(rebasing: input[..<n]))
                state = .body(remaining: remaining - n)
                input = UnsafeRawBufferPointer(rebasing: input[n...])
            case .chunkData(let remaining) where remaining > 0:
                let n = min(remaining, input.count)
                body.append(contentsOf: UnsafeRawBufferPointer(rebasing: input[..<n]))
                state = .chunkData(remaining: remaining - n)
                input = UnsafeRawBufferPointer(rebasing: input[n...])
            default:
                break
            }
        }
        if !input.isEmpty { buffer.append(contentsOf: input) }
    }

    /// Appends received bytes (`[UInt8]`, `ArraySlice<UInt8>`, `Data`…).
    public mutating func append<Bytes: Collection>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        let done: Void? = bytes.withContiguousStorageIfAvailable { append(UnsafeRawBufferPointer($0)) }
        if done == nil { Array(bytes).withUnsafeBytes { append($0) } }
    }

    /// Parses as far as the bytes allow: the next event, or `nil` when more bytes are needed.
    public mutating func next() throws(HTTPParseError) -> Event? {
        if let failure { throw failure }
        do {
            return try step()
        } catch {
            failure = error
            throw error
        }
    }

    /// Appends `bytes` and returns every event they complete. Convenient for tests and for
    /// servers that never switch protocols (it parses past an upgrade request).
    public mutating func feed<Bytes: Collection>(_ bytes: Bytes) throws(HTTPParseError) -> [Event]
    where Bytes.Element == UInt8 {
        append(bytes)
        var events: [Event] = []
        while let event = try next() { events.append(event) }
        return events
    }

    /// Removes and returns the bytes received but not parsed (after an upgrade request).
    public mutating func takeUnparsedBytes() -> [UInt8] {
        let rest = Array(buffer[readIndex...])
        buffer = []
        readIndex = 0
        scanIndex = 0
        return rest
    }

    /// Drops consumed bytes once they are at least half the buffer (amortized O(1) per byte).
    private mutating func compact() {
        guard readIndex > 0 else { return }
        if readIndex == buffer.count {
            if buffer.capacity > 64 * 1024 { buffer = [] } else { buffer.removeAll(keepingCapacity: true) }
            readIndex = 0
            scanIndex = 0
        } else if readIndex >= buffer.count - readIndex {
            buffer.removeSubrange(0..<readIndex)
            scanIndex -= readIndex
            readIndex = 0
        }
    }

    /// The next line's range (with its CR, without the LF), consuming it; `nil` if no LF yet.
    mutating func takeLine() -> Range<Int>? {
        let start = Swift.max(scanIndex, readIndex)
        let lf: Int? = buffer.withUnsafeBufferPointer { p in
            guard start < p.count, let base = p.baseAddress,
                  let hit = memchr(base + start, Int32(HTTPSyntax.lf), p.count - start)
            else { return nil }
            return base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
        }
        guard let lf else {
            scanIndex = buffer.count
            return nil
        }
        let line = readIndex..<lf
        readIndex = lf + 1
        scanIndex = readIndex
        return line
    }

    /// Bytes of the line being received (no LF yet).
    var pendingLineLength: Int { buffer.count - readIndex }

    /// `line` without its final CR; throws `error` for a bare LF.
    func strippingCR(_ line: Range<Int>, _ error: HTTPParseError) throws(HTTPParseError) -> Range<Int> {
        guard let last = line.last, buffer[last] == HTTPSyntax.cr else { throw error }
        return line.lowerBound..<last
    }

    /// Moves up to `remaining` buffered bytes into the body; returns how many are still due.
    mutating func takeBody(_ remaining: Int) -> Int {
        let n = Swift.min(remaining, buffer.count - readIndex)
        if n > 0 {
            body.append(contentsOf: buffer[readIndex..<readIndex + n])
            readIndex += n
            scanIndex = readIndex
        }
        return remaining - n
    }

    private mutating func step() throws(HTTPParseError) -> Event? {
        while true {
            switch state {
            case .requestLine:
                guard let line = takeLine() else {
                    if pendingLineLength > limits.maxRequestLineBytes + 1 { throw .requestLineTooLong }
                    return nil
                }
                let content = try strippingCR(line, .malformedRequestLine)
                if content.isEmpty { continue }  // RFC 9112 §2.2: empty lines before a request
                if content.count > limits.maxRequestLineBytes { throw .requestLineTooLong }
                try parseRequestLine(content)
            case .headers:
                guard let line = takeLine() else {
                    try checkPendingSection()
                    return nil
                }
                if try parseFieldLine(line, isTrailer: false) { return .head(head) }
            case .body(let remaining):
                if remaining == 0 {
                    state = .done
                    continue
                }
                let left = takeBody(remaining)
                state = .body(remaining: left)
                if left > 0 { return nil }
            case .chunkSize:
                guard let line = takeLine() else {
                    if pendingLineLength > HTTPParserLimits.maxChunkLineBytes { throw .invalidChunk }
                    return nil
                }
                try parseChunkSizeLine(line)
            case .chunkData(let remaining):
                if remaining == 0 {
                    state = .chunkDataEnd
                    continue
                }
                let left = takeBody(remaining)
                state = .chunkData(remaining: left)
                if left > 0 { return nil }
            case .chunkDataEnd:
                guard try takeChunkDataEnd() else { return nil }
            case .trailers:
                guard let line = takeLine() else {
                    try checkPendingSection()
                    return nil
                }
                _ = try parseFieldLine(line, isTrailer: true)
            case .done:
                var request = head
                request.body = body
                body = []
                state = .requestLine
                return .complete(request)
            }
        }
    }
}

extension HTTPRequest {
    /// Whether the client waits for `100 Continue` before sending the body (HTTP/1.1 with
    /// `Expect: 100-continue`).
    public var expectsContinue: Bool {
        version.major == 1 && version.minor >= 1 && headers.contains("Expect", token: "100-continue")
    }
}
