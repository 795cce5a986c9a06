extension Publishers {
    /// A publisher that republishes all non-`nil` results of calling a closure with each
    /// received element.
    public struct CompactMap<Upstream: Publisher, Output>: Publisher {
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// A closure that receives values from the upstream publisher and returns optional values.
        public let transform: (Upstream.Output) -> Output?

        /// Creates a publisher that republishes the non-`nil` results of `transform`.
        @inlinable
        public init(upstream: Upstream, transform: @escaping (Upstream.Output) -> Output?) {
            self.upstream = upstream
            self.transform = transform
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: Inner(downstream: subscriber, transform: transform))
        }

        /// Like Filter: hands the upstream's subscription to the downstream, and replaces a value
        /// whose transform is `nil` by asking the upstream for one more.
        @usableFromInline
        struct Inner<Downstream: Subscriber>: Subscriber, CustomStringConvertible
        where Downstream.Input == Output, Downstream.Failure == Failure {
            @usableFromInline let downstream: Downstream
            @usableFromInline let transform: (Upstream.Output) -> Output?
            /// Derived from the downstream's: this forwarding struct has no identity of its own.
            @inlinable var combineIdentifier: CombineIdentifier { downstream.combineIdentifier }

            @inlinable
            init(downstream: Downstream, transform: @escaping (Upstream.Output) -> Output?) {
                self.downstream = downstream
                self.transform = transform
            }

            @usableFromInline var description: String { "CompactMap" }

            @inlinable func receive(subscription: Subscription) { downstream.receive(subscription: subscription) }

            @inlinable func receive(_ input: Upstream.Output) -> Subscribers.Demand {
                guard let output = transform(input) else { return .max(1) }
                return downstream.receive(output)
            }

            @inlinable func receive(completion: Subscribers.Completion<Failure>) {
                downstream.receive(completion: completion)
            }
        }
    }
}

extension Publisher {
    /// Calls a closure with each received element and publishes any returned optional that has a value.
    @inlinable
    public func compactMap<T>(_ transform: @escaping (Output) -> T?) -> Publishers.CompactMap<Self, T> {
        Publishers.CompactMap(upstream: self, transform: transform)
    }
}

extension Publishers.CompactMap {
    /// Fuses two compact-maps into one.
    @inlinable
    public func compactMap<T>(_ transform: @escaping (Output) -> T?) -> Publishers.CompactMap<Upstream, T> {
        let first = self.transform
        return Publishers.CompactMap(upstream: upstream) { first($0).flatMap(transform) }
    }

    /// Fuses a map into this compact-map.
    @inlinable
    public func map<T>(_ transform: @escaping (Output) -> T) -> Publishers.CompactMap<Upstream, T> {
        let first = self.transform
        return Publishers.CompactMap(upstream: upstream) { first($0).map(transform) }
    }
}
