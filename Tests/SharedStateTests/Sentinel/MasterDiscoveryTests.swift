@testable import SharedState
import XCTest

/// The master discovery's state machine, fed events in memory: the actions it asks for and the
/// state it is in after each.
final class MasterDiscoveryTests: XCTestCase {
    private let a = RedisAddress(host: "10.0.0.1", port: 6379)
    private let b = RedisAddress(host: "10.0.0.2", port: 6379)

    func testAsksTheFirstSentinelThenFollowsItsAnnouncements() {
        var discovery = MasterDiscovery(sentinels: 3)
        XCTAssertEqual(discovery.start, [.ask(sentinel: 0)])
        XCTAssertNil(discovery.master, "no master known before a sentinel answers: degraded")
        XCTAssertEqual(discovery.handle(.answered(a)), [.useMaster(a), .follow(sentinel: 0)])
        XCTAssertEqual(discovery.state, .following(sentinel: 0, master: a))
        XCTAssertEqual(discovery.handle(.switched(b)), [.useMaster(b), .follow(sentinel: 0)], "the failover")
        XCTAssertEqual(discovery.master, b)
        XCTAssertEqual(discovery.handle(.switched(b)), [.follow(sentinel: 0)], "the same master again: nothing to drop")
    }

    func testAFailedSentinelPassesToTheNextAndAllFailedRestsWithTheBackoff() {
        var discovery = MasterDiscovery(sentinels: 3)
        XCTAssertEqual(discovery.handle(.sentinelFailed), [.ask(sentinel: 1)])
        XCTAssertEqual(discovery.handle(.unknownMaster), [.ask(sentinel: 2)], "a sentinel that does not know the name")
        XCTAssertEqual(discovery.handle(.sentinelFailed), [.rest(.milliseconds(50))])
        XCTAssertEqual(discovery.state, .resting(next: 0, master: nil))
        XCTAssertEqual(discovery.handle(.masterFailed), [], "resting already")
        XCTAssertEqual(discovery.handle(.rested), [.ask(sentinel: 0)])
        for _ in 0..<3 { _ = discovery.handle(.sentinelFailed) }
        XCTAssertEqual(discovery.state, .resting(next: 0, master: nil))
        XCTAssertEqual(discovery.handle(.rested), [.ask(sentinel: 0)])
        XCTAssertEqual(discovery.handle(.sentinelFailed), [.ask(sentinel: 1)])
        XCTAssertEqual(discovery.handle(.sentinelFailed), [.ask(sentinel: 2)])
        XCTAssertEqual(discovery.handle(.sentinelFailed), [.rest(.milliseconds(200))], "the back-off doubles")
        _ = discovery.handle(.rested)
        XCTAssertEqual(discovery.handle(.answered(a)), [.useMaster(a), .follow(sentinel: 0)])
        // The back-off started over with the answer.
        XCTAssertEqual(discovery.handle(.sentinelFailed), [.ask(sentinel: 1)])
        XCTAssertEqual(discovery.handle(.sentinelFailed), [.ask(sentinel: 2)])
        XCTAssertEqual(discovery.handle(.sentinelFailed), [.ask(sentinel: 0)])
        XCTAssertEqual(discovery.handle(.sentinelFailed), [.rest(.milliseconds(50))])
        XCTAssertEqual(discovery.master, a, "the master last known stays in use while the sentinels are away")
    }

    func testTheFollowedSentinelFailingAsksTheNextKeepingTheMaster() {
        var discovery = MasterDiscovery(sentinels: 2)
        _ = discovery.handle(.sentinelFailed)
        XCTAssertEqual(discovery.handle(.answered(a)), [.useMaster(a), .follow(sentinel: 1)])
        XCTAssertEqual(discovery.handle(.sentinelFailed), [.ask(sentinel: 0)])
        XCTAssertEqual(discovery.state, .asking(sentinel: 0, tried: 0, master: a))
        XCTAssertEqual(discovery.handle(.answered(a)), [.follow(sentinel: 0)], "the same master: connections stay")
    }

    func testAFailedMasterAsksTheSameSentinelAgain() {
        var discovery = MasterDiscovery(sentinels: 3)
        _ = discovery.handle(.answered(a))
        XCTAssertEqual(discovery.handle(.masterFailed), [.ask(sentinel: 0)], "a switch may have gone unheard")
        XCTAssertEqual(discovery.handle(.masterFailed), [], "asking already")
        XCTAssertEqual(discovery.handle(.answered(b)), [.useMaster(b), .follow(sentinel: 0)])
    }

    func testStopEndsEverything() {
        var discovery = MasterDiscovery(sentinels: 1)
        _ = discovery.handle(.answered(a))
        XCTAssertEqual(discovery.handle(.stop), [])
        XCTAssertEqual(discovery.state, .stopped)
        XCTAssertEqual(discovery.handle(.switched(b)), [], "a late announcement changes nothing")
        XCTAssertEqual(discovery.handle(.rested), [])
        XCTAssertNil(discovery.master)
    }

    func testOneSentinelRestsAfterEachFailure() {
        var discovery = MasterDiscovery(sentinels: 1)
        XCTAssertEqual(discovery.handle(.sentinelFailed), [.rest(.milliseconds(50))])
        XCTAssertEqual(discovery.handle(.rested), [.ask(sentinel: 0)])
        XCTAssertEqual(discovery.handle(.sentinelFailed), [.rest(.milliseconds(100))])
    }

    func testAddresses() {
        XCTAssertEqual(RedisAddress("127.0.0.1:26379"), RedisAddress(host: "127.0.0.1", port: 26_379))
        XCTAssertEqual(RedisAddress("[::1]:26379"), RedisAddress(host: "::1", port: 26_379))
        XCTAssertEqual(RedisAddress("[::1]:26379")?.description, "[::1]:26379")
        XCTAssertEqual(RedisAddress(" sentinel-0.sentinel:26379 ")?.host, "sentinel-0.sentinel")
        for bad in ["host", "host:", ":1", "host:0", "host:70000", "host:x"] { XCTAssertNil(RedisAddress(bad), bad) }
    }
}
