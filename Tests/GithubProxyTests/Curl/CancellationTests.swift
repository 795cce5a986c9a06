import FakeGithub
import Foundation
import HTTPTestSupport
import GithubProxy
import StreamCore
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Cancelling aborts the transfer: the fake sees the connection close long before its answer.
final class CancellationTests: FakeGithubTestCase {
    func testCancelledDataTaskClosesTheConnection() {
        fake.setFault(.delay(.milliseconds(10_000)), for: "heckj")
        let cancellable = http.dataTaskPublisher(for: baseURL.appendingPathComponent("users/heckj"))
            .sink(receiveCompletion: { _ in XCTFail("no completion after cancel") }, receiveValue: { _ in XCTFail("no value") })
        XCTAssertTrue(waitUntil { fake.requestCount == 1 && fake.openConnections == 1 })
        let cancelled = Date()
        cancellable.cancel()
        XCTAssertTrue(waitUntil(timeout: 3) { fake.connectionsClosed == 1 })
        XCTAssertLessThan(Date().timeIntervalSince(cancelled), 3, "seen as a closed connection, not at the end of the delay")
        XCTAssertEqual(fake.openConnections, 0)
    }

    func testCancelledLookupClosesTheConnectionAndEndsTheActivity() {
        fake.setFault(.delay(.milliseconds(10_000)), for: "heckj")
        let client = makeClient()
        let activity = NetworkActivity()
        let states = Box<[Bool]>([])
        let watching = activity.publisher.sink { value in states.mutate { $0.append(value) } }
        let cancellable = client.retrieveGithubUser(username: "heckj", activity: activity).sink { _ in XCTFail("cancelled") }
        XCTAssertTrue(waitUntil { fake.requestCount == 1 && fake.openConnections == 1 })
        cancellable.cancel()
        XCTAssertTrue(waitUntil(timeout: 3) { fake.connectionsClosed == 1 })
        XCTAssertEqual(states.value, [true, false])
        watching.cancel()
    }

    func testCancelBeforeDemandSendsNothing() {
        let subscriber = Box<Subscription?>(nil)
        http.dataTaskPublisher(for: baseURL.appendingPathComponent("users/heckj")).subscribe(AnySubscriber(
            receiveSubscription: { subscription in subscriber.mutate { $0 = subscription } },
            receiveValue: { _ in .none }, receiveCompletion: { _ in }))
        subscriber.value?.cancel()
        subscriber.value?.request(.unlimited)
        usleep(200_000)
        XCTAssertEqual(fake.requestCount, 0)
    }

    func testConnectionIsReusedAfterACompletedRequestButNotAfterACancelledOne() {
        XCTAssertEqual(lookup("heck", with: makeClient())?.status, .found)
        XCTAssertEqual(fake.connectionsOpened, 1)
        fake.setFault(.delay(.milliseconds(10_000)), for: "heckj")
        let cancellable = makeClient().retrieveGithubUser(username: "heckj").sink { _ in }
        XCTAssertTrue(waitUntil { fake.requestCount == 2 })
        cancellable.cancel()
        XCTAssertTrue(waitUntil(timeout: 3) { fake.connectionsClosed == 1 })
        XCTAssertEqual(lookup("hec", with: makeClient())?.status, .found)
        XCTAssertEqual(fake.connectionsOpened, 2, "a new connection after the aborted one")
    }
}
