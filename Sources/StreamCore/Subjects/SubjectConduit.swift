/// One subscriber's subscription to a subject.
class SubjectConduit<Output, Failure: Error>: Subscription {
    func offer(_ value: Output) { fatalError("abstract") }
    func finish(_ completion: Subscribers.Completion<Failure>) { fatalError("abstract") }
    func request(_ demand: Subscribers.Demand) { fatalError("abstract") }
    func cancel() { fatalError("abstract") }
}

/// A subject's subscription for a concrete downstream.
///
/// Values are dropped while the subscriber has no demand (as Apple's subjects do); a
/// current-value subject then owes the subscriber its latest value, delivered on the next
/// demand. Deliveries to the downstream are serialised by `deliveryLock` (recursive, so a
/// subscriber may send into the subject it listens to).
final class Conduit<Downstream: Subscriber>: SubjectConduit<Downstream.Input, Downstream.Failure>,
    CustomStringConvertible
{
    typealias Output = Downstream.Input
    typealias Failure = Downstream.Failure

    private let lock = Lock()
    private let deliveryLock = RecursiveLock()
    private var parent: SubjectCore<Output, Failure>?
    private var downstream: Downstream?
    private var demand = Subscribers.Demand.none
    private var owesCurrent: Bool

    init(parent: SubjectCore<Output, Failure>, downstream: Downstream) {
        self.parent = parent
        self.downstream = downstream
        owesCurrent = parent.replaysCurrent
    }

    var description: String { parent?.replaysCurrent == true ? "CurrentValueSubject" : "PassthroughSubject" }

    /// Blocks deliveries from other threads until `releaseDeliveries()` (same thread).
    func holdDeliveries() { deliveryLock.lock() }

    func releaseDeliveries() { deliveryLock.unlock() }

    override func offer(_ value: Output) {
        deliveryLock.lock()
        defer { deliveryLock.unlock() }
        lock.lock()
        guard let downstream else {
            lock.unlock()
            return
        }
        guard demand > 0 else {
            if parent?.replaysCurrent == true { owesCurrent = true }
            lock.unlock()
            return
        }
        demand -= 1
        owesCurrent = false
        lock.unlock()
        let more = downstream.receive(value)
        if more > 0 {
            lock.lock()
            demand += more
            lock.unlock()
        }
    }

    override func finish(_ completion: Subscribers.Completion<Failure>) {
        deliveryLock.lock()
        defer { deliveryLock.unlock() }
        lock.lock()
        let downstream = self.downstream
        self.downstream = nil
        parent = nil
        lock.unlock()
        downstream?.receive(completion: completion)
    }

    override func request(_ demand: Subscribers.Demand) {
        precondition(demand > 0, "demand must be positive")
        lock.lock()
        guard downstream != nil else {
            lock.unlock()
            return
        }
        self.demand += demand
        let deliverCurrent = owesCurrent
        let parent = self.parent
        lock.unlock()
        if deliverCurrent, let value = parent?.currentValue {
            deliverOwedCurrent(value)
        }
    }

    /// Delivers a current-value subject's latest value to a subscriber that was owed it.
    private func deliverOwedCurrent(_ value: Output) {
        deliveryLock.lock()
        defer { deliveryLock.unlock() }
        lock.lock()
        guard let downstream, owesCurrent, demand > 0 else {
            lock.unlock()
            return
        }
        owesCurrent = false
        demand -= 1
        lock.unlock()
        let more = downstream.receive(value)
        if more > 0 {
            lock.lock()
            self.demand += more
            lock.unlock()
        }
    }

    override func cancel() {
        lock.lock()
        let parent = self.parent
        self.parent = nil
        downstream = nil
        lock.unlock()
        parent?.detach(self)
    }
}
