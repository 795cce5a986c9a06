import Locking

extension Subscribers {
    /// A simple subscriber that assigns received elements to a property of an object.
    public final class Assign<Root, Input>: Subscriber, Cancellable, CustomStringConvertible {
        public typealias Failure = Never

        /// The object that contains the property to assign; released on completion or cancel.
        public private(set) var object: Root?
        /// The key path that indicates the property to assign.
        public let keyPath: ReferenceWritableKeyPath<Root, Input>

        private let lock = Lock()
        private var subscription: Subscription?

        /// Creates a subscriber that assigns each value to `object[keyPath:]`.
        public init(object: Root, keyPath: ReferenceWritableKeyPath<Root, Input>) {
            self.object = object
            self.keyPath = keyPath
        }

        public var description: String { object.map { "Assign \(type(of: $0))." } ?? "Assign" }

        public func receive(subscription: Subscription) {
            lock.lock()
            guard self.subscription == nil, object != nil else {
                lock.unlock()
                subscription.cancel()
                return
            }
            self.subscription = subscription
            lock.unlock()
            subscription.request(.unlimited)
        }

        public func receive(_ value: Input) -> Subscribers.Demand {
            lock.lock()
            let object = self.object
            lock.unlock()
            object?[keyPath: keyPath] = value
            return .none
        }

        public func receive(completion: Subscribers.Completion<Never>) {
            lock.lock()
            object = nil
            subscription = nil
            lock.unlock()
        }

        public func cancel() {
            lock.lock()
            let subscription = self.subscription
            self.subscription = nil
            object = nil
            lock.unlock()
            subscription?.cancel()
        }
    }
}

extension Publisher where Failure == Never {
    /// Assigns each element to a property on an object; the object is retained until completion
    /// or cancellation.
    public func assign<Root>(to keyPath: ReferenceWritableKeyPath<Root, Output>, on object: Root) -> AnyCancellable {
        let assign = Subscribers.Assign(object: object, keyPath: keyPath)
        subscribe(assign)
        return AnyCancellable(assign)
    }
}
