import Dispatch
import Foundation
import HTTPServer
import Locking

/// The fake's fixtures, scripts and log, shared by its request handlers (any loop thread) and
/// the test driving it.
final class FakeGithubState: Sendable {
    private struct State: Sendable {
        var users: [String: FakeGithubUser] = [:]
        var scripts: [String: [FakeGithubFault]] = [:]
        var persistent: [String: FakeGithubFault] = [:]
        var log: [ReceivedRequest] = []
        var counts: [String: Int] = [:]
        var total = 0
        var remaining = 4_999
        var fallbackFault: FakeGithubFault?
        var anyLogin = false
        var userCacheControl = "private, max-age=60, s-maxage=60"
        var userAge: Int?
        var baseURL = "http://127.0.0.1"
        /// The logins of the synthetic users answered, by id, for their avatars' initials.
        var syntheticLogins: [Int: String] = [:]
        var avatarRequests = 0

        /// Logs `request`, keeping the newest `capacity` (none when 0).
        mutating func append(_ request: ReceivedRequest, capacity: Int) {
            guard capacity > 0 else { return }
            if log.count >= capacity { log.removeFirst(log.count - capacity + 1) }
            log.append(request)
        }
    }
    private let state: Locked<State>
    private let logCapacity: Int
    private let trickleQueue = DispatchQueue(label: "fakegithub.trickle")
    /// What `x-ratelimit-remaining` says on normal answers.
    var rateLimitRemaining: Int {
        get { state.withLock { $0.remaining } }
        set { state.withLock { $0.remaining = newValue } }
    }
    /// The fault of every login that has no fault of its own.
    var defaultFault: FakeGithubFault? {
        get { state.withLock { $0.fallbackFault } }
        set { state.withLock { $0.fallbackFault = newValue } }
    }
    /// Whether a valid login without a fixture answers a synthetic user rather than 404.
    var answersAnyLogin: Bool {
        get { state.withLock { $0.anyLogin } }
        set { state.withLock { $0.anyLogin = newValue } }
    }
    /// The `Cache-Control` of user answers (`200`, `304`).
    var cacheControl: String {
        get { state.withLock { $0.userCacheControl } }
        set { state.withLock { $0.userCacheControl = newValue } }
    }
    /// The `Age` header of user answers, when set.
    var age: Int? {
        get { state.withLock { $0.userAge } }
        set { state.withLock { $0.userAge = newValue } }
    }

    /// The fake's own base URL (`http://127.0.0.1:PORT` once it listens), in `avatar_url`s.
    var baseURL: String {
        get { state.withLock { $0.baseURL } }
        set { state.withLock { $0.baseURL = newValue } }
    }
    /// The synthetic users' logins remembered for their avatars: at most this many.
    static let syntheticLoginCapacity = 10_000

    init(users: [FakeGithubUser], logCapacity: Int) {
        self.logCapacity = max(0, logCapacity)
        var initial = State()
        for user in users { initial.users[user.login.lowercased()] = user }
        state = Locked(initial)
    }

    // MARK: Set-up

    func put(_ user: FakeGithubUser) {
        state.withLock { state in
            var user = user
            if let old = state.users[user.login.lowercased()] { user.version = old.version + 1 }
            state.users[user.login.lowercased()] = user
        }
    }

    func remove(login: String) { _ = state.withLock { $0.users.removeValue(forKey: login.lowercased()) } }

    func script(_ login: String, _ faults: [FakeGithubFault]) {
        state.withLock { $0.scripts[login.lowercased(), default: []].append(contentsOf: faults) }
    }

    func setFault(_ fault: FakeGithubFault?, for login: String) {
        state.withLock { $0.persistent[login.lowercased()] = fault }
    }

    /// Every fixture user, for the search endpoint.
    var allUsers: [FakeGithubUser] { state.withLock { Array($0.users.values) } }

    /// Logs a request that is not for `/users/{login}`.
    func record(_ request: HTTPRequest) {
        state.withLock { state in
            state.total += 1
            state.append(ReceivedRequest(method: request.method.rawValue, path: request.path, headers: request.headers, login: nil), capacity: logCapacity)
        }
    }

    /// Counts an avatar request and gives the login of user `id`: a fixture's, or a synthetic
    /// user's answered before (nil for any other id).
    func avatarLogin(id: Int) -> String? {
        state.withLock { state in
            state.avatarRequests += 1
            return state.users.values.first { $0.id == id }?.login ?? state.syntheticLogins[id]
        }
    }

    /// `GET /avatars/u/{id}` requests received (not in `requests`: they are not API requests).
    var avatarRequestCount: Int { state.withLock { $0.avatarRequests } }

    // MARK: Log

    var requests: [ReceivedRequest] { state.withLock { $0.log } }
    var requestCount: Int { state.withLock { $0.total } }
    func requestCount(for login: String) -> Int { state.withLock { $0.counts[login.lowercased()] ?? 0 } }
    var distinctLogins: Int { state.withLock { $0.counts.count } }

    func clearLog() {
        state.withLock { state in
            state.log = []
            state.counts = [:]
            state.total = 0
            state.avatarRequests = 0
        }
    }

    // MARK: Answering

    /// Logs `request` and answers it: its scripted fault if any (else its persistent one, else the
    /// default one), then the fixture, a synthetic user (`answersAnyLogin`) or a 404.
    ///
    /// `hold` is how long to wait before sending an answer that has no body to
    /// trickle (a `304` or `404` under a `.delay` fault), so those are as slow as the rest.
    func respond(to request: HTTPRequest, login: String?) -> (response: HTTPResponse, hold: Duration) {
        let key = login?.lowercased()
        let (user, fault, remaining, cacheControl, age, baseURL) = state.withLock {
            state -> (FakeGithubUser?, FakeGithubFault?, Int, String, Int?, String) in
            state.total += 1
            state.append(ReceivedRequest(method: request.method.rawValue, path: request.path, headers: request.headers, login: login), capacity: logCapacity)
            guard let key else { return (nil, nil, state.remaining, state.userCacheControl, state.userAge, state.baseURL) }
            state.counts[key, default: 0] += 1
            var fault = state.persistent[key] ?? state.fallbackFault
            if var queued = state.scripts[key], !queued.isEmpty {
                fault = queued.removeFirst()
                state.scripts[key] = queued
            }
            var user = state.users[key]
            if user == nil, state.anyLogin, let synthetic = FakeGithubUser.synthetic(login: login ?? key) {
                user = synthetic
                if state.syntheticLogins.count < Self.syntheticLoginCapacity || state.syntheticLogins[synthetic.id] != nil {
                    state.syntheticLogins[synthetic.id] = synthetic.login
                }
            }
            return (user, fault, state.remaining, state.userCacheControl, state.userAge, state.baseURL)
        }
        var headers = Self.rateLimitHeaders(remaining: remaining, resetIn: 3_600)
        var hold = Duration.zero
        if case .delay(let delay)? = fault { hold = max(.zero, delay) }
        switch fault {
        case .status(let code)?:
            return (Self.error(code, headers: headers), .zero)
        case .rateLimited(let status, let retryAfter, let resetIn)?:
            headers = Self.rateLimitHeaders(remaining: 0, resetIn: resetIn)
            if let retryAfter { headers.set("Retry-After", String(retryAfter)) }
            return (Self.error(status, message: "API rate limit exceeded for 127.0.0.1.", headers: headers), .zero)
        case .secondaryRateLimited(let status, let retryAfter)?:
            return (Self.secondaryLimit(status: status, retryAfter: retryAfter, headers: headers), .zero)
        case .invalidJSON?:
            headers.set("Content-Type", "application/json; charset=utf-8")
            return (HTTPResponse(status: .ok, headers: headers, body: .bytes(Array("<html>unicorn</html>".utf8))), .zero)
        case nil, .delay?, .resetMidBody?:
            break
        }
        guard let user else { return (Self.error(404, headers: headers), hold) }
        headers.set("ETag", user.etag)
        headers.set("Cache-Control", cacheControl)
        if let age { headers.set("Age", String(age)) }
        if let tags = request.headers["If-None-Match"],
           tags.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == user.etag }) {
            return (HTTPResponse(status: .notModified, headers: headers), hold)
        }
        headers.set("Content-Type", "application/json; charset=utf-8")
        let body = user.json(baseURL: baseURL)
        switch fault {
        case .delay(let delay)?:
            let queue = trickleQueue
            let deadline = ContinuousClock.now + delay
            return (HTTPResponse(status: .ok, headers: headers, body: .stream { writer in
                Self.trickle(body, to: writer, until: deadline, on: queue)
            }), .zero)
        case .resetMidBody?:
            return (HTTPResponse(status: .ok, headers: headers, body: .stream { writer in
                writer.write(Array(body.prefix(body.count / 2)))
                writer.abort()
            }), .zero)
        default:
            return (HTTPResponse(status: .ok, headers: headers, body: .bytes(body)), .zero)
        }
    }

    /// Writes a space every 50 ms until `deadline`, then `body`.
    private static func trickle(
        _ body: [UInt8], to writer: ResponseBodyWriter, until deadline: ContinuousClock.Instant, on queue: DispatchQueue
    ) {
        let now = ContinuousClock.now
        guard now < deadline else {
            writer.write(body)
            writer.finish()
            return
        }
        writer.write([0x20])
        let pause = min(deadline - now, .milliseconds(50))
        queue.asyncAfter(deadline: .now() + .nanoseconds(Int(pause / .nanoseconds(1)))) {
            trickle(body, to: writer, until: deadline, on: queue)
        }
    }

    /// GitHub's secondary-limit answer: quota left, but "exceeded a secondary rate limit".
    static func secondaryLimit(status: Int, retryAfter: Int?, headers: HTTPHeaders) -> HTTPResponse {
        var headers = headers
        if let retryAfter { headers.set("Retry-After", String(retryAfter)) }
        return error(
            status, message: "You have exceeded a secondary rate limit. Please wait a few minutes before you try again.",
            headers: headers
        )
    }

    /// GitHub's rate-limit headers for `resource`.
    static func rateLimitHeaders(limit: Int = 5_000, remaining: Int, resetIn: Int, resource: String = "core") -> HTTPHeaders {
        let reset = Int(Date().timeIntervalSince1970) + resetIn
        return [
            "x-ratelimit-limit": String(limit), "x-ratelimit-remaining": String(max(0, remaining)),
            "x-ratelimit-reset": String(reset), "x-ratelimit-used": String(max(0, limit - remaining)),
            "x-ratelimit-resource": resource,
        ]
    }

    /// GitHub's error answer: `{"message": …, "documentation_url": …, "status": …}`.
    static func error(_ code: Int, message: String? = nil, headers: HTTPHeaders = [:]) -> HTTPResponse {
        let reason = reasons[code] ?? "Error"
        let text = message ?? reason
        let json = #"{"message":"\#(text)","documentation_url":"https://docs.github.com/rest/users/users#get-a-user","status":"\#(code)"}"#
        var headers = headers
        headers.set("Content-Type", "application/json; charset=utf-8")
        return HTTPResponse(status: HTTPStatus(code, reason), headers: headers, body: .bytes(Array(json.utf8)))
    }

    private static let reasons = [
        400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 422: "Unprocessable Entity",
        429: "Too Many Requests", 500: "Internal Server Error", 502: "Bad Gateway", 503: "Service Unavailable",
        504: "Gateway Timeout",
    ]
}
