@_spi(ServerSupport) import StreamCore
import XCTest

/// Delivery in queue order, one element at a time, never nested: what the receiver queues while
/// it is being called comes after, once it returns.
final class OrderedHandoffTests: XCTestCase {
    func testDeliversInOrderAndNeverNested() {
        // One thread only: the receiver runs on the thread that calls deliverQueued().
        nonisolated(unsafe) var log: [String] = []
        nonisolated(unsafe) var depth = 0
        final class Holder: @unchecked Sendable { var handoff: OrderedHandoff<Int>? }  // one thread
        let holder = Holder()
        holder.handoff = OrderedHandoff { value in
            depth += 1
            log.append("\(value) at depth \(depth)")
            if value == 1, let handoff = holder.handoff {
                handoff.enqueue(3)
                handoff.deliverQueued()  // a delivery is under way: returns at once
                log.append("queued 3")
            }
            depth -= 1
        }
        let sender = holder.handoff!
        sender.enqueue(1)
        sender.enqueue(2)
        XCTAssertEqual(log, [], "nothing before deliverQueued()")
        sender.deliverQueued()
        XCTAssertEqual(log, ["1 at depth 1", "queued 3", "2 at depth 1", "3 at depth 1"])
        sender.deliverQueued()
        XCTAssertEqual(log.count, 4, "nothing queued: nothing delivered")
        sender.enqueue(4)
        sender.deliverQueued()
        XCTAssertEqual(log.last, "4 at depth 1", "the next delivery starts afresh")
        holder.handoff = nil  // the receiver holds the holder
    }

    func testDeliverKeepsItsPlaceBehindWhatIsQueuedAndIsNeverNested() {
        nonisolated(unsafe) var log: [String] = []
        nonisolated(unsafe) var depth = 0
        final class Holder: @unchecked Sendable { var handoff: OrderedHandoff<Int>? }  // one thread
        let holder = Holder()
        holder.handoff = OrderedHandoff { value in
            depth += 1
            log.append("\(value) at depth \(depth)")
            if value == 1 { holder.handoff?.deliver(2) }  // under way: queued, delivered after
            depth -= 1
        }
        let handoff = holder.handoff!
        handoff.deliver(1)
        XCTAssertEqual(log, ["1 at depth 1", "2 at depth 1"], "nothing ahead: delivered at once; its own follow-up after it")
        handoff.enqueue(3)
        handoff.deliver(4)
        XCTAssertEqual(log.suffix(2), ["3 at depth 1", "4 at depth 1"], "queued before it, delivered before it")
        handoff.deliver(5)
        XCTAssertEqual(log.last, "5 at depth 1", "the queue drained: the next one goes at once again")
        holder.handoff = nil  // the receiver holds the holder
    }
}
