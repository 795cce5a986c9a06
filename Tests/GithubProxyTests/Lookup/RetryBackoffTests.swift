import FakeGithub
import Foundation
import HTTPTestSupport
import GithubProxy
import StreamCore
import XCTest

/// Retries happen only when the backoff delay has passed on the client's scheduler: on a test
/// scheduler, nothing is re-sent until the test advances virtual time.
final class RetryBackoffTests: FakeGithubTestCase {
    func testTwo503sThenSuccessWaitsForEachBackoffOnVirtualTime() {
        let scheduler = DispatchQueue.test
        let retries = Box<[GithubError]>([])
        let events = GithubClientEvents(onRetry: { _, error in retries.mutate { $0.append(error) } })
        // random = 0.5 and jitter 0.5: delays are 200·(1 − 0.25) = 150 ms, then 400·0.75 = 300 ms.
        let policy = RetryPolicy(maxRetries: 2, baseDelay: .milliseconds(200), maxDelay: .milliseconds(5_000), jitter: 0.5)
        XCTAssertEqual(policy.delay(beforeRetry: 0, random: 0.5), .milliseconds(150))
        XCTAssertEqual(policy.delay(beforeRetry: 1, random: 0.5), .milliseconds(300))
        let client = makeClient(retry: policy, scheduler: scheduler.eraseToAnyScheduler(), events: events)
        fake.script("heckj", .status(503), .status(503))

        let results = Box<[LookupResult]>([])
        let cancellable = client.retrieveGithubUser(username: "heckj").sink { value in results.mutate { $0.append(value) } }
        defer { cancellable.cancel() }

        // First attempt fails; its retry waits on the scheduler.
        XCTAssertTrue(waitUntil { fake.requestCount == 1 && scheduler.pendingCount == 1 })
        scheduler.advance(by: .milliseconds(149))
        usleep(200_000)  // real time passes; virtual time does not
        XCTAssertEqual(fake.requestCount, 1, "no retry before the 150 ms backoff")
        scheduler.advance(by: .milliseconds(1))
        XCTAssertTrue(waitUntil { fake.requestCount == 2 && scheduler.pendingCount == 1 })

        // Second failure: the backoff doubles.
        scheduler.advance(by: .milliseconds(299))
        usleep(200_000)
        XCTAssertEqual(fake.requestCount, 2, "no retry before the 300 ms backoff")
        XCTAssertTrue(results.value.isEmpty)
        scheduler.advance(by: .milliseconds(1))
        XCTAssertTrue(waitUntil { results.value.count == 1 })

        XCTAssertEqual(results.value.first?.status, .found)
        XCTAssertEqual(fake.requestCount(for: "heckj"), 3, "three attempts in all")
        XCTAssertEqual(retries.value, [.unavailable("HTTP 503"), .unavailable("HTTP 503")])
        XCTAssertEqual(scheduler.pendingCount, 0)
    }

    func testGivesUpAfterMaxRetriesWithoutAFourthAttempt() {
        let scheduler = DispatchQueue.test
        let client = makeClient(
            retry: RetryPolicy(maxRetries: 2, baseDelay: .milliseconds(100), jitter: 0), scheduler: scheduler.eraseToAnyScheduler())
        fake.setFault(.status(500), for: "heckj")
        let results = Box<[LookupResult]>([])
        let cancellable = client.retrieveGithubUser(username: "heckj").sink { value in results.mutate { $0.append(value) } }
        defer { cancellable.cancel() }
        // Advance by exactly each backoff (100 ms, then 200 ms): the retry fires at the end of the
        // window, so the next attempt's backoff, scheduled from the curl thread when its answer
        // comes, always lands past it. (Advancing by a second let a fast answer schedule the next
        // backoff while `advance` was still running, inside the window, and it ran at once.)
        for (attempt, backoff) in [(1, 100), (2, 200)] {
            XCTAssertTrue(waitUntil { fake.requestCount == attempt && scheduler.pendingCount == 1 }, "attempt \(attempt)")
            scheduler.advance(by: .milliseconds(backoff))
        }
        XCTAssertTrue(waitUntil { results.value.count == 1 })
        XCTAssertEqual(results.value.first?.status, .unavailable)
        XCTAssertEqual(fake.requestCount, 3)
        XCTAssertEqual(scheduler.pendingCount, 0)
    }

    func testCancellingDuringTheBackoffSendsNoRetry() {
        let scheduler = DispatchQueue.test
        let client = makeClient(
            retry: RetryPolicy(maxRetries: 2, baseDelay: .milliseconds(100), jitter: 0), scheduler: scheduler.eraseToAnyScheduler())
        fake.setFault(.status(503), for: "heckj")
        let cancellable = client.retrieveGithubUser(username: "heckj").sink { _ in XCTFail("cancelled lookups send nothing") }
        XCTAssertTrue(waitUntil { fake.requestCount == 1 && scheduler.pendingCount == 1 })
        cancellable.cancel()
        scheduler.advance(by: .seconds(10))
        usleep(200_000)
        XCTAssertEqual(fake.requestCount, 1)
    }
}
