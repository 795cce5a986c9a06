import Foundation
import Locking

/// One thread that owns a set of connections: an epoll loop (level-triggered) that reads and
/// writes their sockets, runs the tasks other code hands it, and sweeps their deadlines. Every
/// connection's state is touched only on its loop, which is what makes the connection types
/// safe without locks.
///
/// Why not Dispatch sources: under load they cost about five extra system calls per message
/// (futex wake-ups, `epoll_ctl` re-arming, an `ioctl(FIONREAD)` per read); here an echoed
/// WebSocket message costs one `read` and one `send`, plus a share of one `epoll_wait` and of
/// one `sched_yield`.
///
/// A loop also owns one read buffer shared by its connections (reads are serial, so an idle
/// connection holds no buffer) and a deadline sweep that times connections out without a timer
/// per connection.
public final class EventLoop: @unchecked Sendable {
    // Sendable: `tasks`, `wakePending`, `stopped` and `stopRequested` are guarded by `lock`;
    // `afterStop` serialises the tasks run once the thread has gone (the lock hand-over orders
    // them after everything the thread did); every other field is only touched on the thread.

    /// Scratch space for socket reads; only used on the loop.
    let readBuffer: UnsafeMutableRawBufferPointer
    private let epoll: Epoll
    private let label: String
    private let sweepInterval: Duration
    private var nextSweep: UInt64 = 0
    private var handlers: [UInt64: any IOHandler] = [:]
    private var nextToken: UInt64 = 0
    private var timed: [ObjectIdentifier: any TimedConnection] = [:]
    private var running = true
    private var spareTasks: [@Sendable () -> Void] = []

    private let lock = Lock()
    private var tasks: [@Sendable () -> Void] = []
    private var wakePending = false
    private var stopped = false
    private var stopRequested = false
    private let afterStop = NSRecursiveLock()
    private let finished = DispatchSemaphore(value: 0)

    init(label: String, readBufferSize: Int = 64 * 1024, sweepInterval: Duration = .milliseconds(250)) throws(SocketError) {
        epoll = try Epoll()
        readBuffer = .allocate(byteCount: readBufferSize, alignment: 16)
        self.label = label
        self.sweepInterval = sweepInterval
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
        let wake: Bool
        lock.lock()
        if stopped {
            lock.unlock()
            afterStop.withLock(body)
            return
        }
        tasks.append(body)
        wake = !wakePending && !inLoop
        if wake { wakePending = true }
        lock.unlock()
        if wake { epoll.wake() }
    }

    /// Runs `body` on the loop and waits for its result; must not be called on the loop.
    public func sync<T: Sendable>(_ body: @escaping @Sendable () -> T) -> T {
        if inLoop { return body() }
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var result: T?
        enqueue {
            result = body()
            done.signal()
        }
        done.wait()
        return result!
    }

    /// Starts the loop's thread.
    func start() {
        let thread = Thread { [self] in run() }
        thread.name = label  // the kernel keeps 15 bytes of a thread name (`top -H`, `ps -L`)
        thread.start()
    }

    /// Stops the loop once the tasks queued so far have run and waits for its thread to end
    /// (called on the loop, it cannot wait: the loop ends after the current turn). Tasks queued
    /// afterwards run at once on the caller's thread, one at a time.
    func stop() {
        if inLoop {
            running = false
            return
        }
        let first = lock.withLock {
            defer { stopRequested = true }
            return !stopRequested
        }
        if first { enqueue { [self] in running = false } }
        finished.wait()
        finished.signal()  // for every other caller waiting, now or later
    }

    // MARK: Registration (on the loop)

    /// Watches `descriptor` for `interest`; returns the token to change or end the registration.
    func register(_ descriptor: Int32, interest: IOInterest, handler: any IOHandler) throws(SocketError) -> UInt64 {
        let token = nextToken
        nextToken += 1
        try epoll.add(descriptor, interest: interest, token: token)
        handlers[token] = handler
        return token
    }

    func reregister(_ descriptor: Int32, token: UInt64, interest: IOInterest) throws(SocketError) {
        try epoll.modify(descriptor, interest: interest, token: token)
    }

    /// Stops watching `descriptor`; call before closing it.
    func deregister(_ descriptor: Int32, token: UInt64) {
        epoll.remove(descriptor)
        handlers.removeValue(forKey: token)
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
        nextSweep = Deadline.after(sweepInterval).uptimeNanoseconds
        while running {
            let ready = epoll.wait(timeoutMilliseconds: waitTimeout()) { event in
                guard event.token != Epoll.wakeToken, let handler = handlers[event.token] else { return }
                handler.ready(event)
            }
            runTasks()
            // After a busy turn, let other runnable threads on this core go first (a no-op when
            // there are none): the peer of a WebSocket on the same machine answers sooner, and
            // the loop finds more to do per `epoll_wait`. Without it WebSocket echo made 0.70×
            // the round trips at 1.22× the CPU each (measured for #24 in commit 325d20c; the figures
            // are in the history of docs/benchmarks.md).
            if ready > 0 { sched_yield() }
            let now = DispatchTime.now().uptimeNanoseconds
            if now >= nextSweep {
                sweep(now: now)
                nextSweep = Deadline.after(sweepInterval).uptimeNanoseconds
            }
        }
        afterStop.withLock {
            lock.lock()
            stopped = true
            let remaining = tasks
            tasks = []
            lock.unlock()
            remaining.forEach { $0() }
        }
        pthread_setspecific(EventLoop.currentKey, nil)
        finished.signal()
    }

    /// 0 when tasks wait, else until the next sweep.
    private func waitTimeout() -> Int32 {
        let pending = lock.withLock { !tasks.isEmpty }
        if pending { return 0 }
        let now = DispatchTime.now().uptimeNanoseconds
        guard nextSweep > now else { return 0 }
        return Int32((nextSweep - now + 999_999) / 1_000_000)
    }

    /// Runs the tasks queued so far; those they queue run on the next turn, after I/O.
    private func runTasks() {
        var batch: [@Sendable () -> Void] = []
        swap(&batch, &spareTasks)
        lock.lock()
        swap(&batch, &tasks)
        wakePending = false
        lock.unlock()
        for task in batch { task() }
        batch.removeAll(keepingCapacity: true)
        spareTasks = batch
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

/// A connection whose loop checks a deadline for it.
protocol TimedConnection: AnyObject {
    /// When `deadlinePassed()` is called; nil for never.
    var deadline: Deadline? { get }
    func deadlinePassed()
}
