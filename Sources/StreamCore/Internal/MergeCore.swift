import Locking

/// The engine shared by `Merge`…`Merge8`, `MergeMany` and `FlatMap`: interleaves the values of
/// several sources (each with the downstream's Output and Failure) into one downstream.
///
/// Demand: while the downstream's demand is limited, each source has at most one request
/// outstanding (`.max(1)`), as Apple's Merge does; a value that arrives without demand waits in a
/// FIFO queue (so at most one per source) and the source is asked again only once its value was
/// delivered. Once the demand is unlimited every source is asked for `.unlimited`.
///
/// Serial delivery: whoever finds `delivering` false becomes the deliverer and drains the queue;
/// values arriving meanwhile from other threads are queued, so concurrent producers never call
/// the downstream at the same time and each producer's values keep their order.
///
/// Completion: `.finished` once every source (`openSources`, e.g. FlatMap's upstream plus its
/// children) has finished and the queue is empty; the first failure cancels every other source,
/// drops queued values and is delivered at once.
///
/// Sendable in spirit: every mutable field is guarded by `lock`.
class MergeCore<Downstream: Subscriber>: Subscription, CustomStringConvertible {
    typealias Value = Downstream.Input
    typealias Failure = Downstream.Failure

    private struct Source {
        var subscription: Subscription?
        /// A `.max(1)` request is outstanding.
        var requested = false
        /// `.unlimited` has been requested.
        var unlimited = false
        /// Values of this source waiting in `queue`.
        var buffered = 0
        /// The source finished; its entry stays only while its values are queued.
        var finished = false
    }

    let lock = Lock()
    private var downstream: Downstream?
    private var sources: [Int: Source] = [:]
    private var nextSourceID = 0
    private var openSources: Int
    private var queue = FIFOQueue<(source: Int, value: Value)>()
    private var demand = Subscribers.Demand.none
    private var delivering = false
    private var pendingCompletion: Subscribers.Completion<Failure>?
    /// No more events are accepted from the sources.
    private(set) var terminated = false

    init(downstream: Downstream, openSources: Int) {
        self.downstream = downstream
        self.openSources = openSources
    }

    var description: String { "Merge" }

    /// Registers a source that will send its subscription to `receive(subscription:from:)`.
    /// `counted: true` adds it to the sources that must finish (FlatMap's children).
    func addSource(counted: Bool) -> Int? {
        lock.lock(); defer { lock.unlock() }
        guard !terminated else { return nil }
        let id = nextSourceID
        nextSourceID += 1
        sources[id] = Source()
        if counted { openSources += 1 }
        return id
    }

    /// Hands this subscription to the downstream (FlatMap does so once its upstream subscribed).
    func sendSubscriptionDownstream() {
        lock.lock()
        let downstream = self.downstream
        lock.unlock()
        downstream?.receive(subscription: self)
    }

    /// Called (outside the lock) when a source finished normally. FlatMap asks for one more.
    func sourceDidFinish() {}

    /// Called (outside the lock) once the stream ends by failure or cancellation.
    func didTerminate() {}

    // MARK: - Source events

    func receive(subscription: Subscription, from id: Int) {
        lock.lock()
        guard !terminated, var source = sources[id], source.subscription == nil else {
            lock.unlock()
            subscription.cancel()
            return
        }
        source.subscription = subscription
        var request = Subscribers.Demand.none
        if demand == .unlimited {
            source.unlimited = true
            request = .unlimited
        } else if demand > 0 {
            source.requested = true
            request = .max(1)
        }
        sources[id] = source
        lock.unlock()
        if request > 0 { subscription.request(request) }
    }

    func receive(_ value: Value, from id: Int) -> Subscribers.Demand {
        lock.lock()
        guard !terminated, sources[id] != nil else {
            lock.unlock()
            return .none
        }
        sources[id]!.requested = false
        if !delivering, demand > 0, queue.isEmpty, let downstream {
            // Fast path: nothing waits, deliver directly.
            delivering = true
            demand -= 1
            lock.unlock()
            let more = downstream.receive(value)
            lock.lock()
            demand += more
            return drain(current: id)
        }
        sources[id]!.buffered += 1
        queue.append((id, value))
        guard !delivering else {
            lock.unlock()
            return .none
        }
        delivering = true
        return drain(current: id)
    }

    func receive(completion: Subscribers.Completion<Failure>, from id: Int) {
        lock.lock()
        guard !terminated, sources[id] != nil else {
            lock.unlock()
            return
        }
        switch completion {
        case .finished:
            sources[id]!.subscription = nil
            sources[id]!.finished = true
            if sources[id]!.buffered == 0 { sources[id] = nil }
            openSources -= 1
            lock.unlock()
            sourceDidFinish()
            resume()
        case .failure(let error):
            failLocked(error, except: id)
        }
    }

    /// A counted source that is not a child (FlatMap's upstream) finished.
    func finishSource() {
        lock.lock()
        guard !terminated else {
            lock.unlock()
            return
        }
        openSources -= 1
        lock.unlock()
        resume()
    }

    /// Fails the stream (FlatMap's upstream failed): cancels every source, drops queued values.
    func fail(_ error: Failure) {
        lock.lock()
        failLocked(error, except: nil)
    }

    /// `fail`, entered with the lock held; releases it.
    private func failLocked(_ error: Failure, except id: Int?) {
        guard !terminated else {
            lock.unlock()
            return
        }
        terminated = true
        let others = sources.filter { $0.key != id }.compactMap(\.value.subscription)
        sources = [:]
        queue.removeAll()
        pendingCompletion = .failure(error)
        lock.unlock()
        for subscription in others { subscription.cancel() }
        didTerminate()
        resume()
    }

    // MARK: - Subscription

    func request(_ demand: Subscribers.Demand) {
        precondition(demand > 0, "demand must be positive")
        lock.lock()
        guard downstream != nil else {
            lock.unlock()
            return
        }
        self.demand += demand
        lock.unlock()
        resume()
    }

    func cancel() {
        lock.lock()
        let wasTerminated = terminated
        terminated = true
        let all = sources.values.compactMap(\.subscription)
        sources = [:]
        queue.removeAll()
        downstream = nil
        pendingCompletion = nil
        lock.unlock()
        guard !wasTerminated else { return }
        for subscription in all { subscription.cancel() }
        didTerminate()
    }

    // MARK: - Delivery

    /// Becomes the deliverer unless another thread is, then drains (and finishes the stream if
    /// no source is left).
    func resume() {
        lock.lock()
        guard !delivering else {
            lock.unlock()
            return
        }
        delivering = true
        _ = drain(current: nil)
    }

    /// Delivers queued values within demand, then the completion, then asks sources for more.
    /// Called with the lock held and `delivering` set; returns with the lock released. Returns
    /// the demand to hand back to source `current` from its `receive(_:)`.
    private func drain(current: Int?) -> Subscribers.Demand {
        while let downstream {
            if let completion = pendingCompletion {
                pendingCompletion = nil
                self.downstream = nil
                delivering = false
                lock.unlock()
                downstream.receive(completion: completion)
                return .none
            }
            guard demand > 0, let (id, value) = queue.popFirst() else { break }
            demand -= 1
            if sources[id] != nil {
                sources[id]!.buffered -= 1
                if sources[id]!.buffered == 0, sources[id]!.finished { sources[id] = nil }
            }
            lock.unlock()
            let more = downstream.receive(value)
            lock.lock()
            demand += more
        }
        var requests: [(Subscription, Subscribers.Demand)] = []
        var returned = Subscribers.Demand.none
        var finish: Downstream?
        if !terminated {
            if demand > 0 {
                // In input order (ids are given in order), as Apple's merge does: a Dictionary's
                // own order differs from one process to the next.
                for id in sources.keys.sorted() {
                    guard let source = sources[id] else { continue }
                    guard let subscription = source.subscription, !source.unlimited else { continue }
                    let more: Subscribers.Demand
                    if demand == .unlimited {
                        sources[id]!.unlimited = true
                        more = .unlimited
                    } else if !source.requested, source.buffered == 0 {
                        sources[id]!.requested = true
                        more = .max(1)
                    } else {
                        continue
                    }
                    if id == current { returned = more } else { requests.append((subscription, more)) }
                }
            }
            if openSources == 0, queue.isEmpty {
                terminated = true
                sources = [:]
                finish = downstream
                downstream = nil
            }
        }
        delivering = false
        lock.unlock()
        for (subscription, demand) in requests { subscription.request(demand) }
        finish?.receive(completion: .finished)
        return returned
    }
}
