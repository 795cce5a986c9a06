import Dispatch
import HTTPServer
import Locking
@testable import ServiceApp
import StreamCore
import XCTest

/// Each loop's pipelines' scheduler: timers run on that loop and are measured.
final class PipelineSchedulersTests: XCTestCase {
    func testTimersRunOnTheirLoopAndAreMeasured() throws {
        let group = try EventLoopGroup(count: 2, label: "test.schedulers")
        defer { group.stop() }
        let loops = [group.next(), group.next()]
        XCTAssertFalse(loops[0] === loops[1])
        let recorded = Locked(0)
        let schedulers = PipelineSchedulers(injected: nil) { _ in recorded.withLock { $0 += 1 } }
        for loop in loops + loops {
            let scheduler = schedulers.scheduler(for: loop)
            let ran = expectation(description: "timer")
            scheduler.schedule(after: scheduler.now.advanced(by: DispatchQueue.SchedulerTimeType.Stride.milliseconds(1))) {
                XCTAssertTrue(loop.inLoop, "a loop's scheduler runs its timers on that loop")
                ran.fulfill()
            }
            wait(for: [ran], timeout: 10)
        }
        XCTAssertEqual(recorded.withLock { $0 }, 4, "every timer's lateness is recorded")
    }

    func testAnInjectedSchedulerServesEveryLoop() throws {
        let group = try EventLoopGroup(count: 1, label: "test.schedulers.injected")
        defer { group.stop() }
        let loop = group.next()
        let test = DispatchQueue.test
        let recorded = Locked<[Duration]>([])
        let schedulers = PipelineSchedulers(injected: test.eraseToAnyScheduler()) { duration in recorded.withLock { $0.append(duration) } }
        let ran = Locked(false)
        schedulers.scheduler(for: loop).schedule(after: test.now.advanced(by: .seconds(1))) { ran.withLock { $0 = true } }
        test.advance(by: .seconds(1))
        XCTAssertTrue(ran.withLock { $0 }, "virtual time runs it, not the loop")
        XCTAssertEqual(recorded.withLock { $0 }, [.zero])
    }
}
