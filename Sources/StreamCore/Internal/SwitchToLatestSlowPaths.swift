/// The slow paths of `SwitchToLatest`'s `Outer` (not inlined): ending the stream, and values
/// that wait while another thread delivers.
extension Publishers.SwitchToLatest.Outer {
    /// Ends the stream; entered with the lock held, returns with it released.
    @usableFromInline func end(with completion: Subscribers.Completion<Failure>) {
        terminated = true
        let outer = self.outer.take(), inner = self.inner.take()
        pendingValues.removeAll()
        let downstream: Downstream?
        if delivering {
            pendingCompletion = completion
            hasPending = true
            downstream = nil
        } else {
            downstream = self.downstream
            self.downstream = nil
        }
        lock.unlock()
        outer.cancel()
        inner.cancel()
        downstream?.receive(completion: completion)
    }

    /// A newer inner took over while a value of the previous one was delivered: the demand the
    /// downstream added goes to the current inner. Entered with the lock held and `delivering`
    /// set, returns with the lock released and `delivering` cleared.
    @usableFromInline func forwardToCurrentInner(_ more: Subscribers.Demand) -> Subscribers.Demand {
        let forward = inner.subscription
        if hasPending {
            drainPending()
        } else {
            delivering = false
            lock.unlock()
        }
        forward.request(more)
        return .none
    }

    /// Queues a value that arrived while another thread delivers; releases the lock.
    @usableFromInline func enqueue(_ value: Downstream.Input) -> Subscribers.Demand {
        pendingValues.append(value)
        hasPending = true
        lock.unlock()
        return .none
    }

    /// Forgets queued values of a superseded inner (lock held).
    @usableFromInline func dropPendingValues() {
        pendingValues.removeAll()
        hasPending = pendingCompletion != nil
    }

    /// Delivers what waits, within demand; entered with the lock held and `delivering` set,
    /// returns with the lock released and `delivering` cleared.
    @usableFromInline func drainPending() {
        while let downstream {
            if let completion = pendingCompletion {
                pendingCompletion = nil
                hasPending = false
                self.downstream = nil
                delivering = false
                lock.unlock()
                downstream.receive(completion: completion)
                return
            }
            guard demand > 0, let value = pendingValues.popFirst() else { break }
            demand -= 1
            lock.unlock()
            let more = downstream.receive(value)
            lock.lock()
            if more > 0, !terminated {
                demand += more
                let inner = self.inner.subscription
                lock.unlock()
                inner.request(more)
                lock.lock()
            }
        }
        hasPending = !pendingValues.isEmpty || pendingCompletion != nil
        delivering = false
        lock.unlock()
    }
}
