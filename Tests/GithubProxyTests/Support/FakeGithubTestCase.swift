import FakeGithub
import Foundation
import GithubProxy
import HTTPTestSupport
import StreamCore
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A test case with a fake GitHub on loopback, and helpers to look users up against it.
class FakeGithubTestCase: XCTestCase {
    var fake: FakeGithub!
    var baseURL: URL!
    /// One libcurl client for the test (a fresh multi handle: no connection reuse across tests).
    var http: CurlHTTPClient!

    override func setUpWithError() throws {
        try super.setUpWithError()
        fake = FakeGithub()
        baseURL = try fake.start()
        http = CurlHTTPClient(configuration: .init(connectTimeout: .milliseconds(2_000), requestTimeout: .milliseconds(5_000)))
    }

    override func tearDown() {
        http = nil
        fake.stop()
        fake = nil
        super.tearDown()
    }

    /// A client of the fake, with quick retries (no jitter) unless told otherwise.
    func makeClient(
        token: String? = nil, retry: RetryPolicy = RetryPolicy(maxRetries: 2, baseDelay: .milliseconds(10), jitter: 0),
        scheduler: AnySchedulerOf<DispatchQueue> = DispatchQueue.global().eraseToAnyScheduler(),
        budget: RateLimitBudget = RateLimitBudget(), searchBudget: RateLimitBudget = RateLimitBudget(),
        cache: ResponseCache<GithubUser> = ResponseCache(size: GithubUser.estimatedBytes),
        searchCache: ResponseCache<GithubSearchPage> = ResponseCache(size: GithubSearchPage.estimatedBytes),
        gate: UpstreamGate = UpstreamGate(), events: GithubClientEvents = GithubClientEvents()
    ) -> GithubClient {
        GithubClient(
            configuration: .init(baseURL: baseURL, token: token, retry: retry), http: http, scheduler: scheduler,
            cache: cache, searchCache: searchCache, rateLimits: RateLimits(budgets: ["core": budget, "search": searchBudget]),
            gate: gate, events: events,
            random: { 0.5 }
        )
    }

    /// Runs `retrieveGithubUser` to completion and returns its single result.
    func lookup(_ username: String, with client: GithubClient, timeout: TimeInterval = 10) -> LookupResult? {
        let box = Box<[LookupResult]>([])
        let done = expectation(description: "lookup \(username)")
        let cancellable = client.retrieveGithubUser(username: username)
            .sink(receiveCompletion: { _ in done.fulfill() }, receiveValue: { value in box.mutate { $0.append(value) } })
        wait(for: [done], timeout: timeout)
        cancellable.cancel()
        XCTAssertLessThanOrEqual(box.value.count, 1, "retrieveGithubUser sends one result")
        return box.value.first
    }

    /// GETs `path` of the fake through the raw libcurl publisher; nil when nothing came back.
    func fetch(_ path: String, headers: [String: String] = [:]) -> Result<(data: Data, response: HTTPURLResponse), URLError>? {
        var request = URLRequest(url: baseURL.appendingPathComponent(path))
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let box = Box<Result<(data: Data, response: HTTPURLResponse), URLError>?>(nil)
        let done = expectation(description: path)
        let cancellable = http.dataTaskPublisher(for: request).sink(receiveCompletion: { completion in
            if case .failure(let error) = completion { box.mutate { $0 = .failure(error) } }
            done.fulfill()
        }, receiveValue: { output in box.mutate { $0 = .success(output) } })
        wait(for: [done], timeout: 10)
        cancellable.cancel()
        return box.value
    }

    /// The baseline of an easy-handle leak check: the process's live handles once earlier tests'
    /// transfers have let theirs go (a client released on its driver thread frees them there,
    /// after its test has ended).
    func easyHandleBaseline() -> Int {
        waitUntil(timeout: 10) { CurlHTTPClient.liveEasyHandles == 0 }
        return CurlHTTPClient.liveEasyHandles
    }

    /// Polls `condition` until it holds or `timeout` passes; returns whether it held.
    @discardableResult
    func waitUntil(timeout: TimeInterval = 5, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition() {
            if Date() > deadline { return false }
            usleep(5_000)
        }
        return true
    }
}
