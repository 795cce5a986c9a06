/// A publisher that exposes its elements as an asynchronous sequence (`publisher.values`),
/// for publishers that never fail.
///
/// Each `next()` requests one element. Cancelling the awaiting task cancels the subscription
/// and ends the sequence; so does dropping the iterator.
public struct AsyncPublisher<P: Publisher>: AsyncSequence where P.Failure == Never {
    public typealias Element = P.Output

    private let publisher: P

    /// Creates a publisher that exposes elements received from an upstream publisher as an
    /// asynchronous sequence.
    public init(_ publisher: P) { self.publisher = publisher }

    /// Subscribes to the publisher and returns an iterator over its elements.
    public func makeAsyncIterator() -> Iterator { Iterator(publisher) }

    /// The iterator that produces elements of the asynchronous publisher sequence.
    public struct Iterator: AsyncIteratorProtocol {
        public typealias Element = P.Output

        private let handle: AsyncSubscriberHandle<P.Output, Never>

        init(_ publisher: P) {
            handle = AsyncSubscriberHandle()
            publisher.subscribe(handle.subscriber)
        }

        /// Produces the next element; `nil` after the publisher finishes or the task is cancelled.
        public mutating func next() async -> P.Output? {
            let subscriber = handle.subscriber
            let outcome = await withTaskCancellationHandler {
                await withUnsafeContinuation { continuation in
                    subscriber.next { continuation.resume(returning: $0) }
                }
            } onCancel: {
                subscriber.cancel()
            }
            switch outcome {
            case .value(let box): return box.value
            case .end, .failure: return nil
            }
        }
    }
}

/// A publisher that exposes its elements as an asynchronous throwing sequence
/// (`publisher.values`), for publishers that can fail.
///
/// Each `next()` requests one element; a failure is thrown once, then the sequence ends.
public struct AsyncThrowingPublisher<P: Publisher>: AsyncSequence {
    public typealias Element = P.Output

    private let publisher: P

    /// Creates a publisher that exposes elements received from an upstream publisher as a
    /// throwing asynchronous sequence.
    public init(_ publisher: P) { self.publisher = publisher }

    /// Subscribes to the publisher and returns an iterator over its elements.
    public func makeAsyncIterator() -> Iterator { Iterator(publisher) }

    /// The iterator that produces elements of the asynchronous publisher sequence.
    public struct Iterator: AsyncIteratorProtocol {
        public typealias Element = P.Output

        private let handle: AsyncSubscriberHandle<P.Output, P.Failure>

        init(_ publisher: P) {
            handle = AsyncSubscriberHandle()
            publisher.subscribe(handle.subscriber)
        }

        /// Produces the next element, throws the publisher's failure, or returns `nil` after
        /// the publisher finishes or the task is cancelled.
        public mutating func next() async throws -> P.Output? {
            let subscriber = handle.subscriber
            let outcome = await withTaskCancellationHandler {
                await withUnsafeContinuation { continuation in
                    subscriber.next { continuation.resume(returning: $0) }
                }
            } onCancel: {
                subscriber.cancel()
            }
            switch outcome {
            case .value(let box): return box.value
            case .end: return nil
            case .failure(let box): throw box.value
            }
        }
    }
}

extension Publisher where Failure == Never {
    /// The elements produced by the publisher, as an asynchronous sequence.
    public var values: AsyncPublisher<Self> { AsyncPublisher(self) }
}

extension Publisher {
    /// The elements produced by the publisher, as a throwing asynchronous sequence.
    public var values: AsyncThrowingPublisher<Self> { AsyncThrowingPublisher(self) }
}
