import Dispatch
import StreamCore
import XCTest

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

/// Milliseconds on a test scheduler since `start`, for readable timelines.
func milliseconds(since start: DispatchQueue.SchedulerTimeType, on scheduler: TestSchedulerOf<DispatchQueue>) -> Int {
    start.distance(to: scheduler.now).magnitude / 1_000_000
}
