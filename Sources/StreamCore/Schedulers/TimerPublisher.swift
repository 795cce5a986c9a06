import Foundation

extension Timer {
    /// Returns a publisher that repeatedly emits the current date on the given interval.
    ///
    /// As Apple's, the publisher is connectable: call `connect()` to start the timer and cancel
    /// the result to stop it. Ticks that find a subscriber without demand are dropped.
    ///
    /// - Parameters:
    ///   - interval: The time interval on which to publish events, in seconds.
    ///   - tolerance: The allowed timing variance when emitting events; `nil` allows any.
    ///   - runLoop: The run loop on which the timer runs.
    ///   - mode: The run loop mode in which to run the timer.
    ///   - options: Scheduler options passed to the timer.
    public static func publish(
        every interval: TimeInterval,
        tolerance: TimeInterval? = nil,
        on runLoop: RunLoop,
        in mode: RunLoop.Mode,
        options: RunLoop.SchedulerOptions? = nil
    ) -> TimerPublisher {
        TimerPublisher(interval: interval, tolerance: tolerance, runLoop: runLoop, mode: mode, options: options)
    }

    /// A publisher that repeatedly emits the current date on a given interval.
    public final class TimerPublisher: ConnectablePublisher {
        public typealias Output = Date
        public typealias Failure = Never

        /// The time interval on which to publish events, in seconds.
        public let interval: TimeInterval
        /// The allowed timing variance when emitting events.
        public let tolerance: TimeInterval?
        /// The run loop on which the timer runs.
        public let runLoop: RunLoop
        /// The run loop mode in which to run the timer.
        public let mode: RunLoop.Mode
        /// Scheduler options passed to the timer.
        public let options: RunLoop.SchedulerOptions?

        private let relay = TickRelay<Date>()

        /// Creates a publisher that repeatedly emits the current date on the given interval.
        public init(
            interval: TimeInterval,
            tolerance: TimeInterval? = nil,
            runLoop: RunLoop,
            mode: RunLoop.Mode,
            options: RunLoop.SchedulerOptions? = nil
        ) {
            self.interval = interval
            self.tolerance = tolerance
            self.runLoop = runLoop
            self.mode = mode
            self.options = options
        }

        /// Attaches `subscriber`; it receives dates once the publisher is connected.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Date, S.Failure == Never {
            relay.attach(subscriber)
        }

        /// Starts the timer on `runLoop` (from any thread: the run loop's own thread runs it); the
        /// first date comes one interval later. Call `cancel()` on the result to stop it.
        ///
        /// As with Apple's, the result is not an `AnyCancellable`: letting it go does not stop the
        /// timer (the run loop keeps it), so `_ = timer.connect()` from any queue keeps ticking.
        public func connect() -> Cancellable {
            let relay = self.relay
            // The first tick one interval from now, as Apple's (Linux's Timer(timeInterval:repeats:)
            // fires at once).
            let timer = Timer(
                fire: Date().addingTimeInterval(interval), interval: interval, repeats: true
            ) { _ in relay.send(Date()) }
            if let tolerance { timer.tolerance = tolerance }
            runLoop.add(timer, forMode: mode)
            return TimerConnection(timer: timer)
        }
    }
}

/// A connected timer publisher's connection: `cancel()` invalidates the run loop timer; unlike an
/// `AnyCancellable`, releasing it does not. Sendable: `Timer.invalidate()` may be called from any
/// thread (the run loop removes the timer), and `timer` is never reassigned.
private final class TimerConnection: Cancellable, @unchecked Sendable {
    private let timer: Timer

    init(timer: Timer) { self.timer = timer }

    func cancel() { timer.invalidate() }
}
