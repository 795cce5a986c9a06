import FakeGithub
import Foundation
import HTTPTestSupport
import SharedState
import XCTest

@testable import ServiceApp

/// Two service replicas pointed at one Redis of the test's own (`redis.url`): a user replica A
/// fetched is served by replica B without a new request to GitHub, and a client's lookup
/// allowance is one across both.
final class ReplicasSharedStateTests: TwoReplicaTestCase {
    func testAUserFetchedThroughOneReplicaIsServedByTheOther() throws {
        let (redis, portB) = try startTwoReplicas()
        let portA = port

        let first = try TestHTTPClient(port: portA).request("GET /api/users/heckj HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        XCTAssertEqual(first.status, 200, first.text)
        let shared = RedisClient(configuration: redis)
        XCTAssertTrue(waitUntil { (try? shared.runAndWait(["EXISTS", "serviceapp:cache:heckj"]).get()) == .integer(1) }, "A shared it")
        let second = try TestHTTPClient(port: portB).request("GET /api/users/heckj HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        XCTAssertEqual(second.status, 200, second.text)
        XCTAssertTrue(second.text.contains(#""login":"heckj""#))
        XCTAssertTrue(second.header("Cache-Status")?.contains("hit") == true, "\(second.headers)")
        XCTAssertEqual(fake.requestCount(for: "heckj"), 1, "B answered from A's copy, without asking GitHub")
    }

    func testWithRedisDownReadinessSaysSoAndLookupsGoOn() throws {
        let redisPort = try startRedis()
        try startService { $0.redis.client = RedisClient.Configuration(port: Int(redisPort), timeout: .milliseconds(200)) }
        XCTAssertEqual(try get("/readyz").status, 200)
        // Available once its subscription for other replicas' landings is in place.
        XCTAssertTrue(waitUntil { (try? self.get("/readyz").text.contains(#""redis":"available""#)) == true }, "redis available")
        redis?.stop()
        XCTAssertEqual(try get("/api/users/heckj").status, 200, "no outage because of Redis")
        let degraded = try get("/readyz")
        XCTAssertEqual(degraded.status, 200, "still ready: this replica's own state serves")
        XCTAssertTrue(degraded.text.contains(#""redis":"unavailable""#), degraded.text)
        let metrics = try get("/metrics")
        XCTAssertTrue(metrics.text.contains(#"redis_errors_total{kind="connection"}"#), "redis_errors_total missing")
    }

    func testAClientsLookupAllowanceIsOneAcrossReplicas() throws {
        let portB = try startTwoReplicas { $0.fairUse.lookupsPerClientPerMinute = 2 }.portB
        func lookup(_ login: String, on port: UInt16, from source: String) throws -> TestResponse {
            try TestHTTPClient(port: port, source: source)
                .request("GET /api/users/\(login) HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        }
        XCTAssertEqual(try lookup("heckj", on: port, from: "127.0.0.2").status, 200)
        XCTAssertEqual(try lookup("heck", on: portB, from: "127.0.0.2").status, 200)
        let third = try lookup("hec", on: port, from: "127.0.0.2")
        XCTAssertEqual(third.status, 429, "A's own bucket has a token left, the shared one has none: \(third.text)")
        XCTAssertTrue(third.text.contains(#""error":"client_rate_limited""#), third.text)
        XCTAssertEqual(fake.requestCount(for: "hec"), 0)
        XCTAssertEqual(try lookup("hec", on: portB, from: "127.0.0.3").status, 200, "another client is unaffected")
    }

    func testAClientsSessionsAreCountedAcrossReplicas() throws {
        let portB = try startTwoReplicas { $0.fairUse.sessionsPerClient = 2 }.portB
        var first: EventClient? = try EventClient(port: port, source: "127.0.0.2")
        let second = try EventClient(port: portB, source: "127.0.0.2")
        let upgrade = TestWebSocketClient.upgradeRequest(path: "/ws", key: TestWebSocketClient.makeKey())
        let third = try TestHTTPClient(port: portB, source: "127.0.0.2").request(upgrade)
        XCTAssertEqual(third.status, 429, "one on A and one on B are the client's two: \(third.text)")
        XCTAssertTrue(third.text.contains(#""error":"too_many_sessions""#), third.text)
        XCTAssertEqual(try TestHTTPClient(port: port, source: "127.0.0.3").request(upgrade).status, 101, "another client")
        first = nil
        XCTAssertTrue(waitUntil {
            (try? TestHTTPClient(port: portB, source: "127.0.0.2").request(upgrade).status) == 101
        }, "A's closed session makes room on B")
        _ = (first, second)
    }
}
