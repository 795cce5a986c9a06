import Dispatch

/// Times the answers of a `github-user` pipeline that need no upstream request: from the moment
/// the throttle lets the field's value through (the end of its hold) to the `result` frame
/// written, plus the input's own way from its frame to the throttle. Fed the pipeline's events
/// in memory; an answer whose lookup went upstream (an `activity:true` came first) is not timed.
///
/// Times are kept as nanoseconds (`UInt64`), not `DispatchTime` and `Duration`: every instance
/// of the pipeline carries one clock.
struct CachedResultClock: Sendable, Equatable {
    enum State: Sendable, Equatable {
        /// No value is on its way.
        case idle
        /// A value left the throttle at `since` (uptime nanoseconds); the input had taken
        /// `inputCost` nanoseconds to reach it.
        case held(since: UInt64, inputCost: UInt64)
        /// The value being looked up went upstream.
        case upstream
    }

    private(set) var state = State.idle
    /// What the latest input took from its frame to the throttle, in nanoseconds.
    private var inputCost: UInt64 = 0

    /// An input reached the throttle `cost` after its frame was read.
    mutating func inputArrived(cost: Duration) {
        inputCost = cost > .zero ? UInt64(cost / .nanoseconds(1)) : 0
    }

    /// The throttle let a value through at `time`.
    mutating func throttled(at time: DispatchTime) { state = .held(since: time.uptimeNanoseconds, inputCost: inputCost) }

    /// A lookup began upstream: its answer is not a cached one.
    mutating func wentUpstream() { state = .upstream }

    /// The result frame was written at `time`: the duration to record, if the answer was served
    /// without going upstream.
    mutating func resultWritten(at time: DispatchTime) -> Duration? {
        defer { state = .idle }
        guard case .held(let since, let inputCost) = state else { return nil }
        let elapsed = time.uptimeNanoseconds >= since ? time.uptimeNanoseconds - since : 0
        return .nanoseconds(Int64(clamping: elapsed &+ inputCost))
    }
}
