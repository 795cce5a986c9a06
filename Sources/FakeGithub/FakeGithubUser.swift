import Foundation

/// A user the fake knows, answered on `GET /users/{login}` with the fields GitHub sends.
public struct FakeGithubUser: Sendable, Equatable {
    public var login: String
    public var id: Int
    public var name: String?
    public var publicRepos: Int
    /// Bumped by `FakeGithub.update(_:)`, so the `ETag` changes with the user.
    var version = 1

    public init(login: String, id: Int, name: String?, publicRepos: Int) {
        self.login = login
        self.id = id
        self.name = name
        self.publicRepos = publicRepos
    }

    /// The weak validator GitHub-style answers carry; changes whenever the user changes.
    public var etag: String { "W/\"u\(id)v\(version)\"" }

    /// The answer body of a fake at `baseURL`, shaped like GitHub's (a subset of its fields,
    /// `name` as `null` when absent); `avatar_url` is the fake's own image (`FakeGithubAvatar`).
    public func json(baseURL: String) -> [UInt8] {
        let body = Body(
            login: login, id: id, node_id: "U_fake\(id)", avatar_url: FakeGithubAvatar.url(baseURL: baseURL, id: id),
            url: "https://api.github.com/users/\(login)", html_url: "https://github.com/\(login)", type: "User",
            site_admin: false, name: name, public_repos: publicRepos, followers: 0, following: 0
        )
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(body)).map { Array($0) } ?? []
    }

    /// The book's user and two shorter logins, so that typing `h`, `he`, `hec`, `heck`, `heckj`
    /// gives too_short, too_short, 3 repos, 6 repos, 69 repos.
    public static let fixtures: [FakeGithubUser] = [
        FakeGithubUser(login: "heckj", id: 43388, name: "Joe Heck", publicRepos: 69),
        FakeGithubUser(login: "hec", id: 5_218_041, name: nil, publicRepos: 3),
        FakeGithubUser(login: "heck", id: 1_337_004, name: "Heck", publicRepos: 6),
    ]

    /// A made-up user for `login` when it is a valid GitHub login (1–39 ASCII letters, digits
    /// and single hyphens, no hyphen first or last), else nil. The same login (in any case)
    /// always gives the same id, repository count and `ETag`; the login keeps the case asked for.
    public static func synthetic(login: String) -> FakeGithubUser? {
        let bytes = Array(login.utf8)
        guard (1...39).contains(bytes.count), bytes.first != UInt8(ascii: "-"), bytes.last != UInt8(ascii: "-") else { return nil }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a of the lowercased login
        var previous: UInt8 = 0
        for byte in bytes {
            let isAlphanumeric = (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            guard isAlphanumeric || (byte == UInt8(ascii: "-") && previous != byte) else { return nil }
            previous = byte
            hash = (hash ^ UInt64(isAlphanumeric && byte >= UInt8(ascii: "A") ? byte | 0x20 : byte)) &* 0x100_0000_01b3
        }
        // Ids above the fixtures' range, below 2^31 like GitHub's older ids.
        return FakeGithubUser(login: login, id: 10_000_000 + Int(hash % 1_000_000_000), name: nil, publicRepos: Int(hash >> 40) % 300)
    }

    private struct Body: Encodable {
        // Field names as GitHub spells them.
        let login: String
        let id: Int
        let node_id: String
        let avatar_url: String
        let url: String
        let html_url: String
        let type: String
        let site_admin: Bool
        let name: String?
        let public_repos: Int
        let followers: Int
        let following: Int

        func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(login, forKey: .login)
            try container.encode(id, forKey: .id)
            try container.encode(node_id, forKey: .node_id)
            try container.encode(avatar_url, forKey: .avatar_url)
            try container.encode(url, forKey: .url)
            try container.encode(html_url, forKey: .html_url)
            try container.encode(type, forKey: .type)
            try container.encode(site_admin, forKey: .site_admin)
            try container.encode(name, forKey: .name)  // `null`, as GitHub sends it
            try container.encode(public_repos, forKey: .public_repos)
            try container.encode(followers, forKey: .followers)
            try container.encode(following, forKey: .following)
        }

        enum CodingKeys: String, CodingKey {
            case login, id, node_id, avatar_url, url, html_url, type, site_admin, name, public_repos, followers, following
        }
    }
}
