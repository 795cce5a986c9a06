/// What the header fields say about framing, collected while they are parsed.
struct FramingFields: Sendable {
    var contentLength: Int?
    var invalidContentLength = false
    var transferEncoding = false
    var chunkedCount = 0
    var lastIsChunked = false
    var unknownCoding = false
    var hostCount = 0
}

/// The parts of one field line.
private struct FieldLine {
    enum Kind { case other, contentLength, transferEncoding, host }
    var name: String
    var value: String
    var kind: Kind
    /// For `Content-Length`: the value, `nil` if malformed (saturates at `Int.max`).
    var length: Int?
    /// For `Transfer-Encoding`: (chunked count, last is chunked, any other coding, any coding).
    var codings = (chunked: 0, lastIsChunked: false, unknown: false, any: false)
}

extension HTTPRequestParser {
    /// Parses `method SP request-target SP HTTP-version` and starts the header section.
    mutating func parseRequestLine(_ range: Range<Int>) throws(HTTPParseError) {
        let previousTarget = head.target
        let parsed: Result<HTTPRequest, HTTPParseError> = buffer.withUnsafeBufferPointer { all in
            let line = UnsafeBufferPointer(rebasing: all[range])
            guard let sp1 = line.firstIndex(of: HTTPSyntax.space),
                  let sp2 = line[(sp1 + 1)...].firstIndex(of: HTTPSyntax.space)
            else { return .failure(.malformedRequestLine) }
            let method = UnsafeBufferPointer(rebasing: line[..<sp1])
            let target = UnsafeBufferPointer(rebasing: line[(sp1 + 1)..<sp2])
            let version = UnsafeBufferPointer(rebasing: line[(sp2 + 1)...])
            guard HTTPSyntax.isToken(method), !target.isEmpty,
                  !target.contains(where: { $0 < 0x21 || $0 > 0x7E })
            else { return .failure(.malformedRequestLine) }
            // HTTP-version = "HTTP/" DIGIT "." DIGIT
            guard version.count == 8, version[0] == 0x48, version[1] == 0x54, version[2] == 0x54,
                  version[3] == 0x50, version[4] == 0x2F, version[6] == 0x2E,
                  (0x30...0x39).contains(version[5]), (0x30...0x39).contains(version[7])
            else { return .failure(.malformedRequestLine) }
            let major = Int(version[5] - 0x30)
            let minor = Int(version[7] - 0x30)
            guard major == 1 else { return .failure(.unsupportedVersion) }
            return .success(HTTPRequest(
                method: HTTPMethod(rawValue: String(decoding: method, as: UTF8.self)),
                target: HTTPSyntax.string(target, reusing: previousTarget),
                version: (major, minor)))
        }
        // The last request's header storage is refilled in place (copied first if its handler
        // still holds it): its fields stay until overwritten, so that each new field can reuse
        // the string the last request had at the same place; `finishHead` drops the rest.
        let headers = head.headers
        head = HTTPRequest(method: .get, target: "")
        head = try parsed.get()
        head.headers = headers
        body = []
        framing = FramingFields()
        headerBytes = 0
        headerCount = 0
        state = .headers
    }

    /// Throws if the line being received can no longer fit the header (or trailer) budget.
    func checkPendingSection() throws(HTTPParseError) {
        if headerBytes + pendingLineLength + 1 > limits.maxHeaderBytes { throw .headerSectionTooLarge }
    }

    /// Parses one header or trailer line (`line` includes its CR). Returns `true` when it was the
    /// empty line ending the section, after moving to the body (or to `.done` for trailers).
    mutating func parseFieldLine(_ line: Range<Int>, isTrailer: Bool) throws(HTTPParseError) -> Bool {
        headerBytes += line.count + 1
        if headerBytes > limits.maxHeaderBytes { throw .headerSectionTooLarge }
        let content = try strippingCR(line, .malformedHeader)
        if content.isEmpty {
            if isTrailer { state = .done } else { try finishHead() }
            return true
        }
        headerCount += 1
        if headerCount > limits.maxHeaderCount { throw .tooManyHeaders }
        let index = headerCount - 1
        let previous = isTrailer || index >= head.headers.fields.count ? nil : head.headers.fields[index]
        let field: FieldLine = try buffer.withUnsafeBufferPointer { all in
            Self.parseField(UnsafeBufferPointer(rebasing: all[content]), keep: !isTrailer, reusing: previous)
        }.get()
        guard !isTrailer else { return false }  // trailers are validated, then dropped
        switch field.kind {
        case .other: break
        case .host: framing.hostCount += 1
        case .contentLength:
            if let length = field.length, framing.contentLength == nil || framing.contentLength == length {
                framing.contentLength = length
            } else {
                framing.invalidContentLength = true
            }
        case .transferEncoding:
            framing.transferEncoding = true
            framing.chunkedCount += field.codings.chunked
            framing.unknownCoding = framing.unknownCoding || field.codings.unknown
            if field.codings.any { framing.lastIsChunked = field.codings.lastIsChunked }
        }
        head.headers.setField(at: index, name: field.name, value: field.value)
        return false
    }

    /// Validates `name ":" OWS value OWS`; with `keep`, decodes it into strings, reusing those of
    /// `previous` (the last request's field at the same place) when the bytes are the same.
    private static func parseField(
        _ line: UnsafeBufferPointer<UInt8>, keep: Bool, reusing previous: (name: String, value: String)?
    ) -> Result<FieldLine, HTTPParseError> {
        if HTTPSyntax.isWhitespace(line[0]) { return .failure(.obsoleteLineFolding) }
        guard let colon = line.firstIndex(of: HTTPSyntax.colon) else { return .failure(.malformedHeader) }
        let name = UnsafeBufferPointer(rebasing: line[..<colon])
        let value = HTTPSyntax.trimmed(UnsafeBufferPointer(rebasing: line[(colon + 1)...]))
        guard HTTPSyntax.isToken(name) else { return .failure(.malformedHeader) }
        for b in value where b == 0 || b == HTTPSyntax.cr || b == HTTPSyntax.lf {
            return .failure(.malformedHeader)
        }
        guard keep else { return .success(FieldLine(name: "", value: "", kind: .other)) }
        var field = FieldLine(
            name: HTTPSyntax.string(name, reusing: previous?.name),
            value: HTTPSyntax.string(value, reusing: previous?.value), kind: .other)
        if HTTPSyntax.equalsLowercase(name, "content-length") {
            field.kind = .contentLength
            field.length = parseContentLength(value)
        } else if HTTPSyntax.equalsLowercase(name, "transfer-encoding") {
            field.kind = .transferEncoding
            for element in value.split(separator: 0x2C) {
                let coding = HTTPSyntax.trimmed(UnsafeBufferPointer(rebasing: element))
                if coding.isEmpty { continue }
                field.codings.any = true
                if HTTPSyntax.equalsLowercase(coding, "chunked") {
                    field.codings.chunked += 1
                    field.codings.lastIsChunked = true
                } else {
                    field.codings.unknown = true
                    field.codings.lastIsChunked = false
                }
            }
        } else if HTTPSyntax.equalsLowercase(name, "host") {
            field.kind = .host
        }
        return .success(field)
    }

    /// `1*DIGIT`, or a list of identical ones (RFC 9110 §8.6); `nil` if malformed.
    /// Values too large for `Int` saturate (they are over any body limit).
    private static func parseContentLength(_ value: UnsafeBufferPointer<UInt8>) -> Int? {
        var result: Int?
        for element in value.split(separator: 0x2C, omittingEmptySubsequences: false) {
            let digits = HTTPSyntax.trimmed(UnsafeBufferPointer(rebasing: element))
            guard !digits.isEmpty else { return nil }
            var n = 0
            for d in digits {
                guard d >= 0x30 && d <= 0x39 else { return nil }
                let (times10, o1) = n.multipliedReportingOverflow(by: 10)
                let (sum, o2) = times10.addingReportingOverflow(Int(d - 0x30))
                n = (o1 || o2) ? Int.max : sum
            }
            if let result, result != n { return nil }
            result = n
        }
        return result
    }

    /// Decides how the body is framed (RFC 9112 §6) and moves to reading it.
    private mutating func finishHead() throws(HTTPParseError) {
        head.headers.truncate(to: headerCount)
        if framing.hostCount > 1 || (limits.requireHost && framing.hostCount == 0 && head.version.minor >= 1) {
            throw .invalidHost
        }
        if framing.transferEncoding {
            if framing.contentLength != nil || framing.invalidContentLength { throw .conflictingFraming }
            if framing.unknownCoding { throw .unsupportedTransferEncoding }
            if framing.chunkedCount != 1 || !framing.lastIsChunked || head.version.minor == 0 {
                throw .invalidTransferEncoding
            }
            state = .chunkSize
            return
        }
        if framing.invalidContentLength { throw .invalidContentLength }
        let length = framing.contentLength ?? 0
        if length > limits.maxBodyBytes { throw .bodyTooLarge }
        if length > 0 { body.reserveCapacity(Swift.min(length, 64 * 1024)) }
        state = length > 0 ? .body(remaining: length) : .done
    }
}
