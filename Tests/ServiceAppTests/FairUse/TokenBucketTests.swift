import XCTest

@testable import ServiceApp

/// The token bucket on explicit (virtual) time: instants a fixed origin plus what the test says.
final class TokenBucketTests: XCTestCase {
    private let origin = ContinuousClock.now

    private func at(_ offset: Duration) -> ContinuousClock.Instant { origin + offset }

    func testAFullMinuteThenOnePerRefillInterval() {
        var bucket = TokenBucket(capacity: 60, refillInterval: .seconds(1), now: at(.seconds(1_000)))
        for _ in 0..<60 { XCTAssertNil(bucket.spend(now: at(.seconds(1_000)))) }
        XCTAssertEqual(bucket.spend(now: at(.seconds(1_000))), 1, "empty: one token in a second")
        XCTAssertEqual(bucket.spend(now: at(.milliseconds(1_000_500))), 1, "half a token is not a token")
        XCTAssertNil(bucket.spend(now: at(.seconds(1_001))))
        XCTAssertEqual(bucket.spend(now: at(.seconds(1_001))), 1)
        XCTAssertFalse(bucket.isFull(now: at(.seconds(1_030))))
        XCTAssertTrue(bucket.isFull(now: at(.seconds(1_061))))
        for _ in 0..<60 { XCTAssertNil(bucket.spend(now: at(.seconds(1_061)))) }
        XCTAssertNotNil(bucket.spend(now: at(.seconds(1_061))), "never more than capacity, however long it rested")
    }

    func testRetryAfterCountsTheMissingFraction() {
        var bucket = TokenBucket(capacity: 2, refillInterval: .seconds(30), now: at(.zero))
        XCTAssertNil(bucket.spend(now: at(.zero)))
        XCTAssertNil(bucket.spend(now: at(.zero)))
        XCTAssertEqual(bucket.spend(now: at(.zero)), 30)
        XCTAssertEqual(bucket.spend(now: at(.seconds(20))), 10)
        XCTAssertNil(bucket.spend(now: at(.seconds(30))))
    }
}

/// Sessions and lookups per client, idle expiry and the table's cap, on a manual clock.
final class ClientLimiterTests: XCTestCase {
    private final class Clock: @unchecked Sendable {
        // Sendable: `value` is guarded by `lock`.
        private let lock = NSLock()
        private var value = ContinuousClock.now + .seconds(100)
        var now: @Sendable () -> ContinuousClock.Instant { { [self] in lock.withLock { value } } }
        func advance(_ duration: Duration) { lock.withLock { value += duration } }
    }

    private let clock = Clock()

    private func limiter(_ settings: ClientLimiter.Settings) -> ClientLimiter {
        ClientLimiter(settings: settings, now: clock.now)
    }

    /// Asking whether a lookup would be refused takes nothing (a lookup asks first, so that a
    /// refused one reports no activity).
    func testLookupRefusalIsAskedWithoutTakingAToken() {
        let limiter = limiter(.init(lookupsPerMinute: 2))
        XCTAssertNil(limiter.lookupRefusal("10.0.0.1"), "a new client has a full bucket")
        XCTAssertEqual(limiter.count, 0, "and is not remembered for asking")
        XCTAssertNil(limiter.spendLookup("10.0.0.1"))
        XCTAssertNil(limiter.lookupRefusal("10.0.0.1"))
        XCTAssertNil(limiter.lookupRefusal("10.0.0.1"), "asking twice took nothing")
        XCTAssertNil(limiter.spendLookup("10.0.0.1"))
        XCTAssertEqual(limiter.lookupRefusal("10.0.0.1")?.seconds, 30)
        XCTAssertEqual(limiter.spendLookup("10.0.0.1")?.seconds, 30)
        clock.advance(.seconds(30))
        XCTAssertNil(limiter.lookupRefusal("10.0.0.1"), "refilled")
        _ = limiter.block("10.0.0.1", seconds: 5)
        XCTAssertEqual(limiter.lookupRefusal("10.0.0.1")?.seconds, 5, "blocked by the shared allowance")
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
        clock.advance(.seconds(20))
        XCTAssertNil(limiter.spendLookup("a"))
        clock.advance(.seconds(61))
        for _ in 0..<3 { XCTAssertNil(limiter.spendLookup("a"), "refilled") }
        XCTAssertNotNil(limiter.spendLookup("a"))
    }

    func testABlockFromTheSharedAllowanceRefusesUntilItEnds() {
        let limiter = limiter(.init(lookupsPerMinute: 60))
        XCTAssertEqual(limiter.block("10.0.0.1", seconds: 30).seconds, 30)
        XCTAssertEqual(limiter.spendLookup("10.0.0.1")?.seconds, 30, "its own bucket is full, the shared one is not")
        XCTAssertNil(limiter.spendLookup("10.0.0.2"), "another client")
        clock.advance(.milliseconds(29_500))
        XCTAssertEqual(limiter.spendLookup("10.0.0.1")?.seconds, 1)
        clock.advance(.milliseconds(500))
        XCTAssertNil(limiter.spendLookup("10.0.0.1"))
    }

    func testClientsWithoutStateAreForgotten() {
        let limiter = limiter(.init(lookupsPerMinute: 60, idleTimeout: .seconds(600)))
        XCTAssertNil(limiter.openSession("a"))
        _ = limiter.spendLookup("b")
        _ = limiter.spendLookup("c")
        clock.advance(.seconds(601))
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
