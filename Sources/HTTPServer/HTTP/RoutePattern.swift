import Foundation

/// A path pattern such as `/api/users/{login}`: `/`-separated segments, each either literal
/// or a whole-segment parameter `{name}`. Anything else in braces (`{a}b`, `{}`) is literal.
public struct RoutePattern: Sendable, Equatable, CustomStringConvertible {
    enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(String)
    }

    let segments: [Segment]
    /// The pattern as written.
    public let description: String

    public init(_ pattern: String) {
        description = pattern
        segments = Self.split(pattern).map { raw in
            if raw.count > 2, raw.hasPrefix("{"), raw.hasSuffix("}") {
                let name = raw.dropFirst().dropLast()
                if !name.contains("{") && !name.contains("}") { return .parameter(String(name)) }
            }
            return .literal(String(raw))
        }
    }

    /// The segments of a path after its leading `/` (`/` is one empty segment).
    static func split(_ path: String) -> ArraySlice<Substring> {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        return parts.first == "" ? parts.dropFirst() : parts[...]
    }

    /// Whether this pattern has no parameters.
    var isLiteral: Bool {
        segments.allSatisfy { if case .literal = $0 { true } else { false } }
    }

    /// The path a literal pattern matches, as sent (`/a/b`); nil for a pattern with parameters.
    var literalPath: String? {
        guard isLiteral else { return nil }
        return "/" + segments.map { if case .literal(let text) = $0 { text } else { "" } }.joined(separator: "/")
    }

    /// How many segments `path` has, as ``PathSegments`` splits it: a pattern can match only a
    /// path with as many as it has (the router's first filter, one pass over the bytes).
    static func segmentCount(of path: Substring) -> Int {
        guard let first = path.utf8.first else { return 0 }
        var slashes = 0
        for byte in path.utf8 where byte == 0x2F { slashes += 1 }
        return first == 0x2F ? slashes : slashes + 1
    }

    /// Whether `path` (still percent-encoded) matches. Allocates nothing unless a segment is
    /// percent-encoded.
    func matches(_ path: Substring) -> Bool {
        var raw = PathSegments(path)
        for segment in segments {
            guard let next = raw.next() else { return false }
            switch segment {
            case .literal(let literal):
                if next.utf8.contains(0x25) {
                    guard Self.decode(next) == literal else { return false }
                } else {
                    guard HTTPSyntax.sameBytes(next, literal) else { return false }
                }
            case .parameter:
                guard let decoded = next.utf8.contains(0x25) ? Self.decode(next) : String(next), !decoded.isEmpty
                else { return false }
            }
        }
        return raw.next() == nil
    }

    /// The parameters (percent-decoded) captured from a `path` that `matches`.
    func parameters(_ path: Substring) -> [String: String] {
        guard !isLiteral else { return [:] }
        var parameters: [String: String] = [:]
        var raw = PathSegments(path)
        for segment in segments {
            guard let next = raw.next() else { break }
            if case .parameter(let name) = segment { parameters[name] = Self.decode(next) }
        }
        return parameters
    }

    /// Whether both patterns match the same paths (parameter names aside).
    func hasSameShape(as other: RoutePattern) -> Bool {
        segments.count == other.segments.count && zip(segments, other.segments).allSatisfy { a, b in
            switch (a, b) {
            case (.literal(let x), .literal(let y)): return x == y
            case (.parameter, .parameter): return true
            default: return false
            }
        }
    }

    /// Whether this pattern is more specific than `other` (a literal beats a parameter at the
    /// first segment where they differ).
    func isMoreSpecific(than other: RoutePattern) -> Bool {
        for (a, b) in zip(segments, other.segments) {
            switch (a, b) {
            case (.literal, .parameter): return true
            case (.parameter, .literal): return false
            default: continue
            }
        }
        return false
    }

    private static func decode(_ raw: Substring) -> String? {
        guard raw.utf8.contains(0x25) else { return String(raw) }  // no "%"
        return String(raw).removingPercentEncoding
    }
}

/// The `/`-separated segments of a request path, as slices of it (no copies): none for an empty
/// path, and the leading `/` starts the first one (`/` is one empty segment).
struct PathSegments: IteratorProtocol {
    private var rest: Substring?

    init(_ path: Substring) {
        rest = path.isEmpty ? nil : path.first == "/" ? path.dropFirst() : path
    }

    mutating func next() -> Substring? {
        guard let current = rest else { return nil }
        guard let slash = current.utf8.firstIndex(of: 0x2F) else {
            rest = nil
            return current
        }
        rest = current[current.index(after: slash)...]
        return current[..<slash]
    }
}
