import Foundation

/// A GitHub API token, read from `GITHUB_TOKEN` only. Every description, debug description and
/// mirror of it is redacted, so it cannot leak through logging, string interpolation or `dump`;
/// the secret is reachable only as the `Authorization` header value.
struct GitHubToken: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    private let secret: String

    /// A token from an environment value; `nil` when the value is empty or only whitespace.
    /// Surrounding whitespace (a trailing newline from `$(cat file)`) is removed.
    init?(environmentValue: String) {
        let trimmed = environmentValue.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { return nil }
        secret = trimmed
    }

    /// Whether the token is usable in an HTTP header: visible ASCII only.
    var isHeaderSafe: Bool { secret.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F } }

    /// The token itself, for the upstream client only (which sends it as a bearer token).
    var secretValue: String { secret }

    /// The value of the upstream `Authorization` header: `Bearer <token>`.
    var authorizationHeaderValue: String { "Bearer \(secret)" }

    /// Always `<redacted>`.
    var description: String { "<redacted>" }
    /// Always `GitHubToken(<redacted>)`.
    var debugDescription: String { "GitHubToken(<redacted>)" }
    /// A mirror without children.
    var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}
