extension Subscribers {
    /// A signal that a publisher doesn't produce additional elements, normally or due to an error.
    public enum Completion<Failure: Error> {
        /// The publisher finished normally.
        case finished
        /// The publisher stopped publishing due to the indicated error.
        case failure(Failure)
    }
}

extension Subscribers.Completion: Equatable where Failure: Equatable {}
extension Subscribers.Completion: Hashable where Failure: Hashable {}
extension Subscribers.Completion: Sendable where Failure: Sendable {}

extension Subscribers.Completion {
    /// The same completion with its error erased to `Error`.
    @usableFromInline
    var eraseError: Subscribers.Completion<Error> {
        switch self {
        case .finished: .finished
        case .failure(let error): .failure(error)
        }
    }

    /// The same completion with the error transformed.
    @inlinable
    func mapError<NewFailure: Error>(_ transform: (Failure) -> NewFailure) -> Subscribers.Completion<NewFailure> {
        switch self {
        case .finished: .finished
        case .failure(let error): .failure(transform(error))
        }
    }
}
