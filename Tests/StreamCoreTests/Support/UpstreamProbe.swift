import StreamCore

/// A hot publisher for tests that counts its subscriptions and records the demand and cancels
/// they receive. Values sent with `send(_:)` go to every current subscriber (within demand).
/// Sendable: the counters are behind `lock`, the subject is itself thread-safe.
final class UpstreamProbe<Output, Failure: Error>: Publisher, @unchecked Sendable {
    private let lock = TestLock()
    private let subject = PassthroughSubject<Output, Failure>()
    private var subscribeCount = 0
    private var recordedRequests: [Subscribers.Demand] = []
    private var cancelCount = 0

    /// How many subscribers have attached.
    var subscriptions: Int { lock.withLock { subscribeCount } }
    /// Every demand requested by any subscriber, in order.
    var requests: [Subscribers.Demand] { lock.withLock { recordedRequests } }
    /// How many times a subscription was cancelled.
    var cancels: Int { lock.withLock { cancelCount } }

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        lock.withLock { subscribeCount += 1 }
        subject.subscribe(Relay(probe: self, downstream: subscriber))
    }

    func send(_ value: Output) { subject.send(value) }

    func send(completion: Subscribers.Completion<Failure>) { subject.send(completion: completion) }

    fileprivate func recordRequest(_ demand: Subscribers.Demand) { lock.withLock { recordedRequests.append(demand) } }

    fileprivate func recordCancel() { lock.withLock { cancelCount += 1 } }

    private struct Relay<Downstream: Subscriber>: Subscriber
    where Downstream.Input == Output, Downstream.Failure == Failure {
        let probe: UpstreamProbe
        let downstream: Downstream
        let combineIdentifier = CombineIdentifier()

        func receive(subscription: Subscription) {
            downstream.receive(subscription: Tap(probe: probe, upstream: subscription))
        }

        func receive(_ input: Output) -> Subscribers.Demand { downstream.receive(input) }

        func receive(completion: Subscribers.Completion<Failure>) { downstream.receive(completion: completion) }
    }

    private final class Tap: Subscription {
        let probe: UpstreamProbe
        let upstream: Subscription

        init(probe: UpstreamProbe, upstream: Subscription) {
            self.probe = probe
            self.upstream = upstream
        }

        func request(_ demand: Subscribers.Demand) {
            probe.recordRequest(demand)
            upstream.request(demand)
        }

        func cancel() {
            probe.recordCancel()
            upstream.cancel()
        }
    }
}
