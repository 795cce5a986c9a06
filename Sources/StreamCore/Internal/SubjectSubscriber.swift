import Locking

/// Relays an upstream publisher into a subject (`publisher.subscribe(subject)`).
final class SubjectSubscriber<Downstream: Subject>: Subscriber, Subscription, CustomStringConvertible {
    typealias Input = Downstream.Output
    typealias Failure = Downstream.Failure

    private let lock = Lock()
    private weak var subject: Downstream?
    private var upstream: Subscription?

    init(_ subject: Downstream) { self.subject = subject }

    var description: String { "Subject" }

    func receive(subscription: Subscription) {
        lock.lock()
        guard upstream == nil, let subject else {
            lock.unlock()
            subscription.cancel()
            return
        }
        upstream = subscription
        lock.unlock()
        subject.send(subscription: self)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        let subject = upstream == nil ? nil : self.subject
        lock.unlock()
        subject?.send(input)
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        let subject = upstream == nil ? nil : self.subject
        upstream = nil
        lock.unlock()
        subject?.send(completion: completion)
    }

    func request(_ demand: Subscribers.Demand) {
        lock.lock()
        let upstream = self.upstream
        lock.unlock()
        upstream?.request(demand)
    }

    func cancel() {
        lock.lock()
        let upstream = self.upstream
        self.upstream = nil
        subject = nil
        lock.unlock()
        upstream?.cancel()
    }
}
