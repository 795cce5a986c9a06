import OpenCombine

enum OpenCombineCases {
    static func subjectChain(values: Int) -> Int {
        let subject = PassthroughSubject<Int, Never>()
        var sum = 0
        let cancellable = subject
            .map { $0 / 2 }
            .filter { $0 % 3 != 0 }
            .removeDuplicates()
            .sink { sum &+= $0 }
        for value in 0..<values { subject.send(value) }
        cancellable.cancel()
        return sum
    }

    static func subscribeCancel(times: Int) -> Int {
        var sum = 0
        for value in 0..<times {
            let cancellable = Just(value).map { $0 &+ 1 }.sink { sum &+= $0 }
            cancellable.cancel()
        }
        return sum
    }

    static func switchToLatest(values: Int) -> Int {
        let subject = PassthroughSubject<Int, Never>()
        var sum = 0
        let cancellable = subject.map { Just($0) }.switchToLatest().sink { sum &+= $0 }
        for value in 0..<values { subject.send(value) }
        cancellable.cancel()
        return sum
    }

    /// `throttle(latest: true)` on virtual time: four values per 10 ms window, one emitted each.
    static func throttle(values: Int) -> Int {
        let scheduler = OpenCombineVirtualScheduler()
        let subject = PassthroughSubject<Int, Never>()
        var sum = 0
        let cancellable = subject.throttle(for: .milliseconds(10), scheduler: scheduler, latest: true).sink { sum &+= $0 }
        for value in 0..<values {
            subject.send(value)
            if value % 4 == 3 { scheduler.advance(by: .milliseconds(10)) }
        }
        scheduler.advance(by: .milliseconds(10))
        cancellable.cancel()
        return sum
    }

    /// One subject, 1,000 subscribers, `sends` values.
    static func fanOut(sends: Int) -> Int {
        let subject = PassthroughSubject<Int, Never>()
        var sum = 0
        let cancellables = (0..<1_000).map { _ in subject.sink { sum &+= $0 } }
        for value in 0..<sends { subject.send(value) }
        cancellables.forEach { $0.cancel() }
        return sum
    }
}
