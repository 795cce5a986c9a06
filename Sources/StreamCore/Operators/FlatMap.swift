extension Publishers {
    /// A publisher that transforms every element from the upstream into a new publisher and
    /// republishes the elements of all of them, interleaved.
    ///
    /// At most `maxPublishers` inner publishers are subscribed at once: the upstream is asked
    /// for that many elements, and for one more each time an inner publisher finishes. Downstream
    /// demand is shared by the inner publishers, one value at a time each, with at most one
    /// waiting value per inner (see `MergeCore`). Finishes when the upstream and every inner
    /// have finished; any failure cancels everything else.
    public struct FlatMap<NewPublisher: Publisher, Upstream: Publisher>: Publisher
    where NewPublisher.Failure == Upstream.Failure {
        public typealias Output = NewPublisher.Output
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The maximum number of concurrent inner subscriptions.
        public let maxPublishers: Subscribers.Demand
        /// The closure that turns each upstream element into a publisher.
        public let transform: (Upstream.Output) -> NewPublisher

        /// Creates a publisher that flattens the publishers `transform` makes.
        public init(
            upstream: Upstream,
            maxPublishers: Subscribers.Demand,
            transform: @escaping (Upstream.Output) -> NewPublisher
        ) {
            self.upstream = upstream
            self.maxPublishers = maxPublishers
            self.transform = transform
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, maxPublishers: maxPublishers, transform: transform))
        }

        /// Subscribes to the upstream and merges the inner publishers through MergeCore, which
        /// counts the upstream as one open source. `upstream` is guarded by the core's lock.
        private final class Inner<Downstream: Subscriber>: MergeCore<Downstream>, Subscriber
        where Downstream.Input == Output, Downstream.Failure == Upstream.Failure {
            typealias Input = Upstream.Output

            private let maxPublishers: Subscribers.Demand
            private let transform: (Upstream.Output) -> NewPublisher
            private var upstream: Subscription?
            private var upstreamDone = false

            init(
                downstream: Downstream,
                maxPublishers: Subscribers.Demand,
                transform: @escaping (Upstream.Output) -> NewPublisher
            ) {
                self.maxPublishers = maxPublishers
                self.transform = transform
                super.init(downstream: downstream, openSources: 1)
            }

            override var description: String { "FlatMap" }

            func receive(subscription: Subscription) {
                lock.lock()
                guard upstream == nil, !upstreamDone, !terminated else {
                    lock.unlock()
                    subscription.cancel()
                    return
                }
                upstream = subscription
                lock.unlock()
                sendSubscriptionDownstream()
                subscription.request(maxPublishers)
            }

            func receive(_ input: Upstream.Output) -> Subscribers.Demand {
                lock.lock()
                let active = upstream != nil && !terminated
                lock.unlock()
                guard active, let id = addSource(counted: true) else { return .none }
                transform(input).subscribe(MergeSource(core: self, id: id))
                return .none
            }

            func receive(completion: Subscribers.Completion<Upstream.Failure>) {
                lock.lock()
                guard upstream != nil, !terminated else {
                    lock.unlock()
                    return
                }
                upstream = nil
                upstreamDone = true
                lock.unlock()
                switch completion {
                case .finished: finishSource()
                case .failure(let error): fail(error)
                }
            }

            override func sourceDidFinish() {
                guard maxPublishers != .unlimited else { return }
                lock.lock()
                let upstream = terminated ? nil : self.upstream
                lock.unlock()
                upstream?.request(.max(1))
            }

            override func didTerminate() {
                lock.lock()
                let upstream = self.upstream
                self.upstream = nil
                lock.unlock()
                upstream?.cancel()
            }
        }
    }
}

extension Publisher {
    /// Transforms all elements into publishers, republishing their elements (at most
    /// `maxPublishers` inner publishers at once).
    public func flatMap<P: Publisher>(
        maxPublishers: Subscribers.Demand = .unlimited,
        _ transform: @escaping (Output) -> P
    ) -> Publishers.FlatMap<P, Self> where P.Failure == Failure {
        Publishers.FlatMap(upstream: self, maxPublishers: maxPublishers, transform: transform)
    }

    /// `flatMap` for inner publishers that never fail: they adopt this publisher's failure type.
    public func flatMap<P: Publisher>(
        maxPublishers: Subscribers.Demand = .unlimited,
        _ transform: @escaping (Output) -> P
    ) -> Publishers.FlatMap<Publishers.SetFailureType<P, Failure>, Self> where P.Failure == Never {
        Publishers.FlatMap(upstream: self, maxPublishers: maxPublishers) { transform($0).setFailureType(to: Failure.self) }
    }
}

extension Publisher where Failure == Never {
    /// `flatMap` for a never-failing upstream: it adopts the inner publishers' failure type.
    public func flatMap<P: Publisher>(
        maxPublishers: Subscribers.Demand = .unlimited,
        _ transform: @escaping (Output) -> P
    ) -> Publishers.FlatMap<P, Publishers.SetFailureType<Self, P.Failure>> {
        Publishers.FlatMap(upstream: setFailureType(to: P.Failure.self), maxPublishers: maxPublishers, transform: transform)
    }

    /// `flatMap` where neither the upstream nor the inner publishers can fail.
    public func flatMap<P: Publisher>(
        maxPublishers: Subscribers.Demand = .unlimited,
        _ transform: @escaping (Output) -> P
    ) -> Publishers.FlatMap<P, Self> where P.Failure == Never {
        Publishers.FlatMap(upstream: self, maxPublishers: maxPublishers, transform: transform)
    }
}
