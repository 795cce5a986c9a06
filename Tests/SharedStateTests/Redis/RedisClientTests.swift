import Foundation
import HTTPTestSupport
import SharedState
import XCTest

/// The hiredis-based client against a real `redis-server` on loopback.
final class RedisClientTests: XCTestCase {
    private var server: RedisServerProcess!
    private var client: RedisClient!

    override func setUpWithError() throws {
        try super.setUpWithError()
        server = try RedisServerProcess()
        client = RedisClient(configuration: .init(port: Int(server.port), poolSize: 2, timeout: .milliseconds(300)))
    }

    override func tearDown() {
        client = nil
        server = nil
        super.tearDown()
    }

    func testCommandsAndReplies() throws {
        XCTAssertEqual(try client.runAndWait(["SET", "user:heckj", "{\"id\":43388}", "PX", "60000"]).get(), .status("OK"))
        XCTAssertEqual(try client.runAndWait(["GET", "user:heckj"]).get().text, "{\"id\":43388}")
        XCTAssertEqual(try client.runAndWait(["GET", "user:nobody"]).get(), .null)
        XCTAssertEqual(try client.runAndWait(["INCR", "count"]).get(), .integer(1))
        XCTAssertEqual(try client.runAndWait(["MGET", "user:heckj", "user:nobody"]).get(),
                       .array([.string(Array("{\"id\":43388}".utf8)), .null]))
        guard case .integer(let ttl) = try client.runAndWait(["PTTL", "user:heckj"]).get() else { return XCTFail("PTTL") }
        XCTAssertTrue((59_000...60_000).contains(ttl), "\(ttl)")
        XCTAssertEqual(try client.runAndWait(["SET", "empty", ""]).get(), .status("OK"))
        XCTAssertEqual(try client.runAndWait(["GET", "empty"]).get(), .string([]))
    }

    func testBinaryValuesRoundTrip() throws {
        let bytes: [UInt8] = [0, 1, 2, 255, 0x0D, 0x0A, 0]
        let done = expectation(description: "set")
        client.run([Array("SET".utf8), Array("bin".utf8), bytes]) { _ in done.fulfill() }
        wait(for: [done], timeout: 5)
        XCTAssertEqual(try client.runAndWait(["GET", "bin"]).get(), .string(bytes))
    }

    func testServerErrorsAreTyped() {
        XCTAssertEqual(client.runAndWait(["SET", "k", "v"]).map { _ in 1 }, .success(1))
        guard case .failure(.server(let message)) = client.runAndWait(["INCR", "k"]) else { return XCTFail("expected a server error") }
        XCTAssertTrue(message.contains("not an integer"), message)
        guard case .failure(.server) = client.runAndWait(["NOSUCHCOMMAND"]) else { return XCTFail("unknown command") }
    }

    func testACommandThatTakesTooLongTimesOut() {
        let started = Date()
        let result = client.runAndWait(["DEBUG", "SLEEP", "1"])
        XCTAssertEqual(result.map { _ in 1 }, .failure(.timeout))
        XCTAssertLessThan(Date().timeIntervalSince(started), 0.9, "gave up at the 300 ms timeout")
    }

    func testAStalledRedisHoldsNoCommandLongerThanItsTimeout() throws {
        // Redis accepts connections but answers nothing for 3 s (a pause, a stall, an overload).
        XCTAssertEqual(try client.runAndWait(["CLIENT", "PAUSE", "3000", "ALL"]).get(), .status("OK"))
        let outcomes = Box<[RedisError?]>([])
        let done = expectation(description: "40 commands answered")
        done.expectedFulfillmentCount = 40
        for index in 0..<40 {
            client.run(["GET", "key\(index)"]) { result in
                outcomes.mutate { $0.append(result.failure) }
                done.fulfill()
            }
        }
        // Two connections with a 300 ms timeout: one at a time they would take 6 s; those that
        // waited their timeout in the queue fail unsent, so all are answered well within the pause.
        wait(for: [done], timeout: 2.5)
        XCTAssertEqual(outcomes.value.count, 40)
        XCTAssertTrue(outcomes.value.allSatisfy { $0 == .timeout || $0.map { if case .connection = $0 { true } else { false } } == true },
                      "\(outcomes.value)")
    }

    func testRedisDownFailsFastAndTheClientReconnectsWhenItIsBack() throws {
        XCTAssertEqual(try client.runAndWait(["PING"]).get(), .status("PONG"))
        server.stop()
        for _ in 0..<3 {
            guard case .failure(.connection) = client.runAndWait(["PING"]) else { return XCTFail("expected a connection error") }
        }
        try server.start()
        let deadline = Date().addingTimeInterval(10)
        var back = false
        while Date() < deadline, !back {
            back = (try? client.runAndWait(["PING"]).get()) == .status("PONG")
            if !back { usleep(50_000) }
        }
        XCTAssertTrue(back, "reconnected after the back-off")
    }

    func testThePublisherRunsTheCommandOnSubscription() throws {
        let received = expectation(description: "reply")
        let cancellable = client.command(["ECHO", "hello"]).sink(receiveCompletion: { _ in }, receiveValue: { reply in
            XCTAssertEqual(reply.text, "hello")
            received.fulfill()
        })
        wait(for: [received], timeout: 5)
        cancellable.cancel()
    }

    func testURLs() {
        XCTAssertEqual(RedisClient.Configuration(url: "redis://127.0.0.1:6380/2"), .init(port: 6380, database: 2))
        XCTAssertEqual(RedisClient.Configuration(url: "redis://cache.internal"), .init(host: "cache.internal"))
        XCTAssertNil(RedisClient.Configuration(url: "rediss://secure:6380"))
        XCTAssertNil(RedisClient.Configuration(url: "redis://host/notanumber"))
        XCTAssertEqual(RedisClient.Configuration(url: "redis://:s3cret@host"), .init(host: "host", password: "s3cret"))
        XCTAssertEqual(
            RedisClient.Configuration(url: "redis://alice:p%40ss@host:6380/1"),
            .init(host: "host", port: 6380, database: 1, username: "alice", password: "p@ss"), "percent-decoded"
        )
        XCTAssertNil(RedisClient.Configuration(url: "redis://alice@host"), "a user without a password")
    }

    func testDescriptionsNeverShowThePassword() throws {
        let configuration = try XCTUnwrap(RedisClient.Configuration(url: "redis://alice:s3cret@host:6380/1"))
        XCTAssertEqual("\(configuration)", "redis://alice:***@host:6380/1")
        XCTAssertEqual("\(RedisClient.Configuration(host: "host"))", "redis://host:6379/0")
    }
}

private extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
