import Dispatch
import StreamCore
import XCTest

final class AsyncPublisherTests: XCTestCase {
    func testForAwaitOverSequencePublisher() async {
        var collected: [Int] = []
        for await value in [1, 2, 3].publisher.values {
            collected.append(value)
        }
        XCTAssertEqual(collected, [1, 2, 3])
    }

    func testRequestsOneValuePerNext() async {
        var requests: [Subscribers.Demand] = []
        let publisher = (1...3).publisher.handleEvents(receiveRequest: { requests.append($0) })
        var iterator = publisher.values.makeAsyncIterator()
        XCTAssertEqual(requests, [])
        let first = await iterator.next()
        XCTAssertEqual(first, 1)
        XCTAssertEqual(requests, [.max(1)])
        let second = await iterator.next()
        XCTAssertEqual(second, 2)
        XCTAssertEqual(requests, [.max(1), .max(1)])
    }

    func testThrowingSequenceThrowsFailureOnceThenEnds() async {
        let record = Record<Int, TestError>(output: [1, 2], completion: .failure(.boom))
        var iterator = record.values.makeAsyncIterator()
        var collected: [Int] = []
        do {
            while let value = try await iterator.next() { collected.append(value) }
            XCTFail("expected a throw")
        } catch {
            XCTAssertEqual(error as? TestError, .boom)
        }
        XCTAssertEqual(collected, [1, 2])
        let afterThrow = try? await iterator.next()
        XCTAssertNil(afterThrow ?? nil)
    }

    func testThrowingSequenceFinishes() async throws {
        var collected: [Int] = []
        for try await value in Record<Int, TestError>(output: [4, 5], completion: .finished).values {
            collected.append(value)
        }
        XCTAssertEqual(collected, [4, 5])
    }

    func testValueFulfilledOnAnotherThread() async throws {
        let future = Future<Int, TestError> { promise in
            DispatchQueue.global().async { promise(.success(5)) }
        }
        var collected: [Int] = []
        for try await value in future.values { collected.append(value) }
        XCTAssertEqual(collected, [5])
    }

    func testSubscribesOnceAndNextAfterEndKeepsReturningNil() async {
        var subscriptions = 0
        var iterator = Just(1).handleEvents(receiveSubscription: { _ in subscriptions += 1 }).values.makeAsyncIterator()
        let first = await iterator.next()
        let second = await iterator.next()
        let third = await iterator.next()
        XCTAssertEqual([first, second, third], [1, nil, nil])
        XCTAssertEqual(subscriptions, 1)
    }

    func testTaskCancellationCancelsSubscription() async {
        let subject = PassthroughSubject<Int, Never>()
        let cancelled = expectation(description: "upstream cancelled")
        let subscribed = expectation(description: "waiting for a value")
        let publisher = subject.handleEvents(
            receiveCancel: { cancelled.fulfill() },
            receiveRequest: { _ in subscribed.fulfill() }
        )
        let task = Task {
            var received: [Int] = []
            for await value in publisher.values { received.append(value) }
            return received
        }
        await fulfillment(of: [subscribed], timeout: 5)
        task.cancel()
        await fulfillment(of: [cancelled], timeout: 5)
        let received = await task.value
        XCTAssertEqual(received, [], "next() returns nil once the task is cancelled")
    }

    func testBreakingOutOfTheLoopCancelsSubscription() async {
        var cancelled = false
        let publisher = (1...100).publisher.handleEvents(receiveCancel: { cancelled = true })
        for await value in publisher.values where value == 2 {
            break
        }
        XCTAssertTrue(cancelled, "dropping the iterator cancels the subscription")
    }
}
