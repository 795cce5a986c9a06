import Locking

/// One subscriber's subscription to a subject.
///
/// Values are dropped while the subscriber has no demand (as Apple's subjects do); a
/// current-value subject then owes the subscriber its latest value, delivered on the next
/// demand. Deliveries to the downstream are serialised by `deliveryLock` (recursive, so a
/// subscriber may send into the subject it listens to); the other fields are guarded by `lock`.
///
/// The downstream is held as two closures made where the subject was subscribed: that code is
/// specialised for the concrete subscriber (it is `@inlinable`), so a value goes from `send` to
/// the subscriber without passing through unspecialised generic code. The `lock`-guarded fields
/// skip the dynamic exclusivity checks (`@exclusivity(unchecked)`): the lock makes them exclusive.
@usableFromInline
final class Conduit<Output, Failure: Error>: Subscription, CustomStringConvertible {
    @usableFromInline let lock = Lock()
    @usableFromInline let deliveryLock = RecursiveLock()
    @usableFromInline @exclusivity(unchecked) var parent: SubjectCore<Output, Failure>?
    /// The downstream's `receive(_:)`; `nil` once cancelled or completed.
    @usableFromInline @exclusivity(unchecked) var receiveValue: ((Output) -> Subscribers.Demand)?
    @usableFromInline @exclusivity(unchecked) var receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)?
    @usableFromInline @exclusivity(unchecked) var demand = Subscribers.Demand.none
    @usableFromInline @exclusivity(unchecked) var owesCurrent: Bool
    @usableFromInline let replaysCurrent: Bool

    @inlinable
    init<Downstream: Subscriber>(parent: SubjectCore<Output, Failure>, downstream: Downstream)
    where Downstream.Input == Output, Downstream.Failure == Failure {
        self.parent = parent
        receiveValue = { downstream.receive($0) }
        receiveCompletion = { downstream.receive(completion: $0) }
        replaysCurrent = parent.replaysCurrent
        owesCurrent = parent.replaysCurrent
    }

    @usableFromInline var description: String { replaysCurrent ? "CurrentValueSubject" : "PassthroughSubject" }

    /// Blocks deliveries from other threads until `releaseDeliveries()` (same thread): a new
    /// subscriber gets its subscription before any value or completion.
    @usableFromInline func holdDeliveries() { deliveryLock.lock() }

    @usableFromInline func releaseDeliveries() { deliveryLock.unlock() }

    @inlinable
    func offer(_ value: Output) {
        deliveryLock.lock()
        lock.lock()
        guard let receiveValue else {
            lock.unlock()
            deliveryLock.unlock()
            return
        }
        guard demand > 0 else {
            if replaysCurrent { owesCurrent = true }
            lock.unlock()
            deliveryLock.unlock()
            return
        }
        // Unlimited demand stays unlimited: no need to count it down or add to it.
        let unlimited = demand == .unlimited
        if !unlimited { demand -= 1 }
        owesCurrent = false
        lock.unlock()
        let more = receiveValue(value)
        if more > 0, !unlimited {
            lock.lock()
            demand += more
            lock.unlock()
        }
        deliveryLock.unlock()
    }

    @usableFromInline
    func finish(_ completion: Subscribers.Completion<Failure>) {
        deliveryLock.lock()
        defer { deliveryLock.unlock() }
        lock.lock()
        let receiveCompletion = self.receiveCompletion
        release()
        lock.unlock()
        receiveCompletion?(completion)
    }

    @usableFromInline
    func request(_ demand: Subscribers.Demand) {
        precondition(demand > 0, "demand must be positive")
        lock.lock()
        guard receiveValue != nil else {
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
        guard let receiveValue, owesCurrent, demand > 0 else {
            lock.unlock()
            return
        }
        owesCurrent = false
        demand -= 1
        lock.unlock()
        let more = receiveValue(value)
        if more > 0 {
            lock.lock()
            self.demand += more
            lock.unlock()
        }
    }

    @usableFromInline
    func cancel() {
        lock.lock()
        let parent = self.parent
        let closures = (receiveValue, receiveCompletion)
        release()
        lock.unlock()
        parent?.detach(self)
        withExtendedLifetime(closures) {}  // the downstream is released outside the lock
    }

    /// Forgets the downstream and the parent (lock held).
    private func release() {
        parent = nil
        receiveValue = nil
        receiveCompletion = nil
    }
}
