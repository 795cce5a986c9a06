extension Subscribers {
    /// A simple subscriber that requests an unlimited number of values upon subscription.
    public final class Sink<Input, Failure: Error>: Subscriber, Cancellable, CustomStringConvertible {
        /// The closure to execute on receipt of a value (a no-op once the sink has terminated).
        public var receiveValue: (Input) -> Void { lock.withLock { valueHandler } ?? { _ in } }
        /// The closure to execute on completion (a no-op once the sink has terminated).
        public var receiveCompletion: (Subscribers.Completion<Failure>) -> Void {
            lock.withLock { completionHandler } ?? { _ in }
        }

        // The closures are released on completion or cancel, as Apple's Sink does, so that what
        // they capture (often the owner of the AnyCancellable) isn't kept alive by a dead sink.
        @usableFromInline let lock = Lock()
        @usableFromInline var valueHandler: ((Input) -> Void)?
        private var completionHandler: ((Subscribers.Completion<Failure>) -> Void)?
        private var subscription: Subscription?
        private var terminated = false

        /// Creates a sink with the given closures.
        public init(
            receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
            receiveValue: @escaping (Input) -> Void
        ) {
            completionHandler = receiveCompletion
            valueHandler = receiveValue
        }

        public var description: String { "Sink" }

        public func receive(subscription: Subscription) {
            lock.lock()
            guard self.subscription == nil, !terminated else {
                lock.unlock()
                subscription.cancel()
                return
            }
            self.subscription = subscription
            lock.unlock()
            subscription.request(.unlimited)
        }

        @inlinable
        public func receive(_ value: Input) -> Subscribers.Demand {
            lock.lock()
            let handler = valueHandler
            lock.unlock()
            handler?(value)
            return .none
        }

        public func receive(completion: Subscribers.Completion<Failure>) {
            lock.lock()
            guard !terminated else {
                lock.unlock()
                return
            }
            terminated = true
            subscription = nil
            let handler = completionHandler
            completionHandler = nil
            valueHandler = nil
            lock.unlock()
            handler?(completion)
        }

        public func cancel() {
            lock.lock()
            let subscription = self.subscription
            self.subscription = nil
            terminated = true
            let handlers = (valueHandler, completionHandler)
            valueHandler = nil
            completionHandler = nil
            lock.unlock()
            subscription?.cancel()
            withExtendedLifetime(handlers) {}
        }
    }
}

extension Publisher {
    /// Attaches a subscriber with closure-based behaviour.
    public func sink(
        receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
        receiveValue: @escaping (Output) -> Void
    ) -> AnyCancellable {
        let sink = Subscribers.Sink<Output, Failure>(receiveCompletion: receiveCompletion, receiveValue: receiveValue)
        subscribe(sink)
        return AnyCancellable(sink)
    }
}

extension Publisher where Failure == Never {
    /// Attaches a subscriber with closure-based behaviour to a publisher that never fails.
    public func sink(receiveValue: @escaping (Output) -> Void) -> AnyCancellable {
        sink(receiveCompletion: { _ in }, receiveValue: receiveValue)
    }
}
