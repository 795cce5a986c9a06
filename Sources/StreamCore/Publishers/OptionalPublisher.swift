extension Optional {
    /// A publisher that publishes an optional value to each subscriber exactly once, if the
    /// optional has a value, and then finishes.
    public struct Publisher: StreamCore.Publisher {
        public typealias Output = Wrapped
        public typealias Failure = Never

        /// The result to deliver to each subscriber.
        public let output: Wrapped?

        /// Creates a publisher to emit the value of the optional, or to finish immediately if
        /// the optional is `nil`.
        public init(_ output: Output?) { self.output = output }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            if let output {
                subscriber.receive(
                    subscription: SingleValueSubscription(value: output, downstream: subscriber, description: "Optional")
                )
            } else {
                subscriber.receive(subscription: Subscriptions.empty)
                subscriber.receive(completion: .finished)
            }
        }
    }

    /// A publisher that emits the wrapped value, if any, then finishes.
    public var publisher: Publisher { Publisher(self) }
}

extension Optional.Publisher: Equatable where Wrapped: Equatable {}
