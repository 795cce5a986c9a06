extension Publishers {
    /// A publisher that publishes only elements that don't match the previous element, as
    /// evaluated by an error-throwing closure; a thrown error cancels the upstream and fails.
    public struct TryRemoveDuplicates<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// An error-throwing closure to evaluate whether two elements are equivalent.
        public let predicate: (Output, Output) throws -> Bool

        /// Creates a publisher that drops elements `predicate` finds equal to the previous one.
        public init(upstream: Upstream, predicate: @escaping (Output, Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, predicate: predicate))
        }

        private final class Inner<Downstream: Subscriber>:
            FilterProducer<Downstream, Upstream.Output, Upstream.Failure>
        where Downstream.Input == Output, Downstream.Failure == Error {
            private let predicate: (Output, Output) throws -> Bool
            /// Touched only from `receive(newValue:)`, which upstream calls serially.
            private var last: Output?

            init(downstream: Downstream, predicate: @escaping (Output, Output) throws -> Bool) {
                self.predicate = predicate
                super.init(downstream: downstream, mapFailure: { $0 })
            }

            override var description: String { "TryRemoveDuplicates" }

            override func receive(newValue: Output) -> PartialCompletion<Output?, Error> {
                let previous = last
                last = newValue
                guard let previous else { return .continue(newValue) }
                do {
                    return .continue(try predicate(previous, newValue) ? nil : newValue)
                } catch {
                    return .failure(error)
                }
            }
        }
    }
}

extension Publisher {
    /// Publishes only elements that don't match the previous element, as evaluated by a
    /// provided error-throwing closure.
    public func tryRemoveDuplicates(
        by predicate: @escaping (Output, Output) throws -> Bool
    ) -> Publishers.TryRemoveDuplicates<Self> {
        Publishers.TryRemoveDuplicates(upstream: self, predicate: predicate)
    }
}
