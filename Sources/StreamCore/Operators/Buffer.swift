import Locking

extension Publishers {
    /// A strategy for filling a buffer.
    public enum PrefetchStrategy: Equatable, Hashable, Sendable {
        /// Requests as many values as the buffer holds at subscription, and one more for each value
        /// handed downstream.
        case keepFull
        /// Requests unlimited values from the upstream at subscription.
        case byRequest
    }

    /// A strategy that handles exhaustion of a buffer’s capacity.
    public enum BufferingStrategy<Failure: Error> {
        /// When the buffer is full, discard the newly received element.
        case dropNewest
        /// When the buffer is full, discard the oldest element in the buffer.
        case dropOldest
        /// When the buffer is full, cancel the upstream and fail with the given error.
        case customError(() -> Failure)
    }

    /// A publisher that buffers elements from an upstream publisher.
    ///
    /// Behaves like Apple's: buffered values are handed downstream as demand allows; a finish is
    /// delivered once the buffer is empty and the downstream has demand left over (so possibly
    /// only at its next request), a failure as soon as the downstream has no demand left
    /// (dropping what is still buffered).
    public struct Buffer<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The maximum number of elements to store.
        public let size: Int
        /// The strategy for initially populating the buffer.
        public let prefetch: Publishers.PrefetchStrategy
        /// The action to take when the buffer becomes full.
        public let whenFull: Publishers.BufferingStrategy<Upstream.Failure>

        /// Creates a buffering publisher.
        public init(
            upstream: Upstream,
            size: Int,
            prefetch: Publishers.PrefetchStrategy,
            whenFull: Publishers.BufferingStrategy<Failure>
        ) {
            self.upstream = upstream
            self.size = size
            self.prefetch = prefetch
            self.whenFull = whenFull
        }

        /// Attaches `subscriber` through a buffering stage.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, publisher: self))
        }
    }
}

extension Publishers.Buffer {
    private final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible
    where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
        typealias Input = Upstream.Output
        typealias Failure = Upstream.Failure

        private let publisher: Publishers.Buffer<Upstream>
        private let lock = Lock()
        // Guarded by `lock`.
        private var state: ScheduledLinkState<Downstream>
        private var demand = Subscribers.Demand.none
        private var values: [Input] = []
        private var head = 0
        private var terminal: Subscribers.Completion<Failure>?
        /// Set while `drain` delivers, so a re-entrant `request` only adds demand.
        private var draining = false

        init(downstream: Downstream, publisher: Publishers.Buffer<Upstream>) {
            state = .awaitingSubscription(downstream)
            self.publisher = publisher
        }

        var description: String { "Buffer" }

        private var count: Int { values.count - head }

        func receive(subscription: Subscription) {
            lock.lock()
            guard case .awaitingSubscription(let downstream) = state else {
                lock.unlock()
                subscription.cancel()
                return
            }
            state = .subscribed(subscription, downstream)
            lock.unlock()
            subscription.request(publisher.prefetch == .keepFull ? .max(publisher.size) : .unlimited)
            downstream.receive(subscription: self)
        }

        func receive(_ input: Input) -> Subscribers.Demand {
            lock.lock()
            guard case .subscribed(let subscription, _) = state, terminal == nil else {
                lock.unlock()
                return .none
            }
            if count >= publisher.size {
                switch publisher.whenFull {
                case .dropNewest:
                    lock.unlock()
                    return drain()
                case .dropOldest:
                    head += 1
                    if head > 16, head * 2 > values.count {  // reclaim the dropped prefix
                        values.removeFirst(head)
                        head = 0
                    }
                case .customError(let makeError):
                    terminal = .failure(makeError())
                    lock.unlock()
                    subscription.cancel()
                    return .none
                }
            }
            values.append(input)
            lock.unlock()
            return drain()
        }

        func receive(completion: Subscribers.Completion<Failure>) {
            lock.lock()
            guard state.isSubscribed, terminal == nil else {
                lock.unlock()
                return
            }
            terminal = completion
            lock.unlock()
            _ = drain()
        }

        func request(_ demand: Subscribers.Demand) {
            lock.lock()
            guard case .subscribed(let subscription, _) = state else {
                lock.unlock()
                return
            }
            self.demand += demand
            let reentrant = draining
            lock.unlock()
            guard !reentrant else { return }
            let more = drain()
            if more > 0 { subscription.request(more) }
        }

        func cancel() {
            lock.lock()
            let subscription = state.subscription
            state = .terminal
            values = []
            head = 0
            lock.unlock()
            subscription?.cancel()
        }

        /// Hands buffered values downstream while there is demand, then the completion if due.
        /// Returns how many more values to request upstream (`.keepFull` refills what it sent).
        private func drain() -> Subscribers.Demand {
            var refill = Subscribers.Demand.none
            lock.lock()
            while case .subscribed(_, let downstream) = state {
                let completion: Subscribers.Completion<Failure>?
                if demand == .none {
                    if case .failure? = terminal { completion = terminal } else { completion = nil }
                } else {
                    completion = count == 0 ? terminal : nil
                }
                if let completion {
                    state = .terminal
                    lock.unlock()
                    downstream.receive(completion: completion)
                    return refill
                }
                guard demand > 0, count > 0 else { break }
                let batch = Array(values[head..<(head + Swift.min(count, demand.max ?? count))])
                head += batch.count
                if head == values.count { values.removeAll(keepingCapacity: true); head = 0 }
                demand -= batch.count
                draining = true
                lock.unlock()
                var more = Subscribers.Demand.none
                for value in batch { more += downstream.receive(value) }
                if publisher.prefetch == .keepFull { refill += batch.count }
                lock.lock()
                draining = false
                demand += more
            }
            lock.unlock()
            return refill
        }
    }
}

extension Publisher {
    /// Buffers elements received from an upstream publisher.
    ///
    /// - Parameters:
    ///   - size: The maximum number of elements to store.
    ///   - prefetch: The strategy to initially populate the buffer.
    ///   - whenFull: The action to take when the buffer becomes full.
    public func buffer(
        size: Int,
        prefetch: Publishers.PrefetchStrategy,
        whenFull: Publishers.BufferingStrategy<Failure>
    ) -> Publishers.Buffer<Self> {
        Publishers.Buffer(upstream: self, size: size, prefetch: prefetch, whenFull: whenFull)
    }
}
