import GithubProxy
import HTTPTestSupport
import XCTest

/// Delivery in queue order, one element at a time, never nested: what the receiver queues while
/// it is being called comes after, once it returns.
final class OrderedHandoffTests: XCTestCase {
    func testDeliversInOrderAndNeverNested() {
        let log = Box<[String]>([])
        let depth = Box(0)
        let handoff = Box<OrderedHandoff<Int>?>(nil)
        handoff.mutate {
            $0 = OrderedHandoff { value in
                depth.mutate { $0 += 1 }
                log.mutate { $0.append("\(value) at depth \(depth.value)") }
                if value == 1, let handoff = handoff.value {
                    handoff.enqueue(3)
                    handoff.deliverQueued()  // a delivery is under way: returns at once
                    log.mutate { $0.append("queued 3") }
                }
                depth.mutate { $0 -= 1 }
            }
        }
        let sender = handoff.value!
        sender.enqueue(1)
        sender.enqueue(2)
        XCTAssertEqual(log.value, [], "nothing before deliverQueued()")
        sender.deliverQueued()
        XCTAssertEqual(log.value, ["1 at depth 1", "queued 3", "2 at depth 1", "3 at depth 1"])
        sender.deliverQueued()
        XCTAssertEqual(log.value.count, 4, "nothing queued: nothing delivered")
        sender.enqueue(4)
        sender.deliverQueued()
        XCTAssertEqual(log.value.last, "4 at depth 1", "the next delivery starts afresh")
    }
}
