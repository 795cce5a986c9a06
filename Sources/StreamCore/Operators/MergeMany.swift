extension Publishers {
    /// A publisher created by applying the merge function to an arbitrary number of upstream
    /// publishers of one type.
    ///
    /// Finishes when every upstream has finished; the first failure cancels the others. While
    /// the downstream's demand is limited each upstream is asked for one value at a time (see
    /// `MergeCore`).
    public struct MergeMany<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publishers this publisher merges.
        public let publishers: [Upstream]

        /// Creates a publisher that merges the given publishers.
        public init(_ upstream: Upstream...) { publishers = upstream }

        /// Creates a publisher that merges the publishers of a sequence.
        public init<S: Swift.Sequence>(_ upstream: S) where S.Element == Upstream {
            publishers = Array(upstream)
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            subscribeMerging(subscriber, publishers.map { publisher in { publisher.subscribe($0) } })
        }

        /// A MergeMany that also merges `other`.
        public func merge(with other: Upstream) -> Publishers.MergeMany<Upstream> {
            Publishers.MergeMany(publishers + [other])
        }
    }
}

extension Publishers.MergeMany: Equatable where Upstream: Equatable {}
