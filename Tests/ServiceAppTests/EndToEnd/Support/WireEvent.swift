import HTTPTestSupport
import Foundation

/// A server → client `/ws` event as a client reads it off the wire (one JSON object per frame).
struct WireEvent: Decodable, Equatable, CustomStringConvertible {
    /// A `User` object of a `result` event.
    struct User: Decodable, Equatable {
        var login: String
        var id: Int
        var name: String?
        var public_repos: Int
        var avatar_url: String
        var html_url: String
    }

    /// An item of a `/ws/search` `search` event.
    struct SearchItem: Decodable, Equatable {
        var login: String
        var id: Int
        var avatar_url: String
        var html_url: String
    }

    var type: String
    // hello
    var pipeline: String?
    var throttleMs: Int?
    var minLength: Int?
    // activity
    var active: Bool?
    // result
    var query: String?
    var status: String?
    var users: [User]?
    var stale: Bool?
    // /ws/search: hello, search
    var debounceMs: Int?
    var refreshDelayMs: Int?
    var total_count: Int?
    var items: [SearchItem]?
    // error
    var code: String?
    var message: String?

    /// The frame it was decoded from.
    var raw = ""

    private enum CodingKeys: String, CodingKey {
        case type, pipeline, throttleMs, minLength, active, query, status, users, stale, code, message
        case debounceMs, refreshDelayMs, total_count, items
    }

    /// Decodes one frame; throws when it is not a JSON object with a `type`.
    static func decode(_ text: String) throws -> WireEvent {
        guard !text.contains("\n") else { throw TestClientError.malformed("event spans lines: \(text)") }
        var event = try JSONDecoder().decode(WireEvent.self, from: Data(text.utf8))
        event.raw = text
        return event
    }

    var isResult: Bool { type == "result" }
    var isActivity: Bool { type == "activity" }

    /// `public_repos` of the one user of a `found` result.
    var repos: Int? { users?.first?.public_repos }

    var description: String { raw }
}
