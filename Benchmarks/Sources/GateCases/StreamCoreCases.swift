import Dispatch
import StreamCore

/// StreamCore's side of each comparison case; ``OpenCombineCases`` is the same source against
/// OpenCombine. Each case builds its subscription in `init` (not measured); an operation is one
/// send, or one subscribe + cancel.
enum StreamCoreCases {
    /// `PassthroughSubject → map → filter → removeDuplicates → sink`.
    final class Chain: BatchOperation {
        private let subject = PassthroughSubject<Int, Never>()
        private var cancellable: AnyCancellable?
        private var sum = 0
        private var next = 0

        init() {
            cancellable = subject
                .map { $0 / 2 }
                .filter { $0 % 3 != 0 }
                .removeDuplicates()
                .sink { [unowned self] in sum &+= $0 }
        }

        func run(_ count: Int) -> Int {
            for _ in 0..<count {
                subject.send(next)
                next &+= 1
            }
            return sum
        }
    }

    /// `PassthroughSubject → map → sink`: Map alone.
    final class Map: BatchOperation {
        private let subject = PassthroughSubject<Int, Never>()
        private var cancellable: AnyCancellable?
        private var sum = 0

        init() {
            cancellable = subject.map { $0 &* 3 }.sink { [unowned self] in sum &+= $0 }
        }

        func run(_ count: Int) -> Int {
            for value in 0..<count { subject.send(value) }
            return sum
        }
    }

    /// Subscribe `Just(n).map { … }.sink { … }`, then cancel it.
    final class SubscribeCancel: BatchOperation {
        func run(_ count: Int) -> Int {
            var sum = 0
            for value in 0..<count {
                let cancellable = Just(value).map { $0 &+ 1 }.sink { sum &+= $0 }
                cancellable.cancel()
            }
            return sum
        }
    }

    /// `map { Just($0) }.switchToLatest()`: each send is a new inner publisher.
    final class SwitchToLatest: BatchOperation {
        private let subject = PassthroughSubject<Int, Never>()
        private var cancellable: AnyCancellable?
        private var sum = 0

        init() {
            cancellable = subject.map { Just($0) }.switchToLatest().sink { [unowned self] in sum &+= $0 }
        }

        func run(_ count: Int) -> Int {
            for value in 0..<count { subject.send(value) }
            return sum
        }
    }

    /// `throttle(for: 10 ms, latest: true)` on virtual time, four sends per window (a quarter of
    /// them also advance the clock and emit).
    final class Throttle: BatchOperation {
        private let scheduler = DispatchQueue.test
        private let subject = PassthroughSubject<Int, Never>()
        private var cancellable: AnyCancellable?
        private var sum = 0

        init() {
            cancellable = subject
                .throttle(for: .milliseconds(10), scheduler: scheduler, latest: true)
                .sink { [unowned self] in sum &+= $0 }
        }

        func run(_ count: Int) -> Int {
            for value in 0..<count {
                subject.send(value)
                if value % 4 == 3 { scheduler.advance(by: .milliseconds(10)) }
            }
            return sum
        }
    }

    /// One subject with ``subscribers`` sinks; an operation is one send to all of them.
    final class FanOut: BatchOperation {
        static let subscribers = 100
        private let subject = PassthroughSubject<Int, Never>()
        private var cancellables: [AnyCancellable] = []
        private var sum = 0

        init() {
            cancellables = (0..<Self.subscribers).map { _ in subject.sink { [unowned self] in sum &+= $0 } }
        }

        func run(_ count: Int) -> Int {
            for value in 0..<count { subject.send(value) }
            return sum
        }
    }

    /// `Chain` with a `trace` stage after the subject and after every operator, tracing off (nil
    /// tracer): what instrumenting every stage costs when no one listens.
    final class TracedOffChain: BatchOperation {
        private let subject = PassthroughSubject<Int, Never>()
        private var cancellable: AnyCancellable?
        private var sum = 0
        private var next = 0

        init() {
            let scheduler = ImmediateScheduler.shared
            let off: ((String, TraceEvent<Int, Never>, ImmediateScheduler.SchedulerTimeType) -> Void)? = nil
            let mapped = subject
                .trace("input", on: scheduler, to: off)
                .map { (value: Int) -> Int in value / 2 }
                .trace("map", on: scheduler, to: off)
            let filtered = mapped
                .filter { (value: Int) -> Bool in value % 3 != 0 }
                .trace("filter", on: scheduler, to: off)
            cancellable = filtered
                .removeDuplicates()
                .trace("removeDuplicates", on: scheduler, to: off)
                .sink { [unowned self] in sum &+= $0 }
        }

        func run(_ count: Int) -> Int {
            for _ in 0..<count {
                subject.send(next)
                next &+= 1
            }
            return sum
        }
    }
}
