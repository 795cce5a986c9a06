import HTTPServer
import Locking

/// Jobs handed over from any thread, carried out on one event loop one at a time, in the order
/// they were handed over.
///
/// A job handed over on the loop is carried out at once, after the jobs that other threads
/// handed over before it (which are still waiting for the loop's turn): `EventLoop.execute`
/// alone would let it overtake them. One handed over while jobs are being carried out further up
/// the stack waits for them, so a job never runs in the middle of another.
final class LoopJobQueue<Job: Sendable>: Sendable {
    private let loop: EventLoop
    /// Not yet carried out, oldest first.
    private let jobs = Locked<[Job]>([])
    /// Whether jobs are being carried out (on the loop).
    private let busy: LoopBound<Bool>

    /// Created on any thread.
    init(loop: EventLoop) {
        self.loop = loop
        busy = LoopBound(sending: false, loop: loop)
    }

    /// Queues `job` behind every job handed over before it; `carryOut` then runs on the loop for
    /// each queued job in turn (at once when this is the loop and nothing is being carried out).
    func submit(_ job: Job, carryOut: @escaping @Sendable (Job) -> Void) {
        jobs.withLock { $0.append(job) }
        loop.execute { [self] in run(carryOut) }
    }

    private func run(_ carryOut: (Job) -> Void) {
        guard !busy.value else { return }
        busy.value = true
        while let next = jobs.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) { carryOut(next) }
        busy.value = false
    }
}
