extension Publishers {
    /// A publisher that republishes all elements that match a provided error-throwing closure;
    /// a thrown error cancels the upstream and fails the stream.
    public struct TryFilter<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// An error-throwing closure that indicates whether to republish an element.
        public let isIncluded: (Upstream.Output) throws -> Bool

        /// Creates a publisher that republishes the elements `isIncluded` accepts.
        public init(upstream: Upstream, isIncluded: @escaping (Upstream.Output) throws -> Bool) {
            self.upstream = upstream
            self.isIncluded = isIncluded
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, isIncluded: isIncluded))
        }

        private final class Inner<Downstream: Subscriber>:
            FilterProducer<Downstream, Upstream.Output, Upstream.Failure>
        where Downstream.Input == Output, Downstream.Failure == Error {
            private let isIncluded: (Upstream.Output) throws -> Bool

            init(downstream: Downstream, isIncluded: @escaping (Upstream.Output) throws -> Bool) {
                self.isIncluded = isIncluded
                super.init(downstream: downstream, mapFailure: { $0 })
            }

            override var description: String { "TryFilter" }

            override func receive(newValue: Output) -> PartialCompletion<Output?, Error> {
                do {
                    return .continue(try isIncluded(newValue) ? newValue : nil)
                } catch {
                    return .failure(error)
                }
            }
        }
    }
}

extension Publisher {
    /// Republishes all elements that match a provided error-throwing closure.
    public func tryFilter(_ isIncluded: @escaping (Output) throws -> Bool) -> Publishers.TryFilter<Self> {
        Publishers.TryFilter(upstream: self, isIncluded: isIncluded)
    }
}

extension Publishers.TryFilter {
    /// Fuses a filter into this try-filter.
    public func filter(_ isIncluded: @escaping (Output) -> Bool) -> Publishers.TryFilter<Upstream> {
        let first = self.isIncluded
        return Publishers.TryFilter(upstream: upstream) { try first($0) && isIncluded($0) }
    }

    /// Fuses two try-filters into one.
    public func tryFilter(_ isIncluded: @escaping (Output) throws -> Bool) -> Publishers.TryFilter<Upstream> {
        let first = self.isIncluded
        return Publishers.TryFilter(upstream: upstream) { try first($0) && isIncluded($0) }
    }
}

extension Publishers.Filter {
    /// Fuses a try-filter into this filter.
    public func tryFilter(_ isIncluded: @escaping (Output) throws -> Bool) -> Publishers.TryFilter<Upstream> {
        let first = self.isIncluded
        return Publishers.TryFilter(upstream: upstream) { try first($0) && isIncluded($0) }
    }
}
