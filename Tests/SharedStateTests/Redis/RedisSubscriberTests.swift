import Foundation
import HTTPTestSupport
import SharedState
import XCTest

/// The landing channel's subscriber against a real `redis-server`: messages arrive, and a
/// connection that goes silent (Redis stalled, or a peer gone without a reset) is noticed by its
/// unanswered `PING` and made again.
final class RedisSubscriberTests: XCTestCase {
    private var server: RedisServerProcess!

    override func setUpWithError() throws {
        try super.setUpWithError()
        server = try RedisServerProcess()
    }

    override func tearDown() {
        server = nil
        super.tearDown()
    }

    func testMessagesArriveAndASilentConnectionIsMadeAgain() throws {
        let configuration = RedisClient.Configuration(port: Int(server.port), poolSize: 1, timeout: .milliseconds(300))
        let received = Box<[String]>([])
        let subscriber = RedisSubscriber(configuration: configuration, channel: "landed", pingInterval: .milliseconds(200)) { payload in
            received.mutate { $0.append(String(decoding: payload, as: UTF8.self)) }
        }
        defer { subscriber.stop() }
        let client = RedisClient(configuration: configuration)
        XCTAssertTrue(waitUntil { subscriber.isSubscribed })
        XCTAssertEqual(try client.runAndWait(["PUBLISH", "landed", "heckj"]).get(), .integer(1))
        XCTAssertTrue(waitUntil { received.value == ["heckj"] })

        // Redis answers nobody for 4 s: the quiet connection's PING goes unanswered.
        XCTAssertEqual(try client.runAndWait(["CLIENT", "PAUSE", "4000", "ALL"]).get(), .status("OK"))
        XCTAssertTrue(waitUntil(timeout: 3.5) { !subscriber.isSubscribed }, "given up within two ping intervals")
        XCTAssertTrue(waitUntil(timeout: 10) { subscriber.isSubscribed }, "subscribed again once Redis answers")
        XCTAssertEqual(try client.runAndWait(["PUBLISH", "landed", "orta"]).get(), .integer(1))
        XCTAssertTrue(waitUntil { received.value == ["heckj", "orta"] })
    }
}
