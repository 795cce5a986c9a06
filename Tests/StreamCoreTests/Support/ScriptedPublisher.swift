import StreamCore

/// A publisher the test drives by hand: it counts subscriptions, logs what its subscribers
/// request and cancel, and sends values and completions to its current subscriber.
///
/// `onSubscribe` runs after each subscription has been handed out, e.g. to fail at once like
/// `Fail` (for retry) or to emit values synchronously. A cancelled or completed subscriber is
/// released, as a real publisher would.
final class ScriptedPublisher<Output, Failure: Error>: Publisher, @unchecked Sendable {
    // Safe to share: every stored var is only touched with `lock` held.
    enum Request: Equatable {
        case demand(Subscribers.Demand)
        case cancel
    }

    private let lock = TestLock()
    private var current: AnySubscriber<Output, Failure>?
    private var generation = 0
    private var log: [Request] = []
    private var count = 0
    private let onSubscribe: (ScriptedPublisher) -> Void

    init(onSubscribe: @escaping (ScriptedPublisher) -> Void = { _ in }) {
        self.onSubscribe = onSubscribe
    }

    /// How many times a subscriber has been attached.
    var subscriptionCount: Int { lock.withLock { count } }
    /// Every request and cancel received, across all subscriptions, in order.
    var requests: [Request] { lock.withLock { log } }
    /// Whether a subscriber is attached and has been neither cancelled nor completed.
    var hasSubscriber: Bool { lock.withLock { current != nil } }

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        let link = lock.withLock {
            count += 1
            generation += 1
            current = AnySubscriber(subscriber)
            return Link(publisher: self, generation: generation)
        }
        subscriber.receive(subscription: link)
        onSubscribe(self)
    }

    /// Sends a value to the current subscriber; returns the demand it added.
    @discardableResult
    func send(_ value: Output) -> Subscribers.Demand {
        lock.withLock { current }?.receive(value) ?? .none
    }

    /// Completes the current subscriber and lets go of it.
    func send(completion: Subscribers.Completion<Failure>) {
        let subscriber = lock.withLock {
            defer { current = nil }
            return current
        }
        subscriber?.receive(completion: completion)
    }

    fileprivate func record(_ request: Request, generation: Int) {
        lock.withLock {
            log.append(request)
            if request == .cancel, generation == self.generation { current = nil }
        }
    }

    private final class Link: Subscription {
        weak var publisher: ScriptedPublisher?
        let generation: Int
        init(publisher: ScriptedPublisher, generation: Int) {
            self.publisher = publisher
            self.generation = generation
        }
        func request(_ demand: Subscribers.Demand) { publisher?.record(.demand(demand), generation: generation) }
        func cancel() { publisher?.record(.cancel, generation: generation) }
    }
}

extension Recorder where Failure == Error {
    /// The completions as text (`finished`, `failure(boom)`), since `Error` isn't Equatable.
    var completionSummary: [String] {
        completions.map {
            switch $0 {
            case .finished: "finished"
            case .failure(let error): "failure(\(error))"
            }
        }
    }
}
