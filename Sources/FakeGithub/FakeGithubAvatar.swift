import HTTPServer

/// The fake's avatar images, served at `GET /avatars/u/{id}` (the path GitHub Enterprise Server
/// serves avatars at): a small SVG per user, the login's first letter on a colour derived from
/// the id, so that pages show a picture offline (`make demo`). The users' `avatar_url`s point
/// here, on the fake's own base URL.
public enum FakeGithubAvatar {
    /// The image's width and height, in CSS pixels (so a browser reports it as its natural size).
    public static let size = 88

    /// The path of `id`'s avatar on the fake.
    public static func path(id: Int) -> String { "/avatars/u/\(id)" }

    /// The `avatar_url` of `id` on a fake at `baseURL` (`http://127.0.0.1:PORT`), with GitHub's
    /// `?v=4`.
    public static func url(baseURL: String, id: Int) -> String { "\(baseURL)\(path(id: id))?v=4" }

    /// The SVG of the user `id`, showing the first letter of `login` (or a `?` when the login is
    /// unknown) in white on a hue derived from `id`.
    public static func svg(id: Int, login: String?) -> String {
        let initial = login?.unicodeScalars.first.map { String($0).uppercased() }
            .flatMap { $0.unicodeScalars.allSatisfy(Self.isPlain) ? $0 : nil } ?? "?"
        let hue = Int(UInt64(truncatingIfNeeded: id) &* 2_654_435_761 % 360)
        let half = size / 2
        return """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(size)" height="\(size)" viewBox="0 0 \(size) \(size)">\
            <rect width="\(size)" height="\(size)" fill="hsl(\(hue),55%,42%)"/>\
            <text x="\(half)" y="\(half)" dy="0.35em" fill="#fff" font-family="sans-serif" font-size="\(size / 2)" \
            text-anchor="middle">\(initial)</text></svg>
            """
    }

    /// The answer to `GET /avatars/u/{id}`: the SVG, cacheable like GitHub's avatars.
    static func response(id: Int, login: String?) -> HTTPResponse {
        HTTPResponse(status: .ok, headers: [
            "Content-Type": "image/svg+xml", "Cache-Control": "max-age=300", "X-Content-Type-Options": "nosniff",
        ], body: .bytes(Array(svg(id: id, login: login).utf8)))
    }

    /// A letter or digit of ASCII: nothing that needs escaping in the SVG.
    private static func isPlain(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar))
    }
}
