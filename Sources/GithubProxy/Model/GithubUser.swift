/// The part of GitHub's `/users/{login}` answer the service uses; field names as GitHub spells them.
public struct GithubUser: Codable, Equatable, Sendable {
    public var login: String
    public var id: Int
    public var name: String?
    public var publicRepos: Int?
    public var avatarURL: String?
    public var htmlURL: String?

    public init(login: String, id: Int, name: String?, publicRepos: Int?, avatarURL: String?, htmlURL: String?) {
        self.login = login
        self.id = id
        self.name = name
        self.publicRepos = publicRepos
        self.avatarURL = avatarURL
        self.htmlURL = htmlURL
    }

    enum CodingKeys: String, CodingKey {
        case login, id, name
        case publicRepos = "public_repos"
        case avatarURL = "avatar_url"
        case htmlURL = "html_url"
    }

    /// Encodes `name` as `null` when absent, as GitHub does (the synthesised encoder omits it).
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(login, forKey: .login)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(publicRepos, forKey: .publicRepos)
        try container.encode(avatarURL, forKey: .avatarURL)
        try container.encode(htmlURL, forKey: .htmlURL)
    }
}

extension GithubUser {
    /// An estimate of a user's bytes in memory, for the cache's byte bound: the struct plus the
    /// bytes of its strings.
    @Sendable public static func estimatedBytes(_ user: GithubUser) -> Int {
        MemoryLayout<GithubUser>.stride + user.login.utf8.count + (user.name?.utf8.count ?? 0)
            + (user.avatarURL?.utf8.count ?? 0) + (user.htmlURL?.utf8.count ?? 0)
    }
}
