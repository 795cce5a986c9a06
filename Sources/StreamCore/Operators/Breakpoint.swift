import Foundation

extension Publishers {
    /// A publisher that raises a debugger signal (`SIGTRAP`) when a provided closure returns
    /// `true`; everything else passes through unchanged.
    public struct Breakpoint<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// A closure that executes when the publisher receives a subscription.
        public let receiveSubscription: ((Subscription) -> Bool)?
        /// A closure that executes when the publisher receives a value.
        public let receiveOutput: ((Upstream.Output) -> Bool)?
        /// A closure that executes when the publisher receives a completion.
        public let receiveCompletion: ((Subscribers.Completion<Upstream.Failure>) -> Bool)?

        /// Creates a breakpoint publisher with the provided upstream publisher and closures.
        public init(
            upstream: Upstream,
            receiveSubscription: ((Subscription) -> Bool)? = nil,
            receiveOutput: ((Upstream.Output) -> Bool)? = nil,
            receiveCompletion: ((Subscribers.Completion<Failure>) -> Bool)? = nil
        ) {
            self.upstream = upstream
            self.receiveSubscription = receiveSubscription
            self.receiveOutput = receiveOutput
            self.receiveCompletion = receiveCompletion
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, breakpoint: self))
        }

        /// Changes neither demand nor completion: hands the upstream's subscription straight on.
        private struct Inner<Downstream: Subscriber>: Subscriber, CustomStringConvertible
        where Downstream.Input == Output, Downstream.Failure == Failure {
            let downstream: Downstream
            let receiveSubscription: ((Subscription) -> Bool)?
            let receiveOutput: ((Upstream.Output) -> Bool)?
            let receiveCompletion: ((Subscribers.Completion<Upstream.Failure>) -> Bool)?
            let combineIdentifier = CombineIdentifier()

            init(downstream: Downstream, breakpoint: Breakpoint) {
                self.downstream = downstream
                receiveSubscription = breakpoint.receiveSubscription
                receiveOutput = breakpoint.receiveOutput
                receiveCompletion = breakpoint.receiveCompletion
            }

            var description: String { "Breakpoint" }

            func receive(subscription: Subscription) {
                if receiveSubscription?(subscription) == true { raise(SIGTRAP) }
                downstream.receive(subscription: subscription)
            }

            func receive(_ input: Upstream.Output) -> Subscribers.Demand {
                if receiveOutput?(input) == true { raise(SIGTRAP) }
                return downstream.receive(input)
            }

            func receive(completion: Subscribers.Completion<Failure>) {
                if receiveCompletion?(completion) == true { raise(SIGTRAP) }
                downstream.receive(completion: completion)
            }
        }
    }
}

extension Publisher {
    /// Raises a debugger signal when a provided closure needs to stop the process in the
    /// debugger.
    public func breakpoint(
        receiveSubscription: ((Subscription) -> Bool)? = nil,
        receiveOutput: ((Output) -> Bool)? = nil,
        receiveCompletion: ((Subscribers.Completion<Failure>) -> Bool)? = nil
    ) -> Publishers.Breakpoint<Self> {
        Publishers.Breakpoint(
            upstream: self,
            receiveSubscription: receiveSubscription,
            receiveOutput: receiveOutput,
            receiveCompletion: receiveCompletion
        )
    }

    /// Raises a debugger signal upon receiving a failure.
    public func breakpointOnError() -> Publishers.Breakpoint<Self> {
        breakpoint(receiveCompletion: { completion in
            if case .failure = completion { true } else { false }
        })
    }
}
