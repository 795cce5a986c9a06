import GithubProxy
import HTTPTestSupport
import StreamCore
import XCTest

/// The concurrency cap, on subjects standing in for upstream requests.
final class UpstreamGateTests: XCTestCase {
    private final class Request {
        let subject = PassthroughSubject<Int, Never>()
        var subscribed = false
        var cancelled = false
    }

    private func admit(_ request: Request, through gate: UpstreamGate, into values: Box<[Int]>) -> AnyCancellable {
        gate.admit {
            request.subject.handleEvents(receiveSubscription: { _ in request.subscribed = true }, receiveCancel: { request.cancelled = true })
                .eraseToAnyPublisher()
        }
        .sink { value in values.mutate { $0.append(value) } }
    }

    func testAtMostLimitRunAndTheRestWaitInArrivalOrder() {
        let gate = UpstreamGate(limit: 2)
        let requests = (0..<4).map { _ in Request() }
        let values = Box<[Int]>([])
        let cancellables = requests.map { admit($0, through: gate, into: values) }
        XCTAssertEqual(requests.map(\.subscribed), [true, true, false, false])
        XCTAssertEqual([gate.running, gate.waiting], [2, 2])
        requests[1].subject.send(1)
        requests[1].subject.send(completion: .finished)
        XCTAssertEqual(requests.map(\.subscribed), [true, true, true, false], "the first waiter goes next")
        requests[0].subject.send(completion: .finished)
        XCTAssertEqual(requests.map(\.subscribed), [true, true, true, true])
        requests[3].subject.send(3)
        XCTAssertEqual(values.value, [1, 3])
        XCTAssertEqual([gate.running, gate.waiting], [2, 0])
        cancellables.forEach { $0.cancel() }
        XCTAssertEqual([gate.running, gate.waiting], [0, 0], "cancelling running requests gives their slots back")
    }

    func testACancelledWaiterLeavesTheQueueAndNeverRuns() {
        let gate = UpstreamGate(limit: 1)
        let requests = (0..<3).map { _ in Request() }
        let values = Box<[Int]>([])
        let cancellables = requests.map { admit($0, through: gate, into: values) }
        cancellables[1].cancel()
        XCTAssertEqual(gate.waiting, 1)
        requests[0].subject.send(completion: .finished)
        XCTAssertFalse(requests[1].subscribed, "a superseded lookup never reaches the upstream")
        XCTAssertTrue(requests[2].subscribed)
        XCTAssertEqual([gate.running, gate.waiting], [1, 0])
        cancellables[2].cancel()
        XCTAssertEqual(gate.running, 0)
    }

    func testTheLimitIsClampedToGithubsSecondaryLimit() {
        XCTAssertEqual(UpstreamGate(limit: 1_000).limit, 100)
        XCTAssertEqual(UpstreamGate(limit: 0).limit, 1)
    }

    func testConcurrentAdmissionsNeverExceedTheLimit() {
        let gate = UpstreamGate(limit: 3)
        let peak = Box((now: 0, max: 0))
        let done = expectation(description: "all ran")
        done.expectedFulfillmentCount = 200
        let cancellables = Box<[AnyCancellable]>([])
        // A serial queue: on a concurrent one a delayed value and its completion may run in either order.
        let upstream = DispatchQueue(label: "upstream")
        DispatchQueue.concurrentPerform(iterations: 200) { _ in
            let cancellable = gate.admit { () -> AnyPublisher<Int, Never> in
                peak.mutate { $0.now += 1; $0.max = max($0.max, $0.now) }
                return Just(1).delay(for: .milliseconds(1), scheduler: upstream)
                    .handleEvents(receiveOutput: { _ in peak.mutate { $0.now -= 1 } })
                    .eraseToAnyPublisher()
            }
            .sink { _ in done.fulfill() }
            cancellables.mutate { $0.append(cancellable) }
        }
        wait(for: [done], timeout: 10)
        XCTAssertLessThanOrEqual(peak.value.max, 3)
        XCTAssertEqual(peak.value.max, 3)
    }
}
