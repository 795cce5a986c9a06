extension Publishers {
    /// A publisher that republishes elements until another publisher emits an element, then
    /// finishes.
    public struct PrefixUntilOutput<Upstream: Publisher, Other: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher that this publisher receives elements from.
        public let upstream: Upstream
        /// Another publisher, whose first output causes this publisher to finish.
        public let other: Other

        /// Creates a publisher that republishes `upstream` until `other` emits an element.
        public init(upstream: Upstream, other: Other) {
            self.upstream = upstream
            self.other = other
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let inner = UntilOutputCore(downstream: subscriber, mode: .prefixUntil, description: "PrefixUntilOutput")
            subscriber.receive(subscription: inner)
            other.subscribe(UntilOutputTrigger<Other.Output, Other.Failure, S>(core: inner, ending: nil))
            upstream.subscribe(inner)
        }
    }
}

extension Publishers.PrefixUntilOutput: Equatable where Upstream: Equatable, Other: Equatable {}

extension Publisher {
    /// Republishes elements until another publisher emits an element; then cancels the
    /// upstream and finishes.
    public func prefix<P: Publisher>(untilOutputFrom publisher: P) -> Publishers.PrefixUntilOutput<Self, P> {
        Publishers.PrefixUntilOutput(upstream: self, other: publisher)
    }
}
