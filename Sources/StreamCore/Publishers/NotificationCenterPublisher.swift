import Foundation
import Locking

extension NotificationCenter {
    /// A publisher that emits elements when broadcasting notifications.
    ///
    /// Each subscriber adds its own observer when it subscribes and removes it on cancel.
    /// Notifications posted while the subscriber has no demand are dropped for it.
    public struct Publisher: StreamCore.Publisher {
        public typealias Output = Notification
        public typealias Failure = Never

        /// The notification center this publisher uses as a source.
        public let center: NotificationCenter
        /// The name of notifications published by this publisher.
        public let name: Notification.Name
        /// The object posting the named notification.
        public let object: AnyObject?

        /// Creates a publisher that emits events when broadcasting notifications.
        public init(center: NotificationCenter, name: Notification.Name, object: AnyObject? = nil) {
            self.center = center
            self.name = name
            self.object = object
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let subscription = Observation(downstream: subscriber)
            subscriber.receive(subscription: subscription)
            subscription.observe(center: center, name: name, object: object)
        }
    }

    /// Returns a publisher that emits events when broadcasting notifications.
    public func publisher(for name: Notification.Name, object: AnyObject? = nil) -> NotificationCenter.Publisher {
        Publisher(center: self, name: name, object: object)
    }
}

/// One subscriber's observer registration.
///
/// Sendable (the observer block runs on the posting thread): `downstream`, `demand`, `center`
/// and `token` are guarded by `lock`; deliveries are serialised by `deliveryLock`, which is
/// recursive so a subscriber may post the notification it listens to.
private final class Observation<Downstream: Subscriber>: Subscription, CustomStringConvertible,
    NotificationTarget, @unchecked Sendable
where Downstream.Input == Notification, Downstream.Failure == Never {
    private let lock = Lock()
    private let deliveryLock = RecursiveLock()
    private var downstream: Downstream?
    private var demand = Subscribers.Demand.none
    private var center: NotificationCenter?
    private var token: NSObjectProtocol?

    init(downstream: Downstream) { self.downstream = downstream }

    deinit {
        if let token { center?.removeObserver(token) }
    }

    var description: String { "NotificationCenter Observer" }

    func observe(center: NotificationCenter, name: Notification.Name, object: AnyObject?) {
        lock.lock()
        let active = downstream != nil
        lock.unlock()
        guard active else { return }
        let relay = WeakRelay(self)
        let token = center.addObserver(forName: name, object: object, queue: nil) { note in
            relay.target?.deliver(note)
        }
        lock.lock()
        guard downstream != nil else {
            // Cancelled while the observer was being added.
            lock.unlock()
            center.removeObserver(token)
            return
        }
        self.center = center
        self.token = token
        lock.unlock()
    }

    func deliver(_ notification: Notification) {
        deliveryLock.lock()
        defer { deliveryLock.unlock() }
        lock.lock()
        guard let downstream, demand > 0 else {
            lock.unlock()
            return
        }
        demand -= 1
        lock.unlock()
        let more = downstream.receive(notification)
        guard more > 0 else { return }
        lock.lock()
        demand += more
        lock.unlock()
    }

    func request(_ demand: Subscribers.Demand) {
        precondition(demand > 0, "demand must be positive")
        lock.lock()
        if downstream != nil { self.demand += demand }
        lock.unlock()
    }

    func cancel() {
        lock.lock()
        let center = self.center
        let token = self.token
        downstream = nil
        self.center = nil
        self.token = nil
        lock.unlock()
        if let center, let token { center.removeObserver(token) }
    }
}

/// Receives the notifications an observer block sees.
private protocol NotificationTarget: AnyObject, Sendable {
    func deliver(_ notification: Notification)
}

/// What the observer block captures: a weak, non-generic reference to the subscription, so the
/// center does not keep the subscription alive. Sendable: `target` is set once, in `init`, and
/// weak loads are atomic.
private final class WeakRelay: @unchecked Sendable {
    weak var target: (any NotificationTarget)?

    init(_ target: any NotificationTarget) { self.target = target }
}
