extension Publishers {
    /// A publisher that raises a fatal error upon receiving any failure, and otherwise
    /// republishes all received input.
    public struct AssertNoFailure<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Never

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The string used at the beginning of the fatal error message.
        public let prefix: String
        /// The filename used in the error message.
        public let file: StaticString
        /// The line number used in the error message.
        public let line: UInt

        /// Creates a publisher that traps on any upstream failure.
        public init(upstream: Upstream, prefix: String, file: StaticString, line: UInt) {
            self.upstream = upstream
            self.prefix = prefix
            self.file = file
            self.line = line
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
            upstream.subscribe(Inner(downstream: subscriber, prefix: prefix, file: file, line: line))
        }

        /// Values and demand pass straight through; only a failure is intercepted, by trapping.
        private struct Inner<Downstream: Subscriber>: Subscriber, CustomStringConvertible
        where Downstream.Input == Output, Downstream.Failure == Never {
            let downstream: Downstream
            let prefix: String
            let file: StaticString
            let line: UInt
            /// Derived from the downstream's: this forwarding struct has no identity of its own.
            var combineIdentifier: CombineIdentifier { downstream.combineIdentifier }

            var description: String { "AssertNoFailure" }

            func receive(subscription: Subscription) { downstream.receive(subscription: subscription) }

            func receive(_ input: Output) -> Subscribers.Demand { downstream.receive(input) }

            func receive(completion: Subscribers.Completion<Upstream.Failure>) {
                switch completion {
                case .finished:
                    downstream.receive(completion: .finished)
                case .failure(let error):
                    let label = prefix.isEmpty ? "" : prefix + ": "
                    fatalError("\(label)\(error)", file: file, line: line)
                }
            }
        }
    }
}

extension Publisher {
    /// Raises a fatal error when its upstream publisher fails, and otherwise republishes all
    /// received input.
    public func assertNoFailure(
        _ prefix: String = "",
        file: StaticString = #file,
        line: UInt = #line
    ) -> Publishers.AssertNoFailure<Self> {
        Publishers.AssertNoFailure(upstream: self, prefix: prefix, file: file, line: line)
    }
}
