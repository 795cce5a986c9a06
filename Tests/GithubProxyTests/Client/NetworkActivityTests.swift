import Foundation
import GithubProxy
import HTTPTestSupport
import StreamCore
import XCTest

final class NetworkActivityTests: XCTestCase {
    func testBalancedAndNeverOverlapping() {
        let activity = NetworkActivity()
        var events: [Bool] = []
        let cancellable = activity.publisher.sink { events.append($0) }
        let first = activity.begin()
        let second = activity.begin()  // ends `first` before beginning
        activity.end(first)  // stale: ignored
        activity.end(second)
        activity.end(second)  // twice: ignored
        XCTAssertEqual(events, [true, false, true, false])
        cancellable.cancel()
    }

    /// A subscriber may call back into the activity while it is being told of an event (here
    /// from another thread, which waits for the call): events go out outside the lock, in order.
    func testASubscriberMayCallBack() {
        let activity = NetworkActivity()
        let events = Box<[Bool]>([])
        let calledBack = Box<Bool?>(nil)
        let cancellable = activity.publisher.sink { event in
            events.mutate { $0.append(event) }
            guard event, calledBack.value == nil else { return }
            let finished = finishesOnAnotherThread { _ = activity.begin() }  // ends the current one, begins another
            calledBack.mutate { $0 = finished }
        }
        _ = activity.begin()
        XCTAssertEqual(calledBack.value, true, "the other thread's begin() did not wait for this delivery")
        XCTAssertEqual(events.value, [true, false, true])
        withExtendedLifetime(cancellable) {}
    }

    /// The race the pipelines had: while one thread delivers an activity's `false`, another
    /// begins the next activity and has its result at once. Its `true` waits for the first
    /// thread; its result, handed to `deliverInOrder`, waits behind it instead of overtaking it.
    func testWorkHandedToDeliverInOrderFollowsTheEventsQueuedBeforeIt() {
        let activity = NetworkActivity()
        let delivered = Box<[String]>([])
        let otherThreadFinished = Box<Bool?>(nil)
        let cancellable = activity.publisher.sink { event in
            delivered.mutate { $0.append("\(event)") }
            guard !event, otherThreadFinished.value == nil else { return }
            let finished = finishesOnAnotherThread {
                _ = activity.begin()  // delivery under way on the first thread: `true` waits
                activity.deliverInOrder { delivered.mutate { $0.append("result") } }
            }
            otherThreadFinished.mutate { $0 = finished }
        }
        let first = activity.begin()
        activity.end(first)
        XCTAssertEqual(otherThreadFinished.value, true, "the other thread waited for this delivery")
        XCTAssertEqual(delivered.value, ["true", "false", "true", "result"])
        withExtendedLifetime(cancellable) {}
    }

    func testDeliverInOrderRunsAtOnceWhenNothingIsBeingDelivered() {
        let activity = NetworkActivity()
        let ran = Box(false)
        activity.deliverInOrder { ran.mutate { $0 = true } }
        XCTAssertTrue(ran.value)
    }
}
