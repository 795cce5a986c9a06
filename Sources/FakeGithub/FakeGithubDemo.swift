/// The demo's GitHub (`make demo`, `FakeGithubServer --demo`): every valid login answers a
/// made-up user, and a few logins show what the service does when GitHub misbehaves.
public enum FakeGithubDemo {
    /// A login of the demo that answers with a fault, and what a user of the service sees.
    public struct Login: Sendable, Equatable {
        public let login: String
        public let shows: String
    }

    /// The logins with a behaviour of their own, in the order `--help` lists them.
    public static let logins: [Login] = [
        Login(login: "slowpoke", shows: "answered after 3 s: the activity indicator; typing on cancels the lookup"),
        Login(login: "flaky", shows: "its first lookup fails twice with 503 and succeeds on the third attempt (retry)"),
        Login(login: "down", shows: "always 503: status unavailable after 3 attempts (a cached copy would be served stale)"),
        Login(login: "garbled", shows: "200 with a body that is not JSON: status unavailable"),
        Login(login: "ghost", shows: "404: status not_found, remembered for cache.notFoundTtlSeconds"),
        Login(
            login: "limited",
            shows: "GitHub's primary rate limit (403, reset in 10 s): status rate_limited; until the reset every lookup that needs GitHub is answered rate_limited at once"),
    ]

    /// Users the search finds besides the fixtures (`heckj`, `heck`, `hec`): the demo logins
    /// that answer a user.
    public static let users: [FakeGithubUser] = [
        FakeGithubUser(login: "slowpoke", id: 7_000_001, name: "Slow Poke", publicRepos: 12),
        FakeGithubUser(login: "flaky", id: 7_000_002, name: "Flaky Connection", publicRepos: 5),
        FakeGithubUser(login: "down", id: 7_000_003, name: nil, publicRepos: 0),
        FakeGithubUser(login: "garbled", id: 7_000_004, name: nil, publicRepos: 1),
        FakeGithubUser(login: "limited", id: 7_000_005, name: "Rate Limited", publicRepos: 2),
    ]

    /// Sets `fake` up as the demo's GitHub.
    public static func install(on fake: FakeGithub) {
        fake.answersAnyLogin = true
        for user in users { fake.update(user) }
        fake.setFault(.delay(.milliseconds(3_000)), for: "slowpoke")
        fake.script("flaky", .status(503), .status(503))
        fake.setFault(.status(503), for: "down")
        fake.setFault(.invalidJSON, for: "garbled")
        fake.setFault(.status(404), for: "ghost")
        fake.setFault(.rateLimited(status: 403, retryAfterSeconds: nil, resetInSeconds: 10), for: "limited")
    }
}
