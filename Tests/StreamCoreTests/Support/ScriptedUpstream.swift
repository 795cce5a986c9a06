import StreamCore
import XCTest

/// A publisher driven by the test that records what its one subscriber asks of it: every
/// request and cancel. It keeps its subscriber after a cancel or completion, so a test can check
/// that an operator ignores anything sent afterwards (as Combine's own tests do).
final class ScriptedUpstream<Output, Failure: Error>: Publisher {
    enum Event: Equatable {
        case requested(Subscribers.Demand)
        case cancelled
    }

    private(set) var events: [Event] = []
    private var subscriber: AnySubscriber<Output, Failure>?

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        let subscriber = AnySubscriber(subscriber)
        self.subscriber = subscriber
        subscriber.receive(subscription: ProbeSubscription(probe: self))
    }

    /// Delivers a value and returns the demand the subscriber added.
    @discardableResult
    func send(_ value: Output) -> Subscribers.Demand { subscriber?.receive(value) ?? .none }

    func send(completion: Subscribers.Completion<Failure>) { subscriber?.receive(completion: completion) }

    /// The requests made so far, in order.
    var requests: [Subscribers.Demand] {
        events.compactMap { if case .requested(let demand) = $0 { demand } else { nil } }
    }

    var cancelCount: Int { events.filter { $0 == .cancelled }.count }

    fileprivate func record(_ event: Event) { events.append(event) }

    private final class ProbeSubscription: Subscription {
        weak var probe: ScriptedUpstream?
        init(probe: ScriptedUpstream) { self.probe = probe }
        func request(_ demand: Subscribers.Demand) { probe?.record(.requested(demand)) }
        func cancel() { probe?.record(.cancelled) }
    }
}

/// A subscriber that requests unlimited values, holds its subscription only until it cancels,
/// and lets a test see (weakly) whether the subscription object outlives it.
final class ReleaseProbe<Input, Failure: Error>: Subscriber {
    private(set) weak var subscriptionObject: AnyObject?
    private var subscription: Subscription?

    func receive(subscription: Subscription) {
        self.subscription = subscription
        subscriptionObject = subscription as AnyObject
        subscription.request(.unlimited)
    }

    func receive(_ input: Input) -> Subscribers.Demand { .none }

    func receive(completion: Subscribers.Completion<Failure>) { subscription = nil }

    func cancel() {
        let subscription = self.subscription
        self.subscription = nil
        subscription?.cancel()
    }
}

/// Subscribes to `make(subject)`, cancels, and asserts that both the operator's subscription
/// and the downstream were released while the upstream subject lives on: no retain cycles, and
/// the upstream let go of the operator.
func assertReleasedAfterCancel<P: Publisher>(
    file: StaticString = #filePath,
    line: UInt = #line,
    _ make: (PassthroughSubject<Int, TestError>) -> P
) {
    let subject = PassthroughSubject<Int, TestError>()
    weak var weakSubscriber: ReleaseProbe<P.Output, P.Failure>?
    weak var weakSubscription: AnyObject?
    do {
        let subscriber = ReleaseProbe<P.Output, P.Failure>()
        make(subject).subscribe(subscriber)
        weakSubscriber = subscriber
        weakSubscription = subscriber.subscriptionObject
        XCTAssertNotNil(weakSubscription, "subscribed", file: file, line: line)
        subscriber.cancel()
    }
    XCTAssertNil(weakSubscription, "the operator's subscription is released after cancel", file: file, line: line)
    XCTAssertNil(weakSubscriber, "the downstream is released after cancel", file: file, line: line)
    subject.send(1)
    subject.send(completion: .finished)
}

/// The error of a `.failure` completion, as a `TestError`.
func testError<F: Error>(_ completions: [Subscribers.Completion<F>]) -> [TestError?] {
    completions.map { if case .failure(let error) = $0 { error as? TestError } else { nil } }
}
