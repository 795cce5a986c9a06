/// Carries a `Future`'s promise into a `@Sendable` completion handler (a store's or Redis's
/// callback), which calls it exactly once.
final class PromiseBox<Output, Failure: Error>: @unchecked Sendable {
    // Sendable: `promise` is immutable, and the one caller calls it once.
    private let promise: (Result<Output, Failure>) -> Void

    init(_ promise: @escaping (Result<Output, Failure>) -> Void) { self.promise = promise }

    func fulfill(_ result: Result<Output, Failure>) { promise(result) }
}
