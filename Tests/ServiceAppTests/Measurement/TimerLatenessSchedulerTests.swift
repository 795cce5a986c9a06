import Dispatch
import Locking
@testable import ServiceApp
import StreamCore
import XCTest

/// The measured scheduler over a clock the test moves by hand: a timer is recorded as late by how
/// far the clock had passed its deadline when it ran; immediate actions and repeating timers are
/// not measured.
final class TimerLatenessSchedulerTests: XCTestCase {
    func testRecordsHowLateEachTimerRan() {
        let base = HandMovedScheduler()
        let recorded = Recorded()
        let scheduler = TimerLatenessScheduler(base: base.eraseToAnyScheduler()) { duration in
            recorded.durations.withLock { $0.append(duration) }
        }
        let start = scheduler.now
        scheduler.schedule(after: start.advanced(by: .milliseconds(100)), tolerance: .zero, options: nil) {}
        scheduler.schedule(after: start.advanced(by: .milliseconds(200)), tolerance: .zero, options: nil) {}
        scheduler.schedule(options: nil) {}
        base.runDue(at: start.advanced(by: .milliseconds(100)))
        base.runDue(at: start.advanced(by: .milliseconds(230)))
        XCTAssertEqual(recorded.durations.withLock { $0 }, [.zero, .milliseconds(30)])
        XCTAssertEqual(base.ranImmediately, 1)
    }
}

/// The durations recorded, from any thread.
private final class Recorded: Sendable {
    let durations = Locked<[Duration]>([])
}

/// A scheduler whose clock moves only when the test says: ``runDue(at:)`` moves it, then runs the
/// timers due by then. Fails the test on a repeating timer, which the measured scheduler must
/// pass through without adding any.
private final class HandMovedScheduler: Scheduler, Sendable {
    typealias SchedulerTimeType = DispatchQueue.SchedulerTimeType
    typealias SchedulerOptions = DispatchQueue.SchedulerOptions

    private struct State: Sendable {
        var now = SchedulerTimeType(DispatchTime(uptimeNanoseconds: 1_000_000_000))
        var timers: [(date: SchedulerTimeType, action: @Sendable () -> Void)] = []
        var ranImmediately = 0
    }
    private let state = Locked(State())

    var now: SchedulerTimeType { state.withLock { $0.now } }
    var minimumTolerance: SchedulerTimeType.Stride { .zero }
    var ranImmediately: Int { state.withLock { $0.ranImmediately } }

    func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        state.withLock { $0.ranImmediately += 1 }
        action()
    }

    func schedule(after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?, _ action: @escaping () -> Void) {
        nonisolated(unsafe) let action = action
        state.withLock { $0.timers.append((date, { action() })) }
    }

    func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?, _ action: @escaping () -> Void
    ) -> Cancellable {
        XCTFail("no repeating timer expected")
        return AnyCancellable {}
    }

    func runDue(at time: SchedulerTimeType) {
        let due = state.withLock { state in
            state.now = time
            let due = state.timers.filter { $0.date <= time }
            state.timers.removeAll { $0.date <= time }
            return due.map(\.action)
        }
        due.forEach { $0() }
    }
}
