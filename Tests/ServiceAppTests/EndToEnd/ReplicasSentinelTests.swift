import FakeGithub
import Foundation
import HTTPTestSupport
import SharedState
import XCTest

@testable import ServiceApp

/// Two service replicas configured with `redis.sentinels` (a master, a replica and three
/// sentinels of the test's own): they share state through the master the sentinels name, say so
/// in `/readyz`, and share again through the new master once the old one is killed. With no
/// sentinel answering, `/readyz` says no master is known and lookups go on with local state.
final class ReplicasSentinelTests: TwoReplicaTestCase {
    private var group: RedisSentinelGroup?

    override func tearDown() {
        super.tearDown()
        group = nil
    }

    private func sentinelConfiguration(_ addresses: [String], password: String? = nil) -> RedisClient.Configuration {
        var configuration = RedisClient.Configuration(host: "", port: 0, password: password, timeout: .milliseconds(250))
        configuration.sentinels = RedisSentinels(addresses: addresses.compactMap(RedisAddress.init), masterName: "mymaster")
        return configuration
    }

    private func lookup(_ login: String, on port: UInt16) throws -> TestResponse {
        try TestHTTPClient(port: port).request("GET /api/users/\(login) HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
    }

    func testReplicasShareThroughTheMasterTheSentinelsNameBeforeAndAfterAFailover() throws {
        fake.answersAnyLogin = true  // every login the test makes up exists
        let group = try RedisSentinelGroup(password: "data-pw")
        self.group = group
        let portB = try startTwoReplicas(sharing: sentinelConfiguration(group.sentinelAddresses, password: "data-pw")) {
            $0.fairUse.lookupsPerClientPerMinute = 1_000_000  // the test's one client looks up many logins
        }
        for replica in [port, portB] {
            XCTAssertTrue(waitUntil(timeout: 10) {
                let text = (try? TestHTTPClient(port: replica)
                    .request("GET /readyz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n").text) ?? ""
                return text.contains(#""redis":"available""#) && text.contains(#""redisMaster":"known""#)
            }, "replica on \(replica) found the master")
        }
        XCTAssertEqual(try lookup("heckj", on: port).status, 200)
        XCTAssertTrue(waitUntil { (try? self.lookup("heckj", on: portB).header("Cache-Status"))?.contains("hit") == true })
        XCTAssertEqual(fake.requestCount(for: "heckj"), 1, "B answered from A's copy")

        group.master.stop()
        // Meanwhile lookups go on (local state at worst); then the shared cache works again
        // through the promoted replica: a login fetched by A is a hit on B.
        var failed: [Int?] = []
        var index = 0
        XCTAssertTrue(waitUntil(timeout: 30) {
            index += 1
            let login = "after\(index)"
            let status = try? self.lookup(login, on: self.port).status
            guard status == 200 else { failed.append(status); return false }
            return waitUntil(timeout: 0.5) { (try? self.lookup(login, on: portB).header("Cache-Status"))?.contains("hit") == true }
        }, "shared state works again after the failover")
        XCTAssertEqual(failed, [], "no lookup failed during the failover")
        XCTAssertEqual(try lookup("heckj", on: portB).status, 200)
    }

    func testWithNoSentinelAnsweringReadinessSaysNoMasterAndLookupsGoOn() throws {
        let unused = try (0..<3).map { _ in "127.0.0.1:\(try unusedLoopbackPort())" }
        try startService { $0.redis.client = self.sentinelConfiguration(unused) }
        let ready = try get("/readyz")
        XCTAssertEqual(ready.status, 200, "degraded, still ready: this replica's own state serves")
        XCTAssertTrue(ready.text.contains(#""redis":"unavailable""#), ready.text)
        XCTAssertTrue(ready.text.contains(#""redisMaster":"unknown""#), ready.text)
        XCTAssertEqual(try get("/api/users/heckj").status, 200, "no outage because of Redis")
    }
}
