import Dispatch
import HTTPServer
import Locking
import StreamCore
import WebSocketPublishers

/// The pipelines' scheduler of each event loop — its `EventLoopScheduler` with every timer
/// measured (`TimerLatenessScheduler`), in one type-erased box — made once per loop and shared
/// by the sessions on it, instead of two type-erased schedulers per session.
/// With an injected scheduler (a test scheduler), every session shares its measured wrapper.
final class PipelineSchedulers: Sendable {
    private let record: @Sendable (Duration) -> Void
    /// The loops' schedulers made so far, by loop (loops live as long as the server).
    private let made = Locked<[ObjectIdentifier: AnySchedulerOf<DispatchQueue>]>([:])
    private let shared: AnySchedulerOf<DispatchQueue>?

    /// `record` receives each timer's lateness; `injected` replaces the loops' schedulers.
    init(injected: AnySchedulerOf<DispatchQueue>?, record: @escaping @Sendable (Duration) -> Void) {
        self.record = record
        shared = injected.map { TimerLatenessScheduler(base: $0, record: record).eraseToAnyScheduler() }
    }

    /// The scheduler of the pipelines of a session on `loop`.
    func scheduler(for loop: EventLoop) -> AnySchedulerOf<DispatchQueue> {
        if let shared { return shared }
        let key = ObjectIdentifier(loop)
        if let existing = made.withLock({ $0[key] }) { return existing }
        let scheduler = TimerLatenessScheduler(base: loop.scheduler, record: record).eraseToAnyScheduler()
        // Two sessions may make one at once: the first stored is the one every session shares.
        return made.withLock { made in
            if let existing = made[key] { return existing }
            made[key] = scheduler
            return scheduler
        }
    }
}
