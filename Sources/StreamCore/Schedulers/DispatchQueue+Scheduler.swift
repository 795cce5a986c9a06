import Dispatch

extension DispatchQueue: Scheduler {
    /// The scheduler time type used by the dispatch queue.
    public struct SchedulerTimeType: Strideable, Hashable, Codable, Sendable {
        public typealias Stride = NanosecondStride

        /// The dispatch time represented by this type.
        public var dispatchTime: DispatchTime

        /// Creates a dispatch queue time type instance.
        public init(_ time: DispatchTime) { dispatchTime = time }

        public func distance(to other: Self) -> Stride {
            Stride(nanoseconds: Int(truncatingIfNeeded: other.dispatchTime.uptimeNanoseconds)
                - Int(truncatingIfNeeded: dispatchTime.uptimeNanoseconds))
        }

        public func advanced(by n: Stride) -> Self {
            let base = Int(truncatingIfNeeded: dispatchTime.uptimeNanoseconds)
            let (sum, overflow) = base.addingReportingOverflow(n.magnitude)
            let nanoseconds = overflow ? (n.magnitude > 0 ? Int.max : 0) : Swift.max(0, sum)
            return Self(DispatchTime(uptimeNanoseconds: UInt64(nanoseconds)))
        }

        public static func == (lhs: Self, rhs: Self) -> Bool { lhs.dispatchTime == rhs.dispatchTime }

        public func hash(into hasher: inout Hasher) { hasher.combine(dispatchTime.uptimeNanoseconds) }

        public init(from decoder: Decoder) throws {
            let nanoseconds = try decoder.singleValueContainer().decode(UInt64.self)
            dispatchTime = DispatchTime(uptimeNanoseconds: nanoseconds)
        }

        public func encode(to encoder: Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(dispatchTime.uptimeNanoseconds)
        }
    }

    /// Options that affect the operation of the dispatch queue scheduler.
    public struct SchedulerOptions {
        /// The dispatch queue quality of service.
        public var qos: DispatchQoS
        /// The dispatch queue work item flags.
        public var flags: DispatchWorkItemFlags
        /// The dispatch group, if any, that should be used for performing actions.
        public var group: DispatchGroup?

        public init(qos: DispatchQoS = .unspecified, flags: DispatchWorkItemFlags = [], group: DispatchGroup? = nil) {
            self.qos = qos
            self.flags = flags
            self.group = group
        }
    }

    public var now: SchedulerTimeType { SchedulerTimeType(.now()) }

    public var minimumTolerance: SchedulerTimeType.Stride { .nanoseconds(0) }

    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        // Combine's scheduler actions are not Sendable; the operators that schedule them guard
        // every piece of state they touch with a lock.
        nonisolated(unsafe) let action = action
        async(group: options?.group, qos: options?.qos ?? .unspecified, flags: options?.flags ?? []) { action() }
    }

    /// Runs `action` at `date`, at most `tolerance` late: a one-shot timer source with that
    /// leeway. (`asyncAfter` would let libdispatch add its own leeway, a tenth of the delay:
    /// up to 50 ms for a 500 ms throttle; ``minimumTolerance`` is 0, so none is added here.)
    public func schedule(
        after date: SchedulerTimeType,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        nonisolated(unsafe) let action = action
        let timer = DispatchSource.makeTimerSource(flags: [.strict], queue: self)
        // The handler holds the source until it has fired once; cancelling it releases both.
        timer.setEventHandler(qos: options?.qos ?? .unspecified, flags: options?.flags ?? []) {
            timer.cancel()
            action()
        }
        timer.schedule(deadline: date.dispatchTime, leeway: .nanoseconds(Swift.max(0, tolerance.magnitude)))
        timer.resume()
    }

    public func schedule(
        after date: SchedulerTimeType,
        interval: SchedulerTimeType.Stride,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) -> Cancellable {
        nonisolated(unsafe) let action = action
        let timer = DispatchSource.makeTimerSource(queue: self)
        timer.setEventHandler { action() }
        timer.schedule(
            deadline: date.dispatchTime,
            repeating: .nanoseconds(Swift.max(1, interval.magnitude)),
            leeway: .nanoseconds(Swift.max(0, tolerance.magnitude))
        )
        timer.resume()
        return AnyCancellable { timer.cancel() }
    }
}
