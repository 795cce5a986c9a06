import GithubProxy
import PipelineWire

/// A server → client event of the github-user pipeline (`/ws`): one JSON object, one line, one
/// text frame.
enum GithubUserEvent: Equatable {
    case hello(throttleMs: Int, minLength: Int)
    case activity(active: Bool)
    case result(LookupResult)
    case error(code: String, message: String)

    /// The event as the single-line JSON text the contract defines (keys sorted).
    var json: String {
        var writer = JSONWriter(capacity: 128)
        writer.beginObject()
        switch self {
        case .hello(let throttleMs, let minLength):
            writer.member("minLength", integer: minLength)
            writer.member("pipeline", string: PipelineDescriptor.githubUser.name)
            writer.member("throttleMs", integer: throttleMs)
            writer.member("type", string: "hello")
        case .activity(let active):
            writer.member("active", bool: active)
            writer.member("type", string: "activity")
        case .result(let result):
            writer.member("query", string: result.query)
            // `scope` "client": rate-limited by this client's own allowance (fair use);
            // `stale` true: a cached copy served because GitHub failed. Both absent otherwise.
            if result.limitedByClient { writer.member("scope", string: "client") }
            if result.stale { writer.member("stale", bool: true) }
            writer.member("status", string: result.status.rawValue)
            writer.member("type", string: "result")
            writer.beginArray("users")
            for user in result.users { writer.user(user) }
            writer.endArray()
        case .error(let code, let message):
            writer.member("code", string: code)
            writer.member("message", string: message)
            writer.member("type", string: "error")
        }
        writer.endObject()
        return writer.text
    }
}

extension JSONWriter {
    /// A GitHub user as the events carry it: every field, `null` when absent (as GitHub writes it).
    mutating func user(_ user: GithubUser) {
        beginObject()
        member("avatar_url", stringOrNull: user.avatarURL)
        member("html_url", stringOrNull: user.htmlURL)
        member("id", integer: user.id)
        member("login", string: user.login)
        member("name", stringOrNull: user.name)
        member("public_repos", integerOrNull: user.publicRepos)
        endObject()
    }
}
