import FakeGithub
import Foundation
import HTTPTestSupport
import GithubProxy
import StreamCore
import XCTest

/// Concurrent lookups of one login share one upstream request.
final class CoalescingTests: FakeGithubTestCase {
    func testConcurrentSubscribersShareOneRequest() {
        fake.script("heckj", .delay(.milliseconds(300)))
        let client = makeClient()
        let sessions = 25
        let results = Box<[LookupResult]>([])
        let cancellables = (0..<sessions).map { _ in
            client.retrieveGithubUser(username: "heckj").sink { value in results.mutate { $0.append(value) } }
        }
        XCTAssertTrue(waitUntil { results.value.count == sessions })
        XCTAssertEqual(fake.requestCount(for: "heckj"), 1)
        XCTAssertTrue(results.value.allSatisfy { $0.status == .found && $0.users.first?.publicRepos == 69 })
        cancellables.forEach { $0.cancel() }

        // Once it is done, a new lookup within max-age is served from the cache.
        XCTAssertEqual(lookup("heckj", with: client)?.status, .found)
        XCTAssertEqual(fake.requestCount(for: "heckj"), 1)
    }

    func testCoalescingIsCaseInsensitiveAndPerLogin() {
        fake.script("heckj", .delay(.milliseconds(300)))
        fake.script("heck", .delay(.milliseconds(300)))
        let client = makeClient()
        let results = Box<[LookupResult]>([])
        let cancellables = ["heckj", "HeckJ", "HECKJ", "heck", "Heck"].map { login in
            client.retrieveGithubUser(username: login).sink { value in results.mutate { $0.append(value) } }
        }
        XCTAssertTrue(waitUntil { results.value.count == 5 })
        XCTAssertEqual(fake.requestCount(for: "heckj"), 1)
        XCTAssertEqual(fake.requestCount(for: "heck"), 1)
        XCTAssertEqual(Set(results.value.map(\.query)), ["heckj", "HeckJ", "HECKJ", "heck", "Heck"])
        cancellables.forEach { $0.cancel() }
    }

    func testOneSubscriberCancellingDoesNotCancelTheSharedRequest() {
        fake.script("heckj", .delay(.milliseconds(300)))
        let client = makeClient()
        let results = Box<[LookupResult]>([])
        let leaving = client.retrieveGithubUser(username: "heckj").sink { _ in XCTFail("cancelled") }
        let staying = client.retrieveGithubUser(username: "heckj").sink { value in results.mutate { $0.append(value) } }
        XCTAssertTrue(waitUntil { fake.requestCount == 1 })
        leaving.cancel()
        XCTAssertTrue(waitUntil { results.value.count == 1 })
        XCTAssertEqual(results.value.first?.status, .found)
        XCTAssertEqual(fake.requestCount, 1)
        XCTAssertEqual(fake.connectionsClosed, 0)
        staying.cancel()
    }

    func testEverySubscriberCancellingCancelsTheUpstreamRequest() {
        fake.script("heckj", .delay(.milliseconds(10_000)))
        let client = makeClient()
        let subscribers = (0..<5).map { _ in client.retrieveGithubUser(username: "heckj").sink { _ in XCTFail("cancelled") } }
        XCTAssertTrue(waitUntil { fake.requestCount == 1 && fake.openConnections == 1 })
        subscribers.forEach { $0.cancel() }
        XCTAssertTrue(waitUntil(timeout: 3) { fake.connectionsClosed == 1 }, "the fake sees the connection close")
    }
}
