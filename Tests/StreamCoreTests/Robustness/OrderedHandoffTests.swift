@_spi(ServerSupport) import StreamCore
import XCTest

/// Delivery in queue order, one element at a time, never nested: what the receiver queues while
/// it is being called comes after, once it returns.
final class OrderedHandoffTests: XCTestCase {
    func testDeliversInOrderAndNeverNested() {
        let delivered = DeliveryLog { value, delivered in
            guard value == 1 else { return }
            delivered.handoff.enqueue(3)
            delivered.handoff.deliverQueued()  // a delivery is under way: returns at once
            delivered.log.append("queued 3")
        }
        let sender = delivered.handoff!
        sender.enqueue(1)
        sender.enqueue(2)
        XCTAssertEqual(delivered.log, [], "nothing before deliverQueued()")
        sender.deliverQueued()
        XCTAssertEqual(delivered.log, ["1 at depth 1", "queued 3", "2 at depth 1", "3 at depth 1"])
        sender.deliverQueued()
        XCTAssertEqual(delivered.log.count, 4, "nothing queued: nothing delivered")
        sender.enqueue(4)
        sender.deliverQueued()
        XCTAssertEqual(delivered.log.last, "4 at depth 1", "the next delivery starts afresh")
    }

    func testDeliverKeepsItsPlaceBehindWhatIsQueuedAndIsNeverNested() {
        let delivered = DeliveryLog { value, delivered in
            if value == 1 { delivered.handoff.deliver(2) }  // under way: queued, delivered after
        }
        let handoff = delivered.handoff!
        handoff.deliver(1)
        XCTAssertEqual(delivered.log, ["1 at depth 1", "2 at depth 1"], "nothing ahead: delivered at once; its own follow-up after it")
        handoff.enqueue(3)
        handoff.deliver(4)
        XCTAssertEqual(delivered.log.suffix(2), ["3 at depth 1", "4 at depth 1"], "queued before it, delivered before it")
        handoff.deliver(5)
        XCTAssertEqual(delivered.log.last, "5 at depth 1", "the queue drained: the next one goes at once again")
    }
}

/// A handoff whose receiver logs each element with how deeply deliveries are nested, then runs
/// `react` (which may hand the handoff more). One thread only: the receiver runs on the thread
/// that delivers.
private final class DeliveryLog: @unchecked Sendable {  // Sendable: used on the test's thread only
    var log: [String] = []
    private var depth = 0
    private(set) var handoff: OrderedHandoff<Int>!

    init(react: @escaping @Sendable (Int, DeliveryLog) -> Void) {
        handoff = OrderedHandoff { [unowned self] value in
            depth += 1
            log.append("\(value) at depth \(depth)")
            react(value, self)
            depth -= 1
        }
    }
}
