import Locking

/// Fans the ticks of a timer publisher out to its subscribers, each with its own demand.
///
/// A tick reaches only the subscribers that have outstanding demand; the others miss it, as
/// with Apple's `Timer.TimerPublisher`. Safe to share: `sides` is only touched with `lock` held,
/// and subscribers are called with it released.
final class TickRelay<Output>: @unchecked Sendable {
    private let lock = Lock()
    private var sides: [CombineIdentifier: any TickSide<Output>] = [:]

    /// Attaches `subscriber`; it receives ticks from the next one on, as its demand allows.
    func attach<S: Subscriber>(_ subscriber: S) where S.Input == Output, S.Failure == Never {
        let side = Side(relay: self, downstream: subscriber)
        lock.withLock { sides[side.combineIdentifier] = side }
        subscriber.receive(subscription: side)
    }

    /// Delivers one tick to every subscriber that wants it.
    func send(_ value: Output) {
        let current = lock.withLock { Array(sides.values) }
        for side in current { side.deliver(value) }
    }

    fileprivate func detach(_ id: CombineIdentifier) {
        lock.withLock { _ = sides.removeValue(forKey: id) }
    }

    /// One subscriber's subscription. Safe to share: its state is only touched with `lock` held.
    private final class Side<Downstream: Subscriber>: TickSide, Subscription, @unchecked Sendable
    where Downstream.Input == Output, Downstream.Failure == Never {
        private let lock = Lock()
        private weak var relay: TickRelay<Output>?
        private var downstream: Downstream?
        private var demand = Subscribers.Demand.none

        init(relay: TickRelay<Output>, downstream: Downstream) {
            self.relay = relay
            self.downstream = downstream
        }

        func deliver(_ value: Output) {
            lock.lock()
            guard let downstream, demand > 0 else {
                lock.unlock()
                return
            }
            demand -= 1
            lock.unlock()
            let more = downstream.receive(value)
            if more > 0 { lock.withLock { demand += more } }
        }

        func request(_ demand: Subscribers.Demand) {
            lock.withLock { if downstream != nil { self.demand += demand } }
        }

        func cancel() {
            let wasAttached = lock.withLock {
                defer { downstream = nil }
                return downstream != nil
            }
            if wasAttached { relay?.detach(combineIdentifier) }
        }
    }
}

/// The relay's view of one subscription.
private protocol TickSide<Output>: AnyObject {
    associatedtype Output
    func deliver(_ value: Output)
}
