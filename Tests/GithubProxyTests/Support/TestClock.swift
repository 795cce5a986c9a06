import Foundation

/// A settable clock for time-dependent state.
final class TestClock: @unchecked Sendable {
    // Sendable: `current` is guarded by `lock`.
    private let lock = NSLock()
    private var current: Date

    /// Starts at the real time, on a whole second (a fake's `Date` headers then agree with it,
    /// and Unix-second reset times are exact).
    init(start: Date = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))) { current = start }

    var now: @Sendable () -> Date { { [self] in lock.withLock { current } } }

    func advance(_ seconds: TimeInterval) { lock.withLock { current += seconds } }
}
