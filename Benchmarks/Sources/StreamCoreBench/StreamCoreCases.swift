import StreamCore

enum StreamCoreCases {
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
}
