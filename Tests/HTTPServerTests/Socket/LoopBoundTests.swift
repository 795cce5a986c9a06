import Dispatch
import XCTest

@testable import HTTPServer

/// `LoopBound`: accessible on its loop, and only there. The check itself traps, so it is
/// tested through the predicate it asserts (`isAccessible`).
final class LoopBoundTests: EventLoopTestCase {
    func testValueIsReadAndWrittenOnItsLoop() throws {
        let loop = try makeLoop()
        let result = loop.sync { () -> [Int] in
            let bound = LoopBound([1], loop: loop)
            bound.value.append(2)
            bound.value[0] = 0
            return bound.value
        }
        XCTAssertEqual(result, [0, 2])
    }

    func testAccessIsAllowedOnlyOnItsLoop() throws {
        let loop = try makeLoop()
        let other = try makeLoop(label: "test.other")
        let bound = LoopBound(sending: 0, loop: loop)
        XCTAssertFalse(bound.isAccessible, "the test's thread is not the loop")
        XCTAssertTrue(loop.sync { bound.isAccessible })
        XCTAssertFalse(other.sync { bound.isAccessible }, "another loop's thread is not its loop")
        let fromDispatch = DispatchQueue.global().sync { bound.isAccessible }
        XCTAssertFalse(fromDispatch)
    }

    func testValueCreatedOffTheLoopIsHandedToIt() throws {
        let loop = try makeLoop()
        // Created on the test's thread before the loop sees it, as the listener creates a
        // connection: only the loop touches it afterwards.
        let bound = LoopBound(sending: ["created off the loop"], loop: loop)
        let result = loop.sync { () -> [String] in
            bound.value.append("then used on it")
            return bound.value
        }
        XCTAssertEqual(result, ["created off the loop", "then used on it"])
    }

    func testStoppedLoopDrainingItsTasksCountsAsTheLoop() throws {
        let loop = try makeLoop()
        let bound = LoopBound(sending: 0, loop: loop)
        loop.stop()
        // Tasks queued after the stop run on the caller's thread, which then counts as the loop.
        let accessible = loop.sync { () -> Bool in
            bound.value += 1
            return bound.isAccessible
        }
        XCTAssertTrue(accessible)
    }
}
