import Dispatch
import Foundation
import HTTPServer
import Locking
@testable import ServiceApp
import XCTest

/// The multiplexer's job queue: jobs from the loop and from other threads are carried out on the
/// loop in the order they were handed over.
final class LoopJobQueueTests: XCTestCase {
    private var groups: [EventLoopGroup] = []

    override func tearDown() {
        groups.forEach { $0.stop() }
        groups = []
        super.tearDown()
    }

    /// A running loop (stopped after the test).
    private func makeLoop() throws -> EventLoop {
        let group = try EventLoopGroup(count: 1, label: "test.jobs")
        groups.append(group)
        return group.next()
    }

    /// Regression (a marble diagram's lanes cleared mid-session): a job handed over on the loop
    /// ran at once, ahead of one another thread had handed over before it.
    func testAJobFromTheLoopWaitsForOneAnotherThreadHandedOverFirst() throws {
        let loop = try makeLoop()
        let queue = LoopJobQueue<String>(loop: loop)
        let done = Locked<[String]>([])
        let carryOut: @Sendable (String) -> Void = { job in
            XCTAssertTrue(loop.inLoop)
            done.withLock { $0.append(job) }
        }
        let finished = expectation(description: "both carried out")
        loop.execute {
            // The loop is busy here: the other thread's job waits for its turn.
            let handedOver = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                queue.submit("from another thread", carryOut: carryOut)
                handedOver.signal()
            }
            handedOver.wait()
            queue.submit("from the loop", carryOut: carryOut)
            loop.enqueue { finished.fulfill() }
        }
        wait(for: [finished], timeout: 10)
        XCTAssertEqual(done.withLock { $0 }, ["from another thread", "from the loop"])
    }

    /// A job handed over while another is being carried out runs after it, not inside it.
    func testAJobHandedOverByAJobRunsAfterIt() throws {
        let loop = try makeLoop()
        let queue = LoopJobQueue<Int>(loop: loop)
        let log = Locked<[String]>([])
        let finished = expectation(description: "carried out")
        @Sendable func carryOut(_ job: Int) {
            log.withLock { $0.append("start \(job)") }
            if job == 1 { queue.submit(2, carryOut: carryOut) }
            log.withLock { $0.append("end \(job)") }
            if job == 2 { finished.fulfill() }
        }
        loop.execute { queue.submit(1, carryOut: carryOut) }
        wait(for: [finished], timeout: 10)
        XCTAssertEqual(log.withLock { $0 }, ["start 1", "end 1", "start 2", "end 2"])
    }
}
