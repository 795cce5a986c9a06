import StreamCore

/// A PassthroughSubject that records what its subscribers do with their subscriptions: how many
/// subscribed, every demand requested and every cancel. For asserting that an operator requests
/// what it should and cancels every input.
final class TrackedSubject<Output, Failure: Error>: Publisher, @unchecked Sendable {
    // Safe to share: the subject is thread-safe and the counters live behind `lock`.
    private let subject = PassthroughSubject<Output, Failure>()
    private let lock = TestLock()
    private var recordedRequests: [Subscribers.Demand] = []
    private var recordedCancels = 0
    private var recordedSubscriptions = 0

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        lock.withLock { recordedSubscriptions += 1 }
        subject.receive(subscriber: Relay(downstream: subscriber, tracker: self))
    }

    func send(_ value: Output) { subject.send(value) }
    func send(completion: Subscribers.Completion<Failure>) { subject.send(completion: completion) }

    var requests: [Subscribers.Demand] { lock.withLock { recordedRequests } }
    var cancels: Int { lock.withLock { recordedCancels } }
    var subscriptions: Int { lock.withLock { recordedSubscriptions } }

    fileprivate func didRequest(_ demand: Subscribers.Demand) { lock.withLock { recordedRequests.append(demand) } }
    fileprivate func didCancel() { lock.withLock { recordedCancels += 1 } }

    private struct Relay<Downstream: Subscriber>: Subscriber where Downstream.Input == Output, Downstream.Failure == Failure {
        let downstream: Downstream
        let tracker: TrackedSubject
        var combineIdentifier: CombineIdentifier { downstream.combineIdentifier }

        func receive(subscription: Subscription) {
            downstream.receive(subscription: Tracking(upstream: subscription, tracker: tracker))
        }
        func receive(_ input: Output) -> Subscribers.Demand { downstream.receive(input) }
        func receive(completion: Subscribers.Completion<Failure>) { downstream.receive(completion: completion) }
    }

    private final class Tracking: Subscription {
        let upstream: Subscription
        let tracker: TrackedSubject
        init(upstream: Subscription, tracker: TrackedSubject) {
            self.upstream = upstream
            self.tracker = tracker
        }
        func request(_ demand: Subscribers.Demand) {
            tracker.didRequest(demand)
            upstream.request(demand)
        }
        func cancel() {
            tracker.didCancel()
            upstream.cancel()
        }
    }
}
