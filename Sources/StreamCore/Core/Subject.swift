/// A publisher that exposes a method for outside callers to publish elements.
public protocol Subject<Output, Failure>: AnyObject, Publisher {
    /// Sends a value to the subscribers.
    func send(_ value: Output)
    /// Sends a completion signal to the subscribers.
    func send(completion: Subscribers.Completion<Failure>)
    /// Sends a subscription to the subject: the subject requests unlimited values through it.
    func send(subscription: Subscription)
}

extension Subject where Output == Void {
    /// Sends a void value to the subscribers.
    public func send() { send(()) }
}
