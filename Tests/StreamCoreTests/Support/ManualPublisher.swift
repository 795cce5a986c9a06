import Dispatch
import StreamCore

/// A publisher driven by hand from a test, which records what its one subscriber asks of it
/// (`requests`, `cancelled`), so tests can see demand and cancellation reaching the upstream.
final class ManualPublisher<Output, Failure: Error>: Publisher, @unchecked Sendable {
    // Not shared across threads: tests drive it from one thread.
    private(set) var subscriber: AnySubscriber<Output, Failure>?
    let subscription = ProbeSubscription()

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        self.subscriber = AnySubscriber(subscriber)
        subscriber.receive(subscription: subscription)
    }

    /// Sends a value to the subscriber, returning the demand it added.
    @discardableResult
    func send(_ value: Output) -> Subscribers.Demand { subscriber?.receive(value) ?? .none }

    func send(completion: Subscribers.Completion<Failure>) { subscriber?.receive(completion: completion) }
}

/// A subscription that records the requests and cancellation it receives.
final class ProbeSubscription: Subscription, @unchecked Sendable {
    // Not shared across threads: tests drive it from one thread.
    private(set) var requests: [Subscribers.Demand] = []
    private(set) var cancelled = false

    func request(_ demand: Subscribers.Demand) { requests.append(demand) }
    func cancel() { cancelled = true }
}

/// Milliseconds on a test scheduler since `start`, for readable timelines.
func milliseconds(since start: DispatchQueue.SchedulerTimeType, on scheduler: TestSchedulerOf<DispatchQueue>) -> Int {
    start.distance(to: scheduler.now).magnitude / 1_000_000
}
