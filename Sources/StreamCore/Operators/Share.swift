extension Publishers {
    /// A publisher that shares one subscription to its upstream among all of its subscribers.
    ///
    /// Effectively `multicast(subject: PassthroughSubject()).autoconnect()`: the first subscriber
    /// subscribes the upstream (once, however many subscribers follow), late subscribers miss the
    /// values sent before they attached, and the last cancel cancels the upstream. After the
    /// upstream completes, a new subscriber receives that completion at once. A class, so that
    /// every copy of the reference shares the same upstream subscription.
    public final class Share<Upstream: Publisher>: Publisher, Equatable {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        private let inner: Autoconnect<Multicast<Upstream, PassthroughSubject<Output, Failure>>>

        /// Creates a publisher that shares `upstream`.
        public init(upstream: Upstream) {
            self.upstream = upstream
            inner = upstream.multicast(subject: PassthroughSubject()).autoconnect()
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            inner.subscribe(subscriber)
        }

        /// Two shares are equal only if they are the same instance.
        public static func == (lhs: Share, rhs: Share) -> Bool { lhs === rhs }
    }
}

extension Publisher {
    /// Shares the output of this publisher with multiple subscribers through one upstream
    /// subscription (for example, to avoid repeating a network request per subscriber).
    public func share() -> Publishers.Share<Self> {
        Publishers.Share(upstream: self)
    }
}
