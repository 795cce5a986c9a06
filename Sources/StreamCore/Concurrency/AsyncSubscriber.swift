import Locking

/// What one `next()` of an async publisher iterator ends with.
enum AsyncOutcome<Output, Failure: Error>: Sendable {
    case value(UncheckedBox<Output>)
    case failure(UncheckedBox<Failure>)
    case end
}

/// Owned by an iterator (and its copies): cancels the subscription when the last one goes,
/// e.g. on `break` out of a `for await` loop. The upstream keeps the subscriber alive, so the
/// subscriber cannot do this itself.
final class AsyncSubscriberHandle<Output, Failure: Error>: Sendable {
    let subscriber = AsyncSubscriber<Output, Failure>()

    deinit { subscriber.cancel() }
}

/// The subscriber behind `values`: requests one element per `next()` and hands it to the
/// waiting continuation.
///
/// Sendable (task cancellation calls `cancel()` from any thread): every field is guarded by
/// `lock`, and continuations are resumed after it is released.
final class AsyncSubscriber<Output, Failure: Error>: Subscriber, Cancellable, @unchecked Sendable {
    typealias Input = Output
    typealias Resume = (AsyncOutcome<Output, Failure>) -> Void

    private enum State {
        case awaitingSubscription
        case subscribed(Subscription)
        /// The upstream ended; the completion waits for the next `next()`.
        case completed(Subscribers.Completion<Failure>)
        /// The sequence is over: every further `next()` returns `nil`.
        case done
    }

    private let lock = Lock()
    private var state = State.awaitingSubscription
    /// The continuation of the `next()` now waiting, if any.
    private var waiting: Resume?
    let combineIdentifier = CombineIdentifier()

    func receive(subscription: Subscription) {
        lock.lock()
        guard case .awaitingSubscription = state else {
            lock.unlock()
            subscription.cancel()
            return
        }
        state = .subscribed(subscription)
        let demanded = waiting != nil
        lock.unlock()
        if demanded { subscription.request(.max(1)) }
    }

    func receive(_ input: Output) -> Subscribers.Demand {
        lock.lock()
        let resume = waiting
        waiting = nil
        lock.unlock()
        resume?(.value(UncheckedBox(input)))
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        switch state {
        case .awaitingSubscription, .subscribed:
            break
        case .completed, .done:
            lock.unlock()
            return
        }
        guard let resume = waiting else {
            state = .completed(completion)
            lock.unlock()
            return
        }
        waiting = nil
        state = .done
        lock.unlock()
        resume(Self.outcome(of: completion))
    }

    /// Registers the continuation of a `next()` and asks the upstream for one element.
    func next(_ resume: @escaping Resume) {
        lock.lock()
        switch state {
        case .awaitingSubscription:
            waiting = resume
            lock.unlock()
        case .subscribed(let subscription):
            waiting = resume
            lock.unlock()
            subscription.request(.max(1))
        case .completed(let completion):
            state = .done
            lock.unlock()
            resume(Self.outcome(of: completion))
        case .done:
            lock.unlock()
            resume(.end)
        }
    }

    /// Ends the sequence: cancels the upstream and lets a waiting `next()` return `nil`.
    func cancel() {
        lock.lock()
        let previous = state
        state = .done
        let resume = waiting
        waiting = nil
        lock.unlock()
        if case .subscribed(let subscription) = previous { subscription.cancel() }
        resume?(.end)
    }

    private static func outcome(of completion: Subscribers.Completion<Failure>) -> AsyncOutcome<Output, Failure> {
        switch completion {
        case .finished: .end
        case .failure(let error): .failure(UncheckedBox(error))
        }
    }
}
