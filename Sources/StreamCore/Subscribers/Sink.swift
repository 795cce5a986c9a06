import Locking

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
        // Every field is guarded by `lock`, which already makes accesses exclusive: the dynamic
        // exclusivity checks (`@exclusivity(unchecked)`) would only cost time on the hot path.
        @usableFromInline let lock = Lock()
        @usableFromInline @exclusivity(unchecked) var valueHandler: ((Input) -> Void)?
        @usableFromInline @exclusivity(unchecked) var completionHandler: ((Subscribers.Completion<Failure>) -> Void)?
        @usableFromInline @exclusivity(unchecked) var upstream = SubscriptionSlot()
        @usableFromInline @exclusivity(unchecked) var terminated = false

        /// Creates a sink with the given closures.
        @inlinable
        public init(
            receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
            receiveValue: @escaping (Input) -> Void
        ) {
            completionHandler = receiveCompletion
            valueHandler = receiveValue
        }

        public var description: String { "Sink" }

        @inlinable
        public func receive(subscription: Subscription) {
            lock.lock()
            guard !upstream.isSet, !terminated else {
                lock.unlock()
                subscription.cancel()
                return
            }
            upstream.set(subscription)
            lock.unlock()
            subscription.request(.unlimited)
        }

        @inlinable
        public func receive(_ value: Input) -> Subscribers.Demand {
            lock.lock()
            guard let handler = valueHandler else {
                lock.unlock()
                return .none
            }
            lock.unlock()
            handler(value)
            return .none
        }

        @inlinable
        public func receive(completion: Subscribers.Completion<Failure>) {
            lock.lock()
            guard !terminated else {
                lock.unlock()
                return
            }
            terminated = true
            // Taken into locals so that they are released after the unlock and the handler (the
            // `consume`s below), not under the lock.
            let subscription = upstream.take()
            let valueHandler = self.valueHandler
            let handler = completionHandler
            self.valueHandler = nil
            completionHandler = nil
            lock.unlock()
            if let handler { handler(completion) }
            _ = consume subscription
            _ = consume valueHandler
        }

        @inlinable
        public func cancel() {
            lock.lock()
            // Already finished or cancelled: everything was released then (the common case of an
            // AnyCancellable cancelled, or released, after its sink's completion).
            guard !terminated else {
                lock.unlock()
                return
            }
            let subscription = upstream.take()
            // Not `take()` for the closures: generic over `Input`, it would need runtime
            // metadata when this runs unspecialised (as it does behind `AnyCancellable`).
            let valueHandler = self.valueHandler
            let completionHandler = self.completionHandler
            self.valueHandler = nil
            self.completionHandler = nil
            terminated = true
            lock.unlock()
            subscription.cancel()
            // Released here, not under the lock. (No `withExtendedLifetime` of a tuple: that
            // needs runtime metadata lookups when this runs unspecialised.)
            if valueHandler != nil || completionHandler != nil {}
        }
    }
}

extension Publisher {
    /// Attaches a subscriber with closure-based behaviour.
    @inlinable
    public func sink(
        receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
        receiveValue: @escaping (Output) -> Void
    ) -> AnyCancellable {
        let sink = Subscribers.Sink<Output, Failure>(receiveCompletion: receiveCompletion, receiveValue: receiveValue)
        subscribe(sink)
        return AnyCancellable(object: sink)
    }
}

extension Publisher where Failure == Never {
    /// Attaches a subscriber with closure-based behaviour to a publisher that never fails.
    @inlinable
    public func sink(receiveValue: @escaping (Output) -> Void) -> AnyCancellable {
        sink(receiveCompletion: { _ in }, receiveValue: receiveValue)
    }
}
