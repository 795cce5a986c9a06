import Dispatch

/// Times the answers of a `github-user` pipeline that need no upstream request: from the moment
/// the throttle lets the field's value through (the end of its hold) to the `result` frame
/// written, plus the input's own way from its frame to the throttle. Fed the pipeline's events
/// in memory; an answer whose lookup went upstream (an `activity:true` came first) is not timed.
struct CachedResultClock: Sendable, Equatable {
    enum State: Sendable, Equatable {
        /// No value is on its way.
        case idle
        /// A value left the throttle at `since`; the input had taken `inputCost` to reach it.
        case held(since: DispatchTime, inputCost: Duration)
        /// The value being looked up went upstream.
        case upstream
    }

    private(set) var state = State.idle
    /// What the latest input took from its frame to the throttle.
    private var inputCost = Duration.zero

    /// An input reached the throttle `cost` after its frame was read.
    mutating func inputArrived(cost: Duration) { inputCost = cost }

    /// The throttle let a value through at `time`.
    mutating func throttled(at time: DispatchTime) { state = .held(since: time, inputCost: inputCost) }

    /// A lookup began upstream: its answer is not a cached one.
    mutating func wentUpstream() { state = .upstream }

    /// The result frame was written at `time`: the duration to record, if the answer was served
    /// without going upstream.
    mutating func resultWritten(at time: DispatchTime) -> Duration? {
        defer { state = .idle }
        guard case .held(let since, let inputCost) = state else { return nil }
        let elapsed = time.uptimeNanoseconds >= since.uptimeNanoseconds ? time.uptimeNanoseconds - since.uptimeNanoseconds : 0
        return .nanoseconds(Int64(clamping: elapsed)) + inputCost
    }
}
