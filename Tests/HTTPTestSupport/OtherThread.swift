import Dispatch

/// Runs `body` on another thread and waits for it up to `timeout` seconds; whether it finished.
/// For "nothing is called under a lock" tests: called from inside a callback, `body` touches the
/// object that made the callback, which would wait for ever were its lock still held.
public func finishesOnAnotherThread(timeout: Double = 5, _ body: @escaping @Sendable () -> Void) -> Bool {
    let done = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
        body()
        done.signal()
    }
    return done.wait(timeout: .now() + timeout) == .success
}
