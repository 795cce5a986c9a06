import Locking

/// A publisher that eventually produces a single value and then finishes or fails.
///
/// The closure given to `init` runs at once; the promise it receives may be fulfilled once,
/// from any thread, before or after anyone subscribes. Every subscriber receives the result
/// once it has demand (a failure is delivered without demand). Later fulfilments are ignored.
///
/// Sendable: `result` and `conduits` are guarded by `lock`.
public final class Future<Output, Failure: Error>: Publisher, @unchecked Sendable {
    /// A function the future's closure calls to resolve the future.
    public typealias Promise = @Sendable (Result<Output, Failure>) -> Void

    private let lock = Lock()
    private var result: Result<Output, Failure>?
    private var conduits: [FutureConduitBase<Output, Failure>] = []

    /// Creates a publisher that invokes a promise closure when the publisher emits an element.
    public init(_ attemptToFulfill: @escaping (@escaping Promise) -> Void) {
        attemptToFulfill { [self] result in fulfill(result) }
    }

    private func fulfill(_ result: Result<Output, Failure>) {
        lock.lock()
        guard self.result == nil else {
            lock.unlock()
            return
        }
        self.result = result
        let conduits = self.conduits
        self.conduits = []
        lock.unlock()
        for conduit in conduits {
            conduit.resolve(result)
        }
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        let conduit = Conduit(parent: self, downstream: subscriber)
        // The subscriber gets its subscription before the conduit can be resolved, so a
        // promise fulfilled on another thread never overtakes `receive(subscription:)`.
        subscriber.receive(subscription: conduit)
        lock.lock()
        let result = self.result
        if result == nil { conduits.append(conduit) }
        lock.unlock()
        if let result { conduit.resolve(result) }
    }

    fileprivate func detach(_ conduit: FutureConduitBase<Output, Failure>) {
        lock.lock()
        conduits.removeAll { $0 === conduit }
        lock.unlock()
    }

    /// One subscriber's subscription: holds the result until the subscriber has demand.
    private final class Conduit<Downstream: Subscriber>: FutureConduitBase<Output, Failure>,
        CustomStringConvertible
    where Downstream.Input == Output, Downstream.Failure == Failure {
        private let lock = Lock()
        private var downstream: Downstream?
        private var parent: Future?
        private var hasDemand = false
        private var result: Result<Output, Failure>?

        init(parent: Future, downstream: Downstream) {
            self.parent = parent
            self.downstream = downstream
        }

        var description: String { "Future" }

        override func resolve(_ result: Result<Output, Failure>) {
            lock.lock()
            self.result = result
            lock.unlock()
            deliverIfReady()
        }

        override func request(_ demand: Subscribers.Demand) {
            precondition(demand > 0, "demand must be positive")
            lock.lock()
            hasDemand = true
            lock.unlock()
            deliverIfReady()
        }

        /// Delivers the result once (a value only with demand), then releases everything.
        private func deliverIfReady() {
            lock.lock()
            guard let downstream, let result else {
                lock.unlock()
                return
            }
            if case .success = result, !hasDemand {
                lock.unlock()
                return
            }
            self.downstream = nil
            self.result = nil
            let parent = self.parent
            self.parent = nil
            lock.unlock()
            parent?.detach(self)
            switch result {
            case .success(let value):
                _ = downstream.receive(value)
                downstream.receive(completion: .finished)
            case .failure(let error):
                downstream.receive(completion: .failure(error))
            }
        }

        override func cancel() {
            lock.lock()
            downstream = nil
            result = nil
            let parent = self.parent
            self.parent = nil
            lock.unlock()
            parent?.detach(self)
        }
    }
}

/// The type-erased face of a future's subscription, so the future can keep a list of them.
class FutureConduitBase<Output, Failure: Error>: Subscription {
    func resolve(_ result: Result<Output, Failure>) { fatalError("abstract") }
    func request(_ demand: Subscribers.Demand) { fatalError("abstract") }
    func cancel() { fatalError("abstract") }
}

extension Future where Failure == Never {
    /// The published value, awaited asynchronously.
    public var value: Output {
        get async {
            let box = await withCheckedContinuation { (continuation: CheckedContinuation<UncheckedBox<Output>, Never>) in
                subscribe(OneShot { result in
                    if case .success(let value) = result { continuation.resume(returning: UncheckedBox(value)) }
                })
            }
            return box.value
        }
    }
}

extension Future {
    /// The published value, awaited asynchronously; throws the future's failure.
    public var value: Output {
        get async throws {
            let box = try await withCheckedThrowingContinuation {
                (continuation: CheckedContinuation<UncheckedBox<Output>, Error>) in
                subscribe(OneShot { result in
                    switch result {
                    case .success(let value): continuation.resume(returning: UncheckedBox(value))
                    case .failure(let error): continuation.resume(throwing: error)
                    }
                })
            }
            return box.value
        }
    }

    /// A subscriber that hands the future's one result to a closure.
    private struct OneShot: Subscriber {
        let combineIdentifier = CombineIdentifier()
        let body: (Result<Output, Failure>) -> Void

        func receive(subscription: Subscription) { subscription.request(.max(1)) }

        func receive(_ input: Output) -> Subscribers.Demand {
            body(.success(input))
            return .none
        }

        func receive(completion: Subscribers.Completion<Failure>) {
            if case .failure(let error) = completion { body(.failure(error)) }
        }
    }
}

/// Carries a value of any type across a concurrency boundary where the handover is one-way
/// and serialised by the sender (a continuation resumed exactly once).
struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
