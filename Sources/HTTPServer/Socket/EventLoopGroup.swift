import Foundation
import Locking

/// A fixed set of loops, each on its own thread; connections are spread over them round-robin.
/// A server makes its own; clients share `sharedClient` or bring one.
public final class EventLoopGroup: @unchecked Sendable {
    // Sendable: `loops` never changes; `nextIndex` is guarded by `lock`.
    let loops: [EventLoop]
    private let lock = Lock()
    private var nextIndex = 0

    /// Starts `count` loops (at least one), their threads named `label.N`.
    public init(count: Int, label: String = "http.loop") throws(SocketError) {
        var loops: [EventLoop] = []
        for index in 0..<max(1, count) {
            loops.append(try EventLoop(label: "\(label).\(index)"))
        }
        self.loops = loops
        loops.forEach { $0.start() }
    }

    /// The next loop, round-robin.
    public func next() -> EventLoop {
        lock.lock()
        defer { lock.unlock() }
        nextIndex = (nextIndex + 1) % loops.count
        return loops[nextIndex]
    }

    /// Stops every loop and waits for their threads.
    public func stop() { loops.forEach { $0.stop() } }
}
