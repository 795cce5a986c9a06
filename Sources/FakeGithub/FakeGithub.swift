import Foundation
import HTTPServer
import Synchronization
import Logging

/// A fake GitHub API on loopback for tests and benchmarks: `GET /users/{login}` answers from
/// fixtures (with `ETag`, `304` on a matching `If-None-Match`, and `x-ratelimit-*` headers), or
/// with a fault scripted for that login; `GET /search/users` searches the fixtures under the
/// `search` rate-limit resource (`FakeGithubSearch`); every API request is logged.
/// `GET /avatars/u/{id}` serves the users' avatar images (`FakeGithubAvatar`), which their
/// `avatar_url`s name on the fake's own base URL.
///
/// ```swift
/// let fake = FakeGithub()
/// let baseURL = try fake.start()             // http://127.0.0.1:<port>
/// fake.script("heckj", .status(503), .status(503))   // then the fixture
/// fake.setFault(.delay(.seconds(5)), for: "slowpoke")
/// …
/// fake.requestCount(for: "heckj"); fake.requests.last?.header("Authorization")
/// fake.stop()
/// ```
public final class FakeGithub: Sendable {
    private let state: FakeGithubState
    private let search = FakeGithubSearch()
    private let server: HTTPServer
    private let stopped = Atomic<Bool>(false)

    /// - Parameters:
    ///   - port: 0 picks a free port.
    ///   - users: the fixtures (`FakeGithubUser.fixtures` by default); other logins get 404.
    ///   - logCapacity: requests kept in `requests` (the oldest go first); counters are exact.
    ///   - loopCount: the server's I/O threads.
    public init(
        port: UInt16 = 0, users: [FakeGithubUser] = FakeGithubUser.fixtures, logCapacity: Int = 100_000,
        loopCount: Int = 2
    ) {
        let state = FakeGithubState(users: users, logCapacity: logCapacity)
        var router = Router()
        router.get("/users/{login}") { request in
            let answer = state.respond(to: request, login: request.pathParameters["login"])
            if answer.hold > .zero { try? await Task.sleep(for: answer.hold) }
            return answer.response
        }
        let search = self.search
        router.get("/search/users") { request in
            state.record(request)
            let answer = search.respond(to: request, users: state.allUsers, baseURL: state.baseURL)
            if answer.hold > .zero { try? await Task.sleep(for: answer.hold) }
            return answer.response
        }
        router.get("/avatars/u/{id}") { request in
            guard let id = request.pathParameters["id"].flatMap(Int.init), id > 0 else { return FakeGithubState.error(404) }
            return FakeGithubAvatar.response(id: id, login: state.avatarLogin(id: id))
        }
        router.notFound = { request in
            _ = state.respond(to: request, login: nil)
            return FakeGithubState.error(404)
        }
        self.state = state
        var logger = Logger(label: "fakegithub")
        logger.logLevel = .critical
        server = HTTPServer(
            configuration: HTTPServerConfiguration(host: "127.0.0.1", port: port, loopCount: max(1, loopCount), drainTimeout: .seconds(1)),
            router: router, logger: logger
        )
    }

    /// Starts listening; returns the base URL to configure a client with (users' `avatar_url`s
    /// point at it too).
    public func start() throws -> URL {
        let address = try server.start()
        guard let url = URL(string: "http://127.0.0.1:\(address.port)") else { throw URLError(.badURL) }
        state.baseURL = url.absoluteString
        return url
    }

    /// Stops listening and closes every connection; returns once they are gone (at most ~1 s).
    /// Later calls do nothing.
    public func stop() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let done = DispatchSemaphore(value: 0)
        server.shutdown { done.signal() }
        done.wait()
    }

    // MARK: Fixtures and faults

    /// Adds or replaces a user (a replaced user gets a new `ETag`).
    public func update(_ user: FakeGithubUser) { state.put(user) }

    /// Forgets a user: its login then answers 404.
    public func removeUser(login: String) { state.remove(login: login) }

    /// Queues faults for the next requests for `login` (case-insensitive), one per request;
    /// once they are used up, the login is answered normally again.
    public func script(_ login: String, _ faults: FakeGithubFault...) { state.script(login, faults) }

    /// Answers every request for `login` with `fault` (after any scripted ones); nil clears it.
    public func setFault(_ fault: FakeGithubFault?, for login: String) { state.setFault(fault, for: login) }

    /// Answers every request for a login that has no persistent fault of its own with this
    /// (scripted faults still come first); nil (the default) clears it. The load benchmark sets
    /// `.delay(.milliseconds(50))` to give every lookup GitHub-like latency.
    public var defaultFault: FakeGithubFault? {
        get { state.defaultFault }
        set { state.defaultFault = newValue }
    }

    /// When true, a valid login without a fixture answers `FakeGithubUser.synthetic(login:)`
    /// (a stable user per login, with its own `ETag`) instead of 404; invalid logins still 404.
    /// False by default.
    public var answersAnyLogin: Bool {
        get { state.answersAnyLogin }
        set { state.answersAnyLogin = newValue }
    }

    /// What `x-ratelimit-remaining` says on normal answers (4999 by default; 0 makes every
    /// answer say the budget is spent, with the reset an hour ahead).
    public var rateLimitRemaining: Int {
        get { state.rateLimitRemaining }
        set { state.rateLimitRemaining = newValue }
    }

    /// The `Cache-Control` header of user answers (`200` and `304`); GitHub's
    /// `private, max-age=60, s-maxage=60` by default.
    public var cacheControl: String {
        get { state.cacheControl }
        set { state.cacheControl = newValue }
    }

    /// The `Age` header of user answers (none by default).
    public var age: Int? {
        get { state.age }
        set { state.age = newValue }
    }

    /// What `x-ratelimit-remaining` says on search answers (resource `search`; 29 by default).
    public var searchRateLimitRemaining: Int {
        get { search.rateLimitRemaining }
        set { search.rateLimitRemaining = newValue }
    }

    /// Queues faults for the next searches, one per request (`.status(422)`, `.rateLimitExceeded`, …).
    public func scriptSearch(_ faults: FakeGithubFault...) { search.script(faults) }

    // MARK: What was received

    /// The `q` of every `/search/users` request received, oldest first.
    public var searchQueries: [String] { search.receivedQueries }

    /// The requests received, oldest first (at most `logCapacity`).
    public var requests: [ReceivedRequest] { state.requests }

    /// Every API request received (avatar images are counted in `avatarRequestCount`).
    public var requestCount: Int { state.requestCount }

    /// `GET /avatars/u/{id}` requests received: the avatar images browsers loaded.
    public var avatarRequestCount: Int { state.avatarRequestCount }

    /// Requests received for `/users/{login}` (case-insensitive).
    public func requestCount(for login: String) -> Int { state.requestCount(for: login) }

    /// The logins `/users/{login}` was asked for at least once (case-insensitive).
    public var distinctLoginsRequested: Int { state.distinctLogins }

    /// Empties the log and the request counters.
    public func clearLog() {
        state.clearLog()
        search.clearLog()
    }

    /// Connections accepted since `start()`.
    public var connectionsOpened: Int { server.acceptedConnections }

    /// Connections closed since `start()`, by either side.
    public var connectionsClosed: Int { max(0, server.acceptedConnections - server.openConnections) }

    /// Connections open now.
    public var openConnections: Int { server.openConnections }
}
