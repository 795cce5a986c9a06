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

    /// The captured parameters (percent-decoded) if `segments` (still percent-encoded) match.
    func match(_ path: ArraySlice<Substring>) -> [String: String]? {
        guard path.count == segments.count else { return nil }
        var parameters: [String: String] = [:]
        for (segment, raw) in zip(segments, path) {
            guard let decoded = Self.decode(raw) else { return nil }
            switch segment {
            case .literal(let literal):
                guard decoded == literal else { return nil }
            case .parameter(let name):
                guard !decoded.isEmpty else { return nil }
                parameters[name] = decoded
            }
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
