import Foundation
import HTTPTestSupport
import SharedState
import XCTest

/// The client with `redis.sentinels` against real processes on loopback: a master, its replica
/// and three `redis-sentinel`s (quorum 2, master down after 1 s). The client asks the sentinels
/// for the master, follows the failover when the master is killed — the pool and the subscriber
/// alike — and has no master (unavailable) while no sentinel answers.
final class SentinelTests: XCTestCase {
    private var group: RedisSentinelGroup!
    private var master: RedisServerProcess { group.master }
    private var replica: RedisServerProcess { group.replica }
    private var sentinels: [RedisServerProcess] = []

    override func tearDown() {
        sentinels = []
        group = nil
        super.tearDown()
    }

    private func startGroup(password: String? = nil, sentinelPassword: String? = nil) throws {
        group = try RedisSentinelGroup(password: password, sentinelPassword: sentinelPassword)
        sentinels = group.sentinels
    }

    private func client(sentinelPassword: String? = nil, password: String? = nil, pingInterval: Duration = .seconds(1)) -> RedisClient {
        var configuration = RedisClient.Configuration(password: password, poolSize: 2, timeout: .milliseconds(300))
        configuration.sentinels = RedisSentinels(
            addresses: sentinels.map { RedisAddress(host: "127.0.0.1", port: Int($0.port)) }, masterName: "mymaster",
            password: sentinelPassword, pingInterval: pingInterval)
        return RedisClient(configuration: configuration)
    }

    func testTheClientAndItsSubscriberFollowAFailover() throws {
        try startGroup(password: "data-pw")
        let client = client(password: "data-pw")
        defer { client.stopFollowingMaster() }
        XCTAssertTrue(waitUntil(timeout: 10) { client.master?.port == Int(self.master.port) }, "the sentinels named the master")
        XCTAssertEqual(try client.runAndWait(["SET", "before", "1"]).get(), .status("OK"))
        let received = Box<[String]>([])
        let subscriber = RedisSubscriber(client: client, channel: "landed", pingInterval: .seconds(1)) { payload in
            received.mutate { $0.append(String(decoding: payload, as: UTF8.self)) }
        }
        defer { subscriber.stop() }
        XCTAssertTrue(waitUntil { subscriber.isSubscribed })
        XCTAssertEqual(try client.runAndWait(["PUBLISH", "landed", "one"]).get(), .integer(1))
        XCTAssertTrue(waitUntil { received.value == ["one"] })
        XCTAssertTrue(waitUntil { (try? client.runAndWait(["WAIT", "1", "1000"]).get()) == .integer(1) }, "replicated")

        let killed = Date()
        master.stop()
        XCTAssertTrue(waitUntil(timeout: 30) { client.master?.port == Int(self.replica.port) }, "followed +switch-master")
        XCTAssertTrue(waitUntil(timeout: 10) { (try? client.runAndWait(["SET", "after", "2"]).get()) == .status("OK") },
                      "writes go to the new master")
        let seconds = Date().timeIntervalSince(killed)
        XCTAssertEqual(try client.runAndWait(["GET", "before"]).get().text, "1", "the replicated key survived")
        XCTAssertTrue(client.isAvailable)
        XCTAssertTrue(waitUntil(timeout: 10) {
            subscriber.isSubscribed && (try? client.runAndWait(["PUBLISH", "landed", "two"]).get()) == .integer(1)
        }, "the subscriber moved to the new master")
        XCTAssertTrue(waitUntil { received.value.last == "two" })
        // down-after 1 s, then the sentinels' election and promotion; the client adds its switch.
        XCTAssertLessThan(seconds, 20, "writes work again \(seconds) s after the master was killed")
        if let log = ProcessInfo.processInfo.environment["FAILOVER_SECONDS_FILE"] {
            try? Data(String(format: "%.2f\n", seconds).utf8).write(to: URL(fileURLWithPath: log))
        }
    }

    func testWithTheFollowedSentinelGoneTheFailoverIsHeardFromAnother() throws {
        try startGroup()
        let client = client()
        defer { client.stopFollowingMaster() }
        XCTAssertTrue(waitUntil(timeout: 10) { client.master?.port == Int(self.master.port) })
        // The client asked (and follows) the first sentinel; it goes, then the master goes. The
        // two sentinels left are a quorum; the client, its sentinel gone, asks the next.
        sentinels[0].stop()
        master.stop()
        XCTAssertTrue(waitUntil(timeout: 30) { client.master?.port == Int(self.replica.port) }, "followed through another sentinel")
        XCTAssertTrue(waitUntil(timeout: 10) { (try? client.runAndWait(["SET", "k", "v"]).get()) == .status("OK") })
    }

    func testAFailedMasterMakesTheClientAskAgainWhenItsSentinelSaysNothing() throws {
        try startGroup()
        // A ping interval longer than the test: only a failed command can make the client ask.
        let client = client(pingInterval: .seconds(600))
        defer { client.stopFollowingMaster() }
        XCTAssertTrue(waitUntil(timeout: 10) { client.master?.port == Int(self.master.port) })
        // The followed sentinel hangs (its connection open, silent): no +switch-master will come.
        sentinels[0].pause()
        defer { sentinels[0].resume() }
        master.stop()
        // Commands fail on the dead master; the client asks its sentinel again (which times out),
        // then the next, which names the promoted replica.
        XCTAssertTrue(waitUntil(timeout: 30) {
            _ = client.runAndWait(["PING"])
            return client.master?.port == Int(self.replica.port)
        }, "asked again after the master failed")
        XCTAssertTrue(waitUntil(timeout: 10) { (try? client.runAndWait(["SET", "k", "v"]).get()) == .status("OK") })
    }

    func testTheSentinelsPasswordIsSentAndAWrongOneLeavesNoMaster() throws {
        try startGroup(sentinelPassword: "sentinel-pw")
        let wrong = client(sentinelPassword: "not-it")
        defer { wrong.stopFollowingMaster() }
        let right = client(sentinelPassword: "sentinel-pw")
        defer { right.stopFollowingMaster() }
        XCTAssertTrue(waitUntil(timeout: 10) { right.master?.port == Int(self.master.port) })
        XCTAssertEqual(try right.runAndWait(["PING"]).get(), .status("PONG"))
        XCTAssertNil(wrong.master, "no sentinel accepted the wrong password")
        guard case .failure(.connection(let reason)) = wrong.runAndWait(["PING"]) else { return XCTFail("no master, no command") }
        XCTAssertTrue(reason.contains("no master known"), reason)
        XCTAssertFalse(wrong.isAvailable)
    }

    func testWithoutSentinelsTheClientHasNoMasterUntilOneAnswers() throws {
        let master = try RedisServerProcess()
        // Sentinels on ports nobody listens on: the client rests and asks again, degraded meanwhile.
        var configuration = RedisClient.Configuration(poolSize: 1, timeout: .milliseconds(200))
        let unused = try (0..<2).map { _ in RedisAddress(host: "127.0.0.1", port: Int(try unusedLoopbackPort())) }
        configuration.sentinels = RedisSentinels(addresses: unused, masterName: "mymaster")
        let lonely = RedisClient(configuration: configuration)
        defer { lonely.stopFollowingMaster() }
        XCTAssertNil(lonely.master)
        XCTAssertFalse(lonely.isAvailable)
        guard case .failure(.connection) = lonely.runAndWait(["PING"]) else { return XCTFail("no master, no command") }

        // A sentinel that knows the master, on a port the client asks: found on its next round.
        sentinels = [try RedisServerProcess.sentinel(masterName: "mymaster", masterPort: master.port, quorum: 1)]
        configuration.sentinels?.addresses.append(RedisAddress(host: "127.0.0.1", port: Int(sentinels[0].port)))
        let found = RedisClient(configuration: configuration)
        defer { found.stopFollowingMaster() }
        XCTAssertTrue(waitUntil(timeout: 10) { found.master?.port == Int(master.port) }, "the third sentinel answered")
        XCTAssertEqual(try found.runAndWait(["PING"]).get(), .status("PONG"))
    }
}
