import FakeGithub
import Foundation
import GithubProxy
import HTTPTestSupport
import XCTest

/// The replicas as they are deployed (`Cluster`: two processes, Redis, nginx, the fake GitHub):
/// what one replica does for a login, the other does not do again, and losing a replica or
/// Redis loses no lookup. `make cluster-test` runs these alone.
final class ClusterTests: XCTestCase {
    private var cluster: Cluster!

    override func setUpWithError() throws {
        try super.setUpWithError()
        cluster = try Cluster()
    }

    override func tearDown() {
        cluster = nil
        super.tearDown()
    }

    private var a: Cluster.Replica { cluster.replicas[0] }
    private var b: Cluster.Replica { cluster.replicas[1] }

    /// One session per port types `login` at once; returns each session's result.
    private func typeAtOnce(_ login: String, on ports: [UInt16]) throws -> [WireEvent] {
        let sessions = try ports.map { try EventClient(port: $0) }
        for session in sessions { try session.input(login) }
        return try sessions.map { try $0.result(for: login, timeout: 15) }
    }

    func testOneLoginTypedOnBothReplicasAtOnceIsOneUpstreamRequest() throws {
        cluster.fake.setFault(.delay(.milliseconds(1_500)), for: "heckj")
        let results = try typeAtOnce("heckj", on: [a.port, b.port, a.port, b.port])
        XCTAssertEqual(results.map(\.status), ["found", "found", "found", "found"])
        XCTAssertEqual(results.map { $0.users?.first?.public_repos }, [69, 69, 69, 69])
        XCTAssertEqual(cluster.fake.requestCount(for: "heckj"), 1, "one replica asked GitHub; the other took its answer from Redis")
    }

    func testAUserCachedByOneReplicaIsServedByTheOtherWithoutANewRequest() throws {
        XCTAssertEqual(try Cluster.get("/api/users/heckj", port: a.port).status, 200)
        let redis = cluster.redisClient()
        XCTAssertTrue(waitUntil { (try? redis.runAndWait(["EXISTS", "serviceapp:cache:heckj"]).get()) == .integer(1) })
        let fromB = try Cluster.get("/api/users/heckj", port: b.port)
        XCTAssertEqual(fromB.status, 200, fromB.text)
        XCTAssertTrue(fromB.header("Cache-Status")?.contains("hit") == true, "\(fromB.headers)")
        XCTAssertEqual(cluster.fake.requestCount(for: "heckj"), 1)
    }

    func testQuotaSpentThroughOneReplicaStopsTheOtherWithoutAnUpstreamRequest() throws {
        cluster.fake.rateLimitRemaining = 0
        XCTAssertEqual(try Cluster.get("/api/users/heckj", port: a.port).status, 200, "the hour's last request")
        let redis = cluster.redisClient()
        XCTAssertTrue(waitUntil { (try? redis.runAndWait(["HGET", "serviceapp:ratelimit:core", "remaining"]).get())?.text == "0" })
        let fromB = try Cluster.get("/api/users/heck", port: b.port)
        XCTAssertEqual(fromB.status, 429, fromB.text)
        XCTAssertTrue(fromB.text.contains(#""error":"rate_limited""#), fromB.text)
        XCTAssertNotNil(fromB.header("Retry-After"))
        XCTAssertEqual(cluster.fake.requestCount(for: "heck"), 0, "B never asked GitHub")
    }

    /// The page through nginx: `hec` is answered, the replica holding the session is killed, the
    /// page reconnects (through nginx, to the other), and `heck` — typed once the page is back —
    /// is answered by the survivor.
    static let reconnectDrive = #"""
        var field = $("username"), seen = [], dropped = false, typedHeck = false;
        function type(value) {
          field.value = value;
          field.dispatchEvent(new Event("input", { bubbles: true }));
        }
        function shown(value) { var status = $("status").textContent; return status.slice(-(value.length + 2)) === ": " + value; }
        function step() {
          var state = $("connection").getAttribute("data-state");
          if (state !== "open") { dropped = true; }
          if (!typedHeck && shown("hec") && seen.length === 0) {
            seen.push("hec>" + $("status").getAttribute("data-status") + ">" + $("repos").textContent);
          }
          if (!typedHeck && seen.length === 1 && dropped && state === "open") { typedHeck = true; type("heck"); }
          if (typedHeck && shown("heck")) {
            seen.push("heck>" + $("status").getAttribute("data-status") + ">" + $("repos").textContent);
            finish("seen=" + seen.join(",") + " reconnected=" + dropped);
          }
        }
        new MutationObserver(step).observe(doc.body, { attributes: true, childList: true, characterData: true, subtree: true });
        type("hec");
        """#

    func testAReplicaKilledWhileTypingLosesNothing() throws {
        var driver = BrowserScriptDriver(browser: .chromium, servicePort: cluster.nginx.port)
        driver.timeout = 40
        let realTimeDriver = driver
        let report = Box<Result<(report: String, sockets: PageSockets), Error>?>(nil)
        let finished = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            let outcome = Result { try realTimeDriver.run(page: "/", drive: Self.reconnectDrive) }
            report.mutate { $0 = outcome }
            finished.signal()
        }
        // The replica nginx gave the session to: the one with a WebSocket open, once hec's answer
        // is in the shared cache (whether the page saw it before the kill or asks again after).
        var holder: Cluster.Replica?
        let redis = cluster.redisClient()
        XCTAssertTrue(waitUntil(timeout: 20) {
            guard (try? redis.runAndWait(["EXISTS", "serviceapp:cache:hec"]).get()) == .integer(1) else { return false }
            holder = self.cluster.replicas.first { ($0.metric("websocket_sessions_open") ?? 0) >= 1 }
            return holder != nil
        }, "the page's session and its first lookup")
        let killed = try XCTUnwrap(holder)
        killed.kill()
        XCTAssertEqual(finished.wait(timeout: .now() + 60), .success)
        let (seen, sockets) = try XCTUnwrap(report.value).get()
        XCTAssertTrue(seen.contains("seen=hec>found>3,heck>found>6 reconnected=true"), seen)
        let url = "ws://127.0.0.1:\(cluster.nginx.port)/ws/pipelines"
        XCTAssertEqual(sockets.urls, [url, url], "one socket at a time, to /ws/pipelines, and one more after the kill")
        XCTAssertEqual(sockets.subscribes, 2, "subscribed again on the new socket: \(sockets)")
        let survivor = try XCTUnwrap(cluster.replicas.first { $0 !== killed })
        XCTAssertGreaterThanOrEqual(survivor.metric("websocket_sessions_open") ?? 0, 0)
        XCTAssertEqual(cluster.fake.requestCount(for: "heck"), 1, "the survivor asked for heck")
        XCTAssertEqual(cluster.fake.requestCount(for: "hec"), 1, "and answered the page's resent hec from the shared cache")
    }

    func testRedisStoppedAndStartedUnderLoadFailsNoLookupThenSharesAgain() throws {
        cluster.fake.answersAnyLogin = true
        let nginxPort = cluster.nginx.port
        let statuses = Box<[Int]>([])
        let errors = Box<[String]>([])
        let stop = Box(false)
        let group = DispatchGroup()
        for worker in 0..<4 {
            DispatchQueue.global().async(group: group) {
                var index = 0
                while !stop.value {
                    index += 1
                    do {
                        let response = try Cluster.get("/api/users/load-\(worker)-\(index)", port: nginxPort)
                        statuses.mutate { $0.append(response.status) }
                    } catch {
                        statuses.mutate { $0.append(0) }
                        errors.mutate { $0.append("load-\(worker)-\(index): \(error)") }
                    }
                }
            }
        }
        XCTAssertTrue(waitUntil(timeout: 10) { statuses.value.count >= 40 }, "load runs")
        cluster.redis.stop()
        let during = statuses.value.count
        XCTAssertTrue(waitUntil(timeout: 10) { statuses.value.count >= during + 40 }, "lookups go on without Redis")
        try cluster.redis.start()
        let after = statuses.value.count
        XCTAssertTrue(waitUntil(timeout: 10) { statuses.value.count >= after + 40 }, "and after it is back")
        stop.mutate { $0 = true }
        group.wait()
        XCTAssertFalse(statuses.value.isEmpty)
        XCTAssertEqual(
            statuses.value.filter { $0 != 200 }.count, 0,
            "no failed lookup: \(Set(statuses.value)) \(errors.value)\nnginx: \(cluster.nginx.errorLogTail())"
        )

        // Shared again: each replica reaches Redis and listens for landings once more.
        // (Each probe asks for a login no replica has cached, so it reaches Redis.)
        var probe = 0
        XCTAssertTrue(waitUntil(timeout: 15) {
            for replica in self.cluster.replicas {
                probe += 1
                _ = try? Cluster.get("/api/users/probe-\(probe)", port: replica.port)
            }
            return self.cluster.redisAvailableEverywhere
        }, "both replicas back on Redis")
        cluster.fake.setFault(.delay(.milliseconds(1_500)), for: "shared-again")
        let results = try typeAtOnce("shared-again", on: [a.port, b.port])
        XCTAssertEqual(results.map(\.status), ["found", "found"])
        XCTAssertEqual(cluster.fake.requestCount(for: "shared-again"), 1, "one request for both replicas again")
    }
}
