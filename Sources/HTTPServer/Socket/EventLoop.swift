import Foundation
import Locking

/// One thread that owns a set of connections: an epoll loop (level-triggered) that reads and
/// writes their sockets, runs the tasks other code hands it, and sweeps their deadlines. Every
/// connection's state is touched only on its loop, which is what makes the connection types
/// safe without locks: they keep it in a `LoopBound`, which checks that in debug builds.
///
/// Why not Dispatch sources: under load they cost about five extra system calls per message
/// (futex wake-ups, `epoll_ctl` re-arming, an `ioctl(FIONREAD)` per read); here an echoed
/// WebSocket message costs one `read` and one `send`, plus a share of one `epoll_wait` and, in a
/// turn with more than one descriptor ready, of one `sched_yield`.
///
/// A loop also owns one read buffer shared by its connections (reads are serial, so an idle
/// connection holds no buffer), a deadline sweep that times connections out without a timer
/// per connection, and timers (`schedule(at:_:)`) so that what a connection's session times —
/// a pipeline's throttle or debounce — fires on the thread that writes its socket.
public final class EventLoop: @unchecked Sendable {
    // Sendable: the queued tasks and the lifecycle live in `state`, inside its lock; every other
    // mutable field is only touched on the thread (or, once it has ended, by the one thread
    // draining the tasks queued afterwards, which then counts as the loop: see `drainStopped`).

    /// Scratch space for socket reads; only used on the loop.
    let readBuffer: UnsafeMutableRawBufferPointer
    private let epoll: Epoll
    private let label: String
    private let sweepInterval: Duration
    /// How long after its deadline a timer may fire (the loop thread's timer slack).
    public let timerSlack: Duration
    private var nextSweep: UInt64 = 0
    private var handlers = IOHandlerTable()
    private var timed: [ObjectIdentifier: any TimedConnection] = [:]
    private var spareTasks: [@Sendable () -> Void] = []
    private var timers = LoopTimerQueue()
    /// The thread has ended: timers are dropped, not queued (nothing would run them, and what
    /// their actions hold — often this loop — would be kept alive).
    private var timersEnded = false
    /// The loop queued a task itself, or asked to stop, since its turn last took the tasks: it
    /// must not block in `epoll_wait` (tasks from other threads wake it instead). With this the
    /// turn takes the lock once, to take its tasks.
    private var mustNotBlock = false

    /// The lifecycle and the queued tasks.
    private let state = Locked(EventLoopStateMachine())

    /// `timerSlack`: how long after its deadline a timer may fire, so that timers due close
    /// together, or close to the next readable socket, share one wake-up of the thread (zero:
    /// each fires at its deadline, as near as the kernel can).
    init(
        label: String, readBufferSize: Int = 64 * 1024, sweepInterval: Duration = .milliseconds(250),
        timerSlack: Duration = .zero
    ) throws(SocketError) {
        epoll = try Epoll()
        readBuffer = .allocate(byteCount: readBufferSize, alignment: 16)
        self.label = label
        self.sweepInterval = sweepInterval
        self.timerSlack = max(timerSlack, .zero)
    }

    deinit {
        readBuffer.deallocate()
    }

    /// Whether the caller runs on this loop's thread.
    public var inLoop: Bool {
        pthread_getspecific(EventLoop.currentKey) == Unmanaged.passUnretained(self).toOpaque()
    }

    /// Runs `body` on the loop: inline if already there, else as soon as the loop gets to it.
    public func execute(_ body: @escaping @Sendable () -> Void) {
        if inLoop { body() } else { enqueue(body) }
    }

    /// Runs `body` on the loop after everything queued before it, never inline: calls made
    /// from the loop keep their order with calls other threads queued earlier.
    public func enqueue(_ body: @escaping @Sendable () -> Void) {
        let onLoop = inLoop
        if onLoop { mustNotBlock = true }
        switch state.withLock({ $0.enqueue(body, onLoop: onLoop) }) {
        case .none: break
        case .wake: epoll.wake()
        case .runOnCaller:
            asLoop {
                body()
                drainStopped()
            }
        }
    }

    /// Runs `body` on the loop at `deadline` or soon after (never inline), unless the timer
    /// returned is cancelled first. Safe from any thread; timers due at the same time run in the
    /// order they were scheduled. A loop that has stopped runs no timers.
    @discardableResult
    public func schedule(at deadline: DispatchTime, _ body: @escaping @Sendable () -> Void) -> LoopTimer {
        let timer = LoopTimer()
        // On the loop (a throttle's or debounce's window), straight into the heap: no task.
        if inLoop {
            addTimer(deadline, timer, body)
        } else {
            enqueue { [self] in addTimer(deadline, timer, body) }
        }
        return timer
    }

    /// Queues a timer (on the loop); the loop's next wait times out for it (see `waitTimeout`).
    private func addTimer(_ deadline: DispatchTime, _ timer: LoopTimer, _ body: @escaping @Sendable () -> Void) {
        guard !timersEnded else { return }
        timers.add(deadline: deadline.uptimeNanoseconds, timer: timer, action: body)
    }

    /// Runs `body` on the loop and waits for its result; must not be called on the loop.
    public func sync<T: Sendable>(_ body: @escaping @Sendable () -> T) -> T {
        if inLoop { return body() }
        let done = DispatchSemaphore(value: 0)
        let result = SyncResult<T>()
        enqueue {
            let value = body()
            result.value.withLock { $0 = value }
            done.signal()
        }
        done.wait()
        return result.value.withLock { $0 }!
    }

    /// Where `sync`'s task leaves its result for the waiting thread.
    private final class SyncResult<T: Sendable>: Sendable {
        let value = Locked<T?>(nil)
    }

    /// Starts the loop's thread (once: later calls, and calls after `stop`, do nothing).
    func start() {
        guard state.withLock({ $0.start() }) else { return }
        mustNotBlock = true  // tasks queued before the start sent no wake-up (the thread sees this write)
        let thread = Thread { [self] in run() }
        thread.start()
        // Named after `start` (Foundation on Linux gives the kernel the name of a started thread
        // only), in the 15 bytes the kernel keeps (`top -H`, `ps -L`, perf): it refuses more.
        thread.name = String(decoding: label.utf8.prefix(15), as: UTF8.self)
    }

    /// Stops the loop once the tasks queued so far have run and waits for its thread to end
    /// (called on the loop, it cannot wait: the loop ends after its next turn). Tasks queued
    /// afterwards run at once on the caller's thread, one at a time.
    func stop() {
        let onLoop = inLoop
        if onLoop { mustNotBlock = true }
        let waiter = DispatchSemaphore(value: 0)
        switch state.withLock({ $0.stop(onLoop: onLoop, waiter: waiter) }) {
        case .none:
            return
        case .wait(let wake):
            if wake { epoll.wake() }
            waiter.wait()
        case .drain(let queued):
            asLoop {
                queued.forEach { $0() }
                drainStopped()
            }
        }
    }

    /// Runs the tasks queued on a stopped loop until none is left, as the loop: meanwhile
    /// `inLoop` is true on this thread, so tasks that `execute` or `sync` run inline.
    private func drainStopped() {
        asLoop {
            while let task = state.withLock({ $0.nextStoppedTask() }) { task() }
        }
    }

    /// Runs `body` with this thread marked as the loop's, then restores the mark it had.
    private func asLoop(_ body: () -> Void) {
        let previous = pthread_getspecific(EventLoop.currentKey)
        pthread_setspecific(EventLoop.currentKey, Unmanaged.passUnretained(self).toOpaque())
        body()
        pthread_setspecific(EventLoop.currentKey, previous)
    }

    // MARK: Registration (on the loop)

    /// Watches `descriptor` for `interest`; returns the token to change or end the registration.
    func register(_ descriptor: Int32, interest: IOInterest, handler: any IOHandler) throws(SocketError) -> UInt64 {
        let token = handlers.insert(handler)
        do {
            try epoll.add(descriptor, interest: interest, token: token)
        } catch {
            handlers.remove(token)
            throw error
        }
        return token
    }

    func reregister(_ descriptor: Int32, token: UInt64, interest: IOInterest) throws(SocketError) {
        try epoll.modify(descriptor, interest: interest, token: token)
    }

    /// Stops watching `descriptor`; call before closing it.
    func deregister(_ descriptor: Int32, token: UInt64) {
        epoll.remove(descriptor)
        handlers.remove(token)
    }

    // MARK: Deadlines (on the loop)

    /// Starts watching the deadline of `connection`.
    func watch(_ connection: any TimedConnection) {
        timed[ObjectIdentifier(connection)] = connection
    }

    /// Stops watching `connection`.
    func unwatch(_ connection: any TimedConnection) {
        timed.removeValue(forKey: ObjectIdentifier(connection))
    }

    /// The number of connections this loop watches.
    var connectionCount: Int { timed.count }

    /// Every watched connection.
    var connections: [any TimedConnection] { Array(timed.values) }

    // MARK: The loop

    private func run() {
        pthread_setspecific(EventLoop.currentKey, Unmanaged.passUnretained(self).toOpaque())
        Epoll.setTimerSlack(nanoseconds: timerSlack.nanosecondsClampedToZero)
        nextSweep = Deadline.after(sweepInterval).uptimeNanoseconds
        while true {
            let ready = epoll.wait(timeoutNanoseconds: waitTimeout()) { event in
                guard event.token != Epoll.wakeToken, let handler = handlers[event.token] else { return }
                handler.ready(event)
            }
            // Timers before tasks: what a timer hands the loop (a throttled result to write)
            // goes out in this turn, before the yield below.
            let now = DispatchTime.now().uptimeNanoseconds
            if let next = timers.nextDeadline, next <= now { runTimers(now: now) }
            if runTasks() { break }
            // After a busy turn (more than one descriptor ready), let other runnable threads on
            // this core go first (a no-op when there are none): the peer of a WebSocket on the
            // same machine answers sooner, and the loop finds more to do per `epoll_wait`.
            // Without it WebSocket echo made 0.70× the round trips at 1.22× the CPU each
            // (measured for #24 in commit 325d20c). After a turn with one descriptor — a
            // keystroke of a typing session, a timer — there is no batch to gain and the yield
            // was a context switch for nothing: 10% of the service's CPU under session load.
            if ready > 1 { sched_yield() }
            if now >= nextSweep {
                sweep(now: now)
                nextSweep = Deadline.after(sweepInterval).uptimeNanoseconds
            }
        }
        // Timers still queued never run: drop them and what their actions hold.
        timersEnded = true
        timers = LoopTimerQueue()
        let (remaining, waiters) = state.withLock { $0.threadExited() }
        remaining.forEach { $0() }
        drainStopped()
        pthread_setspecific(EventLoop.currentKey, nil)
        waiters.forEach { $0.signal() }
    }

    /// Nanoseconds to wait: 0 when the loop queued tasks (or is to end), else until the next
    /// timer or sweep, whichever comes first.
    private func waitTimeout() -> UInt64 {
        if mustNotBlock { return 0 }
        let now = DispatchTime.now().uptimeNanoseconds
        let next = min(nextSweep, timers.nextDeadline ?? .max)
        return next > now ? next - now : 0
    }

    /// Runs the tasks queued so far, then those they queued, for at most `taskRounds` rounds:
    /// what a task hands on (a stage's result to write) goes out in the same turn, without a
    /// turn of its own, and a chain of tasks that keeps queueing still lets I/O in. Returns
    /// whether the loop ends (a stop was asked before a round took its tasks).
    private func runTasks() -> Bool {
        for _ in 0..<Self.taskRounds {
            var batch: [@Sendable () -> Void] = []
            swap(&batch, &spareTasks)
            mustNotBlock = false
            let exit = state.withLock { $0.takeTasks(swappingWith: &batch) }
            for task in batch { task() }
            batch.removeAll(keepingCapacity: true)
            spareTasks = batch
            // Tasks from other threads queued meanwhile woke the loop; they wait for the next turn.
            if exit || !mustNotBlock { return exit }
        }
        return false
    }

    /// Rounds of tasks in one turn (see `runTasks`).
    private static let taskRounds = 4

    /// Runs the timers due at `now` (those they schedule for `now` or earlier too).
    private func runTimers(now: UInt64) {
        while let action = timers.popDue(now: now) { action() }
    }

    private func sweep(now: UInt64) {
        for connection in timed.values {
            if let deadline = connection.deadline, deadline.uptimeNanoseconds <= now { connection.deadlinePassed() }
        }
    }

    private static let currentKey: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()
}

/// A descriptor's owner on an `EventLoop`: told when the descriptor is ready.
protocol IOHandler: AnyObject {
    /// On `failed` (an error or hang-up) the handler closes (after one last read, if reading).
    func ready(_ event: IOEvent)
}

/// A connection its loop keeps: the loop checks its deadline, and a server's shutdown reaches
/// it through the loop (`connections`) without knowing its type.
protocol TimedConnection: AnyObject {
    /// When `deadlinePassed()` is called; nil for never.
    var deadline: Deadline? { get }
    func deadlinePassed()
    /// Graceful shutdown began: finish what is in flight, then close.
    func quiesce()
    /// Closes at once (the drain deadline passed).
    func close()
    /// Bytes held in user space for the connection (diagnostics).
    var bufferedBytes: Int { get }
}
