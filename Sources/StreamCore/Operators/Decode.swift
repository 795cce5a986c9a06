extension Publishers {
    /// A publisher that decodes elements received from an upstream publisher, using a given
    /// decoder. A failed decoding cancels the upstream and fails with the decoder's error.
    public struct Decode<Upstream: Publisher, Output: Decodable, Coder: TopLevelDecoder>: Publisher
    where Upstream.Output == Coder.Input {
        public typealias Failure = Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        private let decoder: Coder

        /// Creates a publisher that decodes the upstream's elements with `decoder`.
        public init(upstream: Upstream, decoder: Coder) {
            self.upstream = upstream
            self.decoder = decoder
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, decoder: decoder))
        }

        private final class Inner<Downstream: Subscriber>:
            FilterProducer<Downstream, Upstream.Output, Upstream.Failure>
        where Downstream.Input == Output, Downstream.Failure == Error {
            private let decoder: Coder

            init(downstream: Downstream, decoder: Coder) {
                self.decoder = decoder
                super.init(downstream: downstream, mapFailure: { $0 })
            }

            override var description: String { "Decode" }

            override func receive(newValue: Upstream.Output) -> PartialCompletion<Output?, Error> {
                do {
                    return .continue(try decoder.decode(Output.self, from: newValue))
                } catch {
                    return .failure(error)
                }
            }
        }
    }
}

extension Publisher {
    /// Decodes the output from the upstream using a specified decoder.
    public func decode<Item: Decodable, Coder: TopLevelDecoder>(
        type: Item.Type,
        decoder: Coder
    ) -> Publishers.Decode<Self, Item, Coder> where Output == Coder.Input {
        Publishers.Decode(upstream: self, decoder: decoder)
    }
}
