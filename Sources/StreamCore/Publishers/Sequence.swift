import Locking

extension Publishers {
    /// A publisher that publishes a given sequence of elements, honouring demand.
    public struct Sequence<Elements: Swift.Sequence, Failure: Error>: Publisher {
        public typealias Output = Elements.Element

        /// The sequence of elements to publish.
        public let sequence: Elements

        /// Creates a publisher for a sequence of elements.
        public init(sequence: Elements) { self.sequence = sequence }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            var iterator = sequence.makeIterator()
            guard let first = iterator.next() else {
                subscriber.receive(subscription: Subscriptions.empty)
                subscriber.receive(completion: .finished)
                return
            }
            subscriber.receive(subscription: Inner(downstream: subscriber, first: first, rest: iterator))
        }

        private final class Inner<Downstream: Subscriber>: Subscription, CustomStringConvertible
        where Downstream.Input == Elements.Element, Downstream.Failure == Failure {
            private let lock = Lock()
            private var downstream: Downstream?
            private var iterator: Elements.Iterator
            private var next: Elements.Element?
            private var pending = Subscribers.Demand.none
            private var emitting = false

            init(downstream: Downstream, first: Elements.Element, rest: Elements.Iterator) {
                self.downstream = downstream
                next = first
                iterator = rest
            }

            var description: String { "Sequence" }

            func request(_ demand: Subscribers.Demand) {
                precondition(demand > 0, "demand must be positive")
                lock.lock()
                guard downstream != nil else {
                    lock.unlock()
                    return
                }
                pending += demand
                // A request made from inside receive(_:) only raises the demand; the loop below,
                // already running further up the stack, delivers.
                guard !emitting else {
                    lock.unlock()
                    return
                }
                emitting = true
                while let downstream, pending > 0, let value = next {
                    pending -= 1
                    next = iterator.next()
                    lock.unlock()
                    let more = downstream.receive(value)
                    lock.lock()
                    pending += more
                }
                emitting = false
                guard let downstream, next == nil else {
                    lock.unlock()
                    return
                }
                self.downstream = nil
                lock.unlock()
                downstream.receive(completion: .finished)
            }

            func cancel() {
                lock.lock()
                downstream = nil
                next = nil
                lock.unlock()
            }
        }
    }
}

extension Sequence {
    /// A publisher of this sequence's elements.
    public var publisher: Publishers.Sequence<Self, Never> { Publishers.Sequence(sequence: self) }
}
