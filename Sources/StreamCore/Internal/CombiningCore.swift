import Locking

/// The engine shared by `CombineLatest`… and `Zip`…: collects the values of several inputs (boxed
/// as `Any`, one slot per input) and emits combinations built by `combine`.
///
/// Demand: every downstream request (and every demand returned from `receive(_:)`) is forwarded
/// unchanged to each input. Combinations wait in a queue for demand. In `.latest` mode the
/// queue never outgrows the demand: a combination beyond it replaces the last waiting one, so
/// without demand only the latest combination is kept.
///
/// Completion: `.latest` finishes once every input has finished; `.zip` finishes as soon as an
/// input that finished has nothing left to pair (cancelling the others). Queued combinations are
/// delivered first. The first failure cancels the other inputs and is delivered at once.
///
/// Every mutable field is guarded by `lock`; the downstream is called only by the thread that
/// set `delivering`.
final class CombiningCore<Downstream: Subscriber>: Subscription, CustomStringConvertible {
    enum Mode { case latest, zip }

    private let mode: Mode
    private let combine: ([Any]) -> Downstream.Input
    private let lock = Lock()
    private var downstream: Downstream?
    private var subscriptions: [Subscription?]
    private var finished: [Bool]
    private var latest: [Any?]
    private var buffers: [FIFOQueue<Any>]
    private var output = FIFOQueue<Downstream.Input>()
    private var demand = Subscribers.Demand.none
    /// Everything forwarded to each input so far, requested from an input that subscribes late.
    private var forwarded = Subscribers.Demand.none
    private var delivering = false
    private var pendingCompletion: Subscribers.Completion<Downstream.Failure>?
    /// Finish once `output` is empty.
    private var finishWhenDrained = false
    /// No more events are accepted from the inputs.
    private var terminated = false

    init(downstream: Downstream, inputs: Int, mode: Mode, combine: @escaping ([Any]) -> Downstream.Input) {
        self.downstream = downstream
        self.mode = mode
        self.combine = combine
        subscriptions = Array(repeating: nil, count: inputs)
        finished = Array(repeating: false, count: inputs)
        latest = Array(repeating: nil, count: inputs)
        buffers = Array(repeating: FIFOQueue(), count: inputs)
    }

    var description: String { mode == .latest ? "CombineLatest" : "Zip" }

    func receive(subscription: Subscription, from index: Int) {
        lock.lock()
        guard !terminated, subscriptions[index] == nil, !finished[index] else {
            lock.unlock()
            subscription.cancel()
            return
        }
        subscriptions[index] = subscription
        let demand = forwarded
        lock.unlock()
        if demand > 0 { subscription.request(demand) }
    }

    func receive(_ value: Any, from index: Int) -> Subscribers.Demand {
        lock.lock()
        guard !terminated, !finished[index] else {
            lock.unlock()
            return .none
        }
        var cancelled: [Subscription] = []
        switch mode {
        case .latest:
            latest[index] = value
            if latest.allSatisfy({ $0 != nil }) {
                let combination = combine(latest.map { $0! })
                if output.isEmpty || output.count < demand {
                    output.append(combination)
                } else {
                    output.replaceLast(combination)
                }
            }
        case .zip:
            buffers[index].append(value)
            while buffers.allSatisfy({ !$0.isEmpty }) {
                let values = buffers.indices.map { buffers[$0].popFirst()! }
                output.append(combine(values))
            }
            if buffers.indices.contains(where: { finished[$0] && buffers[$0].isEmpty }) {
                cancelled = finishZip()
            }
        }
        lock.unlock()
        for subscription in cancelled { subscription.cancel() }
        resume()
        return .none
    }

    func receive(completion: Subscribers.Completion<Downstream.Failure>, from index: Int) {
        lock.lock()
        guard !terminated, !finished[index] else {
            lock.unlock()
            return
        }
        finished[index] = true
        subscriptions[index] = nil
        var cancelled: [Subscription] = []
        switch completion {
        case .failure(let error):
            terminated = true
            cancelled = subscriptions.compactMap { $0 }
            subscriptions = subscriptions.map { _ in nil }
            output.removeAll()
            pendingCompletion = .failure(error)
        case .finished:
            switch mode {
            case .latest: finishWhenDrained = !finished.contains(false)
            case .zip: if buffers[index].isEmpty { cancelled = finishZip() }
            }
        }
        lock.unlock()
        for subscription in cancelled { subscription.cancel() }
        resume()
    }

    /// No more pairs are possible: stop the inputs, finish after the queue (lock held).
    private func finishZip() -> [Subscription] {
        terminated = true
        finishWhenDrained = true
        let live = subscriptions.compactMap { $0 }
        subscriptions = subscriptions.map { _ in nil }
        return live
    }

    func request(_ demand: Subscribers.Demand) {
        precondition(demand > 0, "demand must be positive")
        lock.lock()
        guard downstream != nil else {
            lock.unlock()
            return
        }
        self.demand += demand
        lock.unlock()
        forward(demand)
        resume()
    }

    func cancel() {
        lock.lock()
        terminated = true
        downstream = nil
        output.removeAll()
        let live = subscriptions.compactMap { $0 }
        subscriptions = subscriptions.map { _ in nil }
        lock.unlock()
        for subscription in live { subscription.cancel() }
    }

    /// Passes demand on to every live input.
    private func forward(_ demand: Subscribers.Demand) {
        lock.lock()
        guard !terminated else {
            lock.unlock()
            return
        }
        forwarded += demand
        let live = subscriptions.compactMap { $0 }
        lock.unlock()
        for subscription in live { subscription.request(demand) }
    }

    /// Delivers waiting combinations within demand, then the completion, unless another thread
    /// is already delivering.
    private func resume() {
        lock.lock()
        guard !delivering else {
            lock.unlock()
            return
        }
        delivering = true
        var extra = Subscribers.Demand.none
        while let downstream {
            var completion = pendingCompletion
            if completion == nil, finishWhenDrained, output.isEmpty { completion = .finished }
            if let completion {
                pendingCompletion = nil
                self.downstream = nil
                terminated = true
                delivering = false
                lock.unlock()
                downstream.receive(completion: completion)
                return
            }
            guard demand > 0, let combination = output.popFirst() else { break }
            demand -= 1
            lock.unlock()
            let more = downstream.receive(combination)
            lock.lock()
            demand += more
            extra += more
        }
        delivering = false
        lock.unlock()
        if extra > 0 { forward(extra) }
    }
}

/// The subscriber CombiningCore attaches to input number `index`.
struct CombiningSource<Input, Downstream: Subscriber>: Subscriber, CustomStringConvertible {
    typealias Failure = Downstream.Failure

    let core: CombiningCore<Downstream>
    let index: Int
    let combineIdentifier = CombineIdentifier()

    var description: String { core.description }

    func receive(subscription: Subscription) { core.receive(subscription: subscription, from: index) }

    func receive(_ input: Input) -> Subscribers.Demand { core.receive(input, from: index) }

    func receive(completion: Subscribers.Completion<Failure>) { core.receive(completion: completion, from: index) }
}

/// Subscribes `downstream` to a CombiningCore, then each input in order (`input` is each
/// upstream's `subscribe`). The one entry point of `CombineLatest`… and `Zip`… at every arity: the
/// core keeps one `Any` slot per input and hands them back in input order, unboxed here into the
/// downstream's tuple.
func subscribeCombining<Downstream: Subscriber, each Value>(
    _ downstream: Downstream,
    mode: CombiningCore<Downstream>.Mode,
    _ input: repeat (CombiningSource<each Value, Downstream>) -> Void
) where Downstream.Input == (repeat each Value) {
    var count = 0
    for _ in repeat each input { count += 1 }
    let core = CombiningCore(downstream: downstream, inputs: count, mode: mode) { values in
        var slots = values.makeIterator()
        func next<Slot>(_: Slot.Type) -> Slot { slots.next()! as! Slot }
        return (repeat next((each Value).self))
    }
    downstream.receive(subscription: core)
    var index = 0
    for attach in repeat each input {
        attach(CombiningSource(core: core, index: index))
        index += 1
    }
}
