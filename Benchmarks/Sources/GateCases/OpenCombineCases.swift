import OpenCombine

/// OpenCombine's side of each comparison case: ``StreamCoreCases``' source against OpenCombine
/// 0.14.0, word for word but for two things OpenCombine lacks: `trace` (no traced chain here) and
/// a virtual-time scheduler (``OpenCombineVirtualScheduler``).
enum OpenCombineCases {
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
        private let scheduler = OpenCombineVirtualScheduler()
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
}
