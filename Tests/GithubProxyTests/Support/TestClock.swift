import Foundation

/// A settable clock for time-dependent state.
final class TestClock: @unchecked Sendable {
    // Sendable: `current` is guarded by `lock`.
    private let lock = NSLock()
    private var current: Date

    /// Starts at the real time (a fake's `Date` headers then agree with it).
    init(start: Date = Date()) { current = start }

    var now: @Sendable () -> Date { { [self] in lock.withLock { current } } }

    func advance(_ seconds: TimeInterval) { lock.withLock { current += seconds } }
}
