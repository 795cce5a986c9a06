import Locking

extension Publishers {
    /// A publisher that connects to an upstream connectable publisher when the first subscriber
    /// attaches and disconnects when the last subscriber cancels.
    ///
    /// Subscribers are counted: each one's subscription decrements the count once, on its first
    /// `cancel()`. A completion doesn't disconnect (as in Apple's Combine), so after the upstream
    /// has completed new subscribers get what the connectable publisher gives late subscribers.
    public class Autoconnect<Upstream: ConnectablePublisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The connectable publisher from which this publisher receives elements.
        public final let upstream: Upstream

        private enum State {
            case disconnected
            /// A subscriber is connecting (outside the lock); `attempt` tells its connection
            /// apart from a newer one if every subscriber cancels meanwhile.
            case connecting(refcount: Int, attempt: Int)
            case connected(refcount: Int, connection: Cancellable)
        }

        private let lock = Lock()
        private var state = State.disconnected
        private var attempts = 0

        /// Creates a publisher that connects `upstream` on demand.
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let inner = Inner(parent: self, downstream: subscriber)
            lock.lock()
            switch state {
            case .connecting(let refcount, let attempt):
                state = .connecting(refcount: refcount + 1, attempt: attempt)
                lock.unlock()
                upstream.subscribe(inner)
            case .connected(let refcount, let connection):
                state = .connected(refcount: refcount + 1, connection: connection)
                lock.unlock()
                upstream.subscribe(inner)
            case .disconnected:
                attempts += 1
                let attempt = attempts
                state = .connecting(refcount: 1, attempt: attempt)
                lock.unlock()
                // Subscribe first, so that a publisher that emits on connect reaches this subscriber.
                upstream.subscribe(inner)
                finishConnecting(attempt: attempt, connection: upstream.connect())
            }
        }

        /// Stores the connection, or cancels it if every subscriber left while connecting.
        private func finishConnecting(attempt: Int, connection: Cancellable) {
            lock.lock()
            guard case .connecting(let refcount, attempt) = state else {
                lock.unlock()
                connection.cancel()
                return
            }
            state = .connected(refcount: refcount, connection: connection)
            lock.unlock()
        }

        /// Called once per subscription on its first cancel: disconnects after the last one.
        fileprivate func release() {
            lock.lock()
            switch state {
            case .disconnected:
                lock.unlock()
            case .connecting(let refcount, let attempt):
                state = refcount > 1 ? .connecting(refcount: refcount - 1, attempt: attempt) : .disconnected
                lock.unlock()
            case .connected(let refcount, let connection):
                guard refcount <= 1 else {
                    state = .connected(refcount: refcount - 1, connection: connection)
                    lock.unlock()
                    return
                }
                state = .disconnected
                lock.unlock()
                connection.cancel()
            }
        }

        /// Passes values and completion through; wraps the subscription to count its cancel.
        private struct Inner<Downstream: Subscriber>: Subscriber, CustomStringConvertible
        where Downstream.Input == Output, Downstream.Failure == Failure {
            let parent: Autoconnect
            let downstream: Downstream
            let combineIdentifier = CombineIdentifier()

            var description: String { "Autoconnect" }

            func receive(subscription: Subscription) {
                downstream.receive(subscription: CountedSubscription(subscription, parent: parent))
            }

            func receive(_ input: Output) -> Subscribers.Demand { downstream.receive(input) }

            func receive(completion: Subscribers.Completion<Failure>) { downstream.receive(completion: completion) }
        }

        /// The upstream's subscription, seen by the downstream under the upstream's identity,
        /// that tells the parent about its first cancel and then lets go of both.
        private final class CountedSubscription: Subscription, CustomStringConvertible {
            private let lock = Lock()
            private var upstream: Subscription?
            private var parent: Autoconnect?
            let combineIdentifier: CombineIdentifier
            let description: String

            init(_ upstream: Subscription, parent: Autoconnect) {
                self.upstream = upstream
                self.parent = parent
                combineIdentifier = upstream.combineIdentifier
                description = String(describing: upstream)
            }

            func request(_ demand: Subscribers.Demand) {
                lock.withLock { upstream }?.request(demand)
            }

            func cancel() {
                lock.lock()
                let upstream = self.upstream
                let parent = self.parent
                self.upstream = nil
                self.parent = nil
                lock.unlock()
                parent?.release()
                upstream?.cancel()
            }
        }
    }
}

extension ConnectablePublisher {
    /// Connects to this publisher when the first subscriber attaches and disconnects when the
    /// last one cancels.
    public func autoconnect() -> Publishers.Autoconnect<Self> {
        Publishers.Autoconnect(upstream: self)
    }
}
