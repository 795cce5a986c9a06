import Dispatch
import Foundation

/// A serial Dispatch queue that owns a set of connections: every connection's state is touched
/// only on its loop's queue, which is what makes the connection types safe without locks.
///
/// A loop also owns one read buffer shared by its connections (reads are serial, so an idle
/// connection holds no buffer) and a deadline sweep that times connections out without a timer
/// per connection.
public final class EventLoop: @unchecked Sendable {
    // Sendable: `queue` is thread-safe; every other field is only touched on `queue`.

    /// The queue all of this loop's I/O and connection state lives on.
    public let queue: DispatchQueue
    /// Scratch space for socket reads; only used on `queue`.
    let readBuffer: UnsafeMutableRawBufferPointer
    private var timed: [ObjectIdentifier: any TimedConnection] = [:]
    private var sweepTimer: DispatchSourceTimer?
    private let sweepInterval: DispatchTimeInterval

    init(label: String, readBufferSize: Int = 64 * 1024, sweepInterval: DispatchTimeInterval = .milliseconds(250)) {
        queue = DispatchQueue(label: label)
        readBuffer = .allocate(byteCount: readBufferSize, alignment: 16)
        self.sweepInterval = sweepInterval
    }

    deinit {
        sweepTimer?.cancel()
        readBuffer.deallocate()
    }

    /// Whether the caller runs on this loop's queue.
    public var inLoop: Bool {
        // A queue-specific key would be faster; dispatchPrecondition is only for debugging.
        DispatchQueue.getSpecific(key: EventLoop.key) == ObjectIdentifier(self)
    }

    /// Runs `body` on the loop: inline if already there, else asynchronously.
    public func execute(_ body: @escaping @Sendable () -> Void) {
        if inLoop { body() } else { queue.async(execute: body) }
    }

    func start() {
        queue.setSpecific(key: EventLoop.key, value: ObjectIdentifier(self))
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + sweepInterval, repeating: sweepInterval, leeway: .milliseconds(50))
        timer.setEventHandler { [weak self] in self?.sweep() }
        timer.resume()
        sweepTimer = timer
    }

    func stop() {
        queue.sync {
            sweepTimer?.cancel()
            sweepTimer = nil
        }
    }

    /// Starts watching the deadline of `connection` (call on the loop).
    func watch(_ connection: any TimedConnection) {
        timed[ObjectIdentifier(connection)] = connection
    }

    /// Stops watching `connection` (call on the loop).
    func unwatch(_ connection: any TimedConnection) {
        timed.removeValue(forKey: ObjectIdentifier(connection))
    }

    /// The number of connections this loop watches.
    var connectionCount: Int { timed.count }

    /// Every watched connection (call on the loop).
    var connections: [any TimedConnection] { Array(timed.values) }

    private func sweep() {
        let now = DispatchTime.now().uptimeNanoseconds
        for connection in timed.values where connection.deadline != 0 && connection.deadline <= now {
            connection.deadlinePassed()
        }
    }

    private static let key = DispatchSpecificKey<ObjectIdentifier>()
}

/// A connection whose loop checks a deadline for it.
protocol TimedConnection: AnyObject {
    /// Uptime in nanoseconds after which `deadlinePassed()` is called; 0 for none.
    var deadline: UInt64 { get }
    func deadlinePassed()
}

/// A fixed set of loops; connections are spread over them round-robin.
final class EventLoopGroup: @unchecked Sendable {
    // Sendable: `loops` never changes; `nextIndex` is guarded by `lock`.
    let loops: [EventLoop]
    private let lock = NSLock()
    private var nextIndex = 0

    init(count: Int) {
        loops = (0..<max(1, count)).map { EventLoop(label: "httpserver.loop.\($0)") }
        loops.forEach { $0.start() }
    }

    func next() -> EventLoop {
        lock.lock()
        defer { lock.unlock() }
        nextIndex = (nextIndex + 1) % loops.count
        return loops[nextIndex]
    }

    func stop() { loops.forEach { $0.stop() } }
}
