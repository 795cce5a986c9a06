import Foundation
import Synchronization

/// A fixed set of loops, each on its own thread; connections are spread over them round-robin.
/// A server makes its own; clients share `sharedClient` or bring one.
public final class EventLoopGroup: Sendable {
    let loops: [EventLoop]
    /// Counts the calls to `next()`; one word, so an atomic rather than a lock.
    private let handedOut = Atomic<UInt>(0)

    /// Starts `count` loops (at least one), their threads named `label.N` (cut to the kernel's 15
    /// bytes), whose timers may fire up to `timerSlack` after their deadlines (`EventLoop`'s).
    public init(count: Int, label: String = "http.loop", timerSlack: Duration = .zero) throws(SocketError) {
        var loops: [EventLoop] = []
        for index in 0..<max(1, count) {
            loops.append(try EventLoop(label: "\(label).\(index)", timerSlack: timerSlack))
        }
        self.loops = loops
        loops.forEach { $0.start() }
    }

    /// The next loop, round-robin.
    public func next() -> EventLoop {
        let count = handedOut.wrappingAdd(1, ordering: .relaxed).newValue
        return loops[Int(count % UInt(loops.count))]
    }

    /// Stops every loop and waits for their threads.
    public func stop() { loops.forEach { $0.stop() } }
}
