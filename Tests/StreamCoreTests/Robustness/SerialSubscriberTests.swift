import Dispatch
import Foundation
@_spi(ServerSupport) import StreamCore
import Synchronization
import XCTest

/// `SerialSubscriber`: forwards every call, may be called from any thread one call at a time,
/// and re-entered on the calling thread. The check itself traps, so it is tested through the
/// predicate it asserts (`isCallable`).
final class SerialSubscriberTests: XCTestCase {
    func testForwardsEveryCallFromAnotherThread() {
        let recorder = Recorder<Int, TestError>()
        let serial = SerialSubscriber(recorder)
        XCTAssertEqual(serial.combineIdentifier, recorder.combineIdentifier)
        let demand = onAnotherThread { () -> Bool in
            serial.receive(subscription: Subscriptions.empty)
            let demand = serial.receive(1)
            serial.receive(completion: .finished)
            return demand == .none
        }
        XCTAssertTrue(demand)
        XCTAssertEqual(recorder.values, [1])
        XCTAssertEqual(recorder.completions.count, 1)
    }

    func testAnotherThreadMayNotCallDuringACall() {
        let probe = CallProbe()
        let serial = SerialSubscriber(probe)
        probe.during = {
            XCTAssertTrue(serial.isCallable, "the calling thread may re-enter")
            XCTAssertFalse(onAnotherThread { serial.isCallable }, "another thread may not call now")
            _ = serial.receive(2)  // a synchronous re-entry: allowed
        }
        XCTAssertTrue(serial.isCallable)
        _ = serial.receive(1)
        XCTAssertEqual(probe.received, [1, 2])
        XCTAssertTrue(serial.isCallable, "the outermost call gives the subscriber back")
        XCTAssertTrue(onAnotherThread { serial.isCallable }, "any thread may call once it returns")
    }
}

/// Records values and runs `during` inside its first call; used on one thread at a time.
private final class CallProbe: Subscriber {
    typealias Input = Int
    typealias Failure = Never
    var received: [Int] = []
    var during: (() -> Void)?

    func receive(subscription: Subscription) {}

    func receive(_ input: Int) -> Subscribers.Demand {
        received.append(input)
        let hook = during
        during = nil
        hook?()
        return .none
    }

    func receive(completion: Subscribers.Completion<Never>) {}
}

/// Runs `body` on a thread of its own (not the caller's, as `DispatchQueue.sync` may) and
/// returns its answer.
private func onAnotherThread(_ body: @escaping @Sendable () -> Bool) -> Bool {
    let answer = Answer()
    let thread = Thread {
        answer.value.store(body(), ordering: .releasing)
        answer.done.signal()
    }
    thread.start()
    answer.done.wait()
    return answer.value.load(ordering: .acquiring)
}

private final class Answer: Sendable {
    let value = Atomic<Bool>(false)
    let done = DispatchSemaphore(value: 0)
}
