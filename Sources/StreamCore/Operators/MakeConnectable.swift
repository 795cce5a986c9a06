extension Publishers {
    /// A connectable wrapper around a publisher: subscribers attach at any time, and the upstream
    /// is subscribed only when `connect()` is called.
    ///
    /// Equivalent to `multicast(subject: PassthroughSubject())`.
    public struct MakeConnectable<Upstream: Publisher>: ConnectablePublisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        private let multicast: Multicast<Upstream, PassthroughSubject<Output, Failure>>

        /// Creates a connectable publisher attached to `upstream`.
        public init(upstream: Upstream) {
            multicast = upstream.multicast(subject: PassthroughSubject())
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            multicast.subscribe(subscriber)
        }

        /// Subscribes to the upstream; cancel the result to cancel the upstream.
        public func connect() -> Cancellable {
            multicast.connect()
        }
    }
}

extension Publisher where Failure == Never {
    /// Wraps this publisher in a `ConnectablePublisher`: nothing is published until `connect()`.
    public func makeConnectable() -> Publishers.MakeConnectable<Self> {
        Publishers.MakeConnectable(upstream: self)
    }
}
