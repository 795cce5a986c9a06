import StreamCore

/// A publisher the test drives by hand: it counts subscriptions, logs what its subscribers
/// request and cancel (`events`, across all subscriptions, in order), and sends values and
/// completions straight to its current subscriber (ignoring demand, so a test can check that an
/// operator copes).
///
/// By default a cancelled or completed subscriber is released, as a real publisher would; with
/// `keepsSubscriber: true` it is kept, so a test can check that an operator ignores anything
/// sent afterwards (as Combine's own tests do). `onSubscribe` runs after each subscription has
/// been handed out, e.g. to fail at once like `Fail` (for retry) or to emit values synchronously.
final class ScriptedPublisher<Output, Failure: Error>: Publisher, @unchecked Sendable {
    // Safe to share: every stored var is only touched with `lock` held.
    enum Event: Equatable {
        case requested(Subscribers.Demand)
        case cancelled
    }

    private let lock = TestLock()
    private let keepsSubscriber: Bool
    private var current: AnySubscriber<Output, Failure>?
    private var generation = 0
    private var log: [Event] = []
    private var count = 0
    private let onSubscribe: (ScriptedPublisher) -> Void

    init(keepsSubscriber: Bool = false, onSubscribe: @escaping (ScriptedPublisher) -> Void = { _ in }) {
        self.keepsSubscriber = keepsSubscriber
        self.onSubscribe = onSubscribe
    }

    /// How many times a subscriber has been attached.
    var subscriptionCount: Int { lock.withLock { count } }
    /// Every request and cancel received, across all subscriptions, in order.
    var events: [Event] { lock.withLock { log } }
    /// The demands requested so far, in order.
    var requests: [Subscribers.Demand] {
        events.compactMap { if case .requested(let demand) = $0 { demand } else { nil } }
    }
    /// How many times a subscription was cancelled.
    var cancelCount: Int { events.filter { $0 == .cancelled }.count }
    /// Whether any subscription was cancelled.
    var cancelled: Bool { cancelCount > 0 }
    /// Whether a subscriber is attached (and, unless `keepsSubscriber`, neither cancelled nor completed).
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

    /// Completes the current subscriber (and lets go of it, unless `keepsSubscriber`).
    func send(completion: Subscribers.Completion<Failure>) {
        let subscriber = lock.withLock {
            defer { if !keepsSubscriber { current = nil } }
            return current
        }
        subscriber?.receive(completion: completion)
    }

    fileprivate func record(_ event: Event, generation: Int) {
        lock.withLock {
            log.append(event)
            if event == .cancelled, generation == self.generation, !keepsSubscriber { current = nil }
        }
    }

    private final class Link: Subscription {
        weak var publisher: ScriptedPublisher?
        let generation: Int
        init(publisher: ScriptedPublisher, generation: Int) {
            self.publisher = publisher
            self.generation = generation
        }
        func request(_ demand: Subscribers.Demand) { publisher?.record(.requested(demand), generation: generation) }
        func cancel() { publisher?.record(.cancelled, generation: generation) }
    }
}
