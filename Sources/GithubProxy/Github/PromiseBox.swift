import StreamCore

/// Carries a `Future`'s promise into a `@Sendable` completion handler (a store's or Redis's
/// callback), which calls it exactly once.
final class PromiseBox<Output, Failure: Error>: @unchecked Sendable {
    // Sendable: `promise` is immutable, and the one caller calls it once.
    private let promise: (Result<Output, Failure>) -> Void

    init(_ promise: @escaping (Result<Output, Failure>) -> Void) { self.promise = promise }

    func fulfill(_ result: Result<Output, Failure>) { promise(result) }
}

/// The one answer of a callback API as a publisher: each subscription runs `start`, whose
/// argument must be called once (on any thread); its value is the publisher's only output.
func callbackPublisher<Output>(_ start: @escaping (@escaping @Sendable (Output) -> Void) -> Void) -> AnyPublisher<Output, Never> {
    Deferred {
        Future<Output, Never> { promise in
            let promise = PromiseBox(promise)
            start { promise.fulfill(.success($0)) }
        }
    }
    .eraseToAnyPublisher()
}
