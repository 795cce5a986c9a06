import XCTest

@testable import ServiceApp

/// The token bucket on explicit (virtual) time.
final class TokenBucketTests: XCTestCase {
    func testAFullMinuteThenOnePerRefillInterval() {
        var bucket = TokenBucket(capacity: 60, refillPerSecond: 1, now: 1_000)
        for _ in 0..<60 { XCTAssertNil(bucket.spend(now: 1_000)) }
        XCTAssertEqual(bucket.spend(now: 1_000), 1, "empty: one token in a second")
        XCTAssertEqual(bucket.spend(now: 1_000.5), 1, "half a token is not a token")
        XCTAssertNil(bucket.spend(now: 1_001))
        XCTAssertEqual(bucket.spend(now: 1_001), 1)
        XCTAssertFalse(bucket.isFull(now: 1_030))
        XCTAssertTrue(bucket.isFull(now: 1_061))
        for _ in 0..<60 { XCTAssertNil(bucket.spend(now: 1_061)) }
        XCTAssertNotNil(bucket.spend(now: 1_061), "never more than capacity, however long it rested")
    }

    func testRetryAfterCountsTheMissingFraction() {
        var bucket = TokenBucket(capacity: 2, refillPerSecond: 2.0 / 60, now: 0)
        XCTAssertNil(bucket.spend(now: 0))
        XCTAssertNil(bucket.spend(now: 0))
        XCTAssertEqual(bucket.spend(now: 0), 30)
        XCTAssertEqual(bucket.spend(now: 20), 10)
        XCTAssertNil(bucket.spend(now: 30))
    }
}

/// Sessions and lookups per client, idle expiry and the table's cap, on a manual clock.
final class ClientLimiterTests: XCTestCase {
    private final class Clock: @unchecked Sendable {
        // Sendable: `value` is guarded by `lock`.
        private let lock = NSLock()
        private var value: Double = 100
        var now: @Sendable () -> Double { { [self] in lock.withLock { value } } }
        func advance(_ seconds: Double) { lock.withLock { value += seconds } }
    }

    private let clock = Clock()

    private func limiter(_ settings: ClientLimiter.Settings) -> ClientLimiter {
        ClientLimiter(settings: settings, now: clock.now)
    }

    func testSessionsPerClientAndCountedDownOnClose() {
        let limiter = limiter(.init(sessionsPerClient: 2))
        XCTAssertNil(limiter.openSession("10.0.0.1"))
        XCTAssertNil(limiter.openSession("10.0.0.1"))
        let refused = limiter.openSession("10.0.0.1")
        XCTAssertEqual(refused, .init(seconds: ClientLimiter.sessionRetryAfterSeconds, firstInWindow: true))
        XCTAssertEqual(limiter.openSession("10.0.0.1")?.firstInWindow, false, "logged once per window")
        XCTAssertNil(limiter.openSession("10.0.0.2"), "another client is unaffected")
        limiter.closeSession("10.0.0.1")
        XCTAssertNil(limiter.openSession("10.0.0.1"))
        XCTAssertEqual(limiter.sessions(of: "10.0.0.1"), 2)
    }

    func testLookupsPerMinuteAsATokenBucket() {
        let limiter = limiter(.init(lookupsPerMinute: 3))
        for _ in 0..<3 { XCTAssertNil(limiter.spendLookup("a")) }
        XCTAssertEqual(limiter.spendLookup("a")?.seconds, 20)
        XCTAssertNil(limiter.spendLookup("b"))
        clock.advance(20)
        XCTAssertNil(limiter.spendLookup("a"))
        clock.advance(61)
        for _ in 0..<3 { XCTAssertNil(limiter.spendLookup("a"), "refilled") }
        XCTAssertNotNil(limiter.spendLookup("a"))
    }

    func testABlockFromTheSharedAllowanceRefusesUntilItEnds() {
        let limiter = limiter(.init(lookupsPerMinute: 60))
        XCTAssertEqual(limiter.block("10.0.0.1", seconds: 30).seconds, 30)
        XCTAssertEqual(limiter.spendLookup("10.0.0.1")?.seconds, 30, "its own bucket is full, the shared one is not")
        XCTAssertNil(limiter.spendLookup("10.0.0.2"), "another client")
        clock.advance(29.5)
        XCTAssertEqual(limiter.spendLookup("10.0.0.1")?.seconds, 1)
        clock.advance(0.5)
        XCTAssertNil(limiter.spendLookup("10.0.0.1"))
    }

    func testClientsWithoutStateAreForgotten() {
        let limiter = limiter(.init(lookupsPerMinute: 60, idleSeconds: 600))
        XCTAssertNil(limiter.openSession("a"))
        _ = limiter.spendLookup("b")
        _ = limiter.spendLookup("c")
        clock.advance(601)
        _ = limiter.spendLookup("d")  // a new client triggers the sweep
        XCTAssertEqual(limiter.count, 2, "a (open session) and d stay; b and c are full again and idle")
    }

    func testAFloodOfDistinctClientsKeepsTheTableBounded() {
        let limiter = limiter(.init(lookupsPerMinute: 60, maxClients: 1_000))
        XCTAssertNil(limiter.openSession("keeper"))
        for index in 0..<100_000 {
            _ = limiter.spendLookup("10.\(index >> 16).\((index >> 8) & 255).\(index & 255)")
            XCTAssertLessThanOrEqual(limiter.count, 1_000 + 1)
        }
        XCTAssertEqual(limiter.sessions(of: "keeper"), 1, "a client with an open session is never forgotten")
        limiter.closeSession("keeper")
        XCTAssertEqual(limiter.sessions(of: "keeper"), 0)
    }
}
