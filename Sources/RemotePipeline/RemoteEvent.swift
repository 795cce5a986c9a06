import Foundation

/// One event of a remote pipeline instance, exactly as its own endpoint sends it (`hello`,
/// `activity`, `result`, `search`, `error`, …): the JSON, and the fields clients use most,
/// typed.
public struct RemoteEvent: Sendable, Equatable, CustomStringConvertible {
    /// A user of a `result` event (a subset of GitHub's fields).
    public struct User: Sendable, Equatable, Decodable {
        public var login: String
        public var id: Int
        public var name: String?
        public var publicRepos: Int?
        public var avatarURL: String?
        public var htmlURL: String?

        private enum CodingKeys: String, CodingKey {
            case login, id, name
            case publicRepos = "public_repos", avatarURL = "avatar_url", htmlURL = "html_url"
        }
    }

    /// The event's `type`.
    public var type: String
    /// The event as JSON text (keys sorted).
    public var json: String
    /// `activity`: whether a lookup is running.
    public var active: Bool?
    /// `result`: the looked-up value; `status`: `found`, `not_found`, `too_short`, …
    public var query: String?
    public var status: String?
    /// `result`: the users found (empty unless `found`).
    public var users: [User]
    /// `hello`: the pipeline's name (`composed` for a definition).
    public var pipeline: String?
    /// A composed pipeline's `value` event: its `value` as JSON text (`"HECKJ"`, `5`, `["a","b"]`).
    public var valueJSON: String?
    /// `error`: its code and message.
    public var code: String?
    public var message: String?

    /// Decodes an event object (the `event` of an `event` frame, as it came); nil unless it is an
    /// object with a string `type`.
    init?(json text: String) {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any],
              let type = object["type"] as? String,
              let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]),
              let fields = try? JSONDecoder().decode(Fields.self, from: data)
        else { return nil }
        self.type = type
        json = String(decoding: data, as: UTF8.self)
        active = fields.active
        query = fields.query
        status = fields.status
        users = fields.users ?? []
        pipeline = fields.pipeline
        valueJSON = type == "value" ? object["value"].flatMap { value in
            (try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .withoutEscapingSlashes, .fragmentsAllowed]))
                .map { String(decoding: $0, as: UTF8.self) }
        } : nil
        code = fields.code
        message = fields.message
    }

    public var description: String { json }

    /// The typed fields, each taken only when it has the expected type (other pipelines may
    /// use the same names differently; the JSON keeps everything).
    private struct Fields: Decodable {
        var active: Bool?
        var query: String?
        var status: String?
        var users: [User]?
        var pipeline: String?
        var code: String?
        var message: String?

        private enum CodingKeys: String, CodingKey { case active, query, status, users, pipeline, code, message }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            active = try? container.decodeIfPresent(Bool.self, forKey: .active)
            query = try? container.decodeIfPresent(String.self, forKey: .query)
            status = try? container.decodeIfPresent(String.self, forKey: .status)
            users = try? container.decodeIfPresent([User].self, forKey: .users)
            pipeline = try? container.decodeIfPresent(String.self, forKey: .pipeline)
            code = try? container.decodeIfPresent(String.self, forKey: .code)
            message = try? container.decodeIfPresent(String.self, forKey: .message)
        }
    }
}
