/// The one answer of a callback API as a publisher: each subscription runs `start`, whose
/// argument must be called once (on any thread); its value is the publisher's only output.
///
/// `Deferred { Future { … } }`, which StreamCore's `Sendable` promise makes safe to hand to a
/// `@Sendable` completion handler. Not part of the Combine API: the other modules of the project
/// see it through `@_spi(ServerSupport) import StreamCore`.
@_spi(ServerSupport)
public func callbackPublisher<Output>(
    _ start: @escaping (@escaping @Sendable (Output) -> Void) -> Void
) -> AnyPublisher<Output, Never> {
    Deferred {
        Future<Output, Never> { promise in
            start { promise(.success($0)) }
        }
    }
    .eraseToAnyPublisher()
}
