import Foundation

/// The pages' `Content-Security-Policy`, sent as a header and declared in a `<meta>` element:
/// scripts only from the service itself (`/pipelines.js`, `/pages.js`; no inline code), inline
/// styles, images only from the service and where users' avatars come from, sockets (and any
/// other connection) only to the service — `'self'` covers same-origin `ws:`/`wss:` in current
/// browsers.
///
/// Avatars come from GitHub's avatar host (`avatar_url` on github.com), and, when the service is
/// configured with another GitHub API than `https://api.github.com`, from that API's origin: a
/// GitHub Enterprise Server serves them at `https://HOST/avatars/u/ID`, and so does the bundled
/// fake GitHub of `make demo` (`FakeGithubAvatar`). Nothing else is allowed; the pages' code
/// reads the allowed image origins back from the `<meta>` (`PageScript`'s `images.allows`).
struct PageSecurityPolicy: Sendable, Equatable {
    /// GitHub's avatar host.
    static let githubAvatarOrigin = "https://avatars.githubusercontent.com"

    /// The policy of a service using GitHub's own API.
    static let standard = PageSecurityPolicy(githubAPIURL: ServiceConfig.defaultGithubAPIURL)

    /// `img-src`'s sources: `'self'` (the `/favicon.ico` browsers ask for; Firefox reports the
    /// request as a violation otherwise), GitHub's avatar host, and the API's origin when it is
    /// not GitHub's.
    let imageSources: [String]

    /// The policy of a service whose GitHub API is `githubAPIURL`.
    init(githubAPIURL: URL) {
        var sources = ["'self'", Self.githubAvatarOrigin]
        if let origin = Self.origin(of: githubAPIURL), origin != "https://api.github.com", !sources.contains(origin) {
            sources.append(origin)
        }
        imageSources = sources
    }

    /// The policy's text.
    var text: String {
        "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; "
            + "img-src \(imageSources.joined(separator: " ")); connect-src 'self'; "
            + "base-uri 'none'; form-action 'none'"
    }

    /// `scheme://host[:port]` of an `http`/`https` URL, lowercased, the port only when it is not
    /// the scheme's default; nil for any other URL, or a host with characters a policy source
    /// cannot carry (so a configured URL can never widen the policy beyond its own origin).
    static func origin(of url: URL) -> String? {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              var host = url.host?.lowercased(), !host.isEmpty else { return nil }
        let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789.-:[]")
        guard host.allSatisfy({ allowed.contains($0) }) else { return nil }
        if host.contains(":") && !host.hasPrefix("[") { host = "[\(host)]" }
        let defaultPort = scheme == "https" ? 443 : 80
        if let port = url.port, port != defaultPort { return "\(scheme)://\(host):\(port)" }
        return "\(scheme)://\(host)"
    }
}
