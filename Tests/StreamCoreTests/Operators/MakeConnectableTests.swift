import StreamCore
import XCTest

final class MakeConnectableTests: XCTestCase {
    func testNothingIsPublishedUntilConnect() {
        let upstream = TrackedSubject<Int, Never>()
        let connectable = upstream.makeConnectable()
        let recorder = Recorder<Int, Never>()
        connectable.subscribe(recorder)
        XCTAssertEqual(upstream.subscriptions, 0)

        let connection = connectable.connect()
        upstream.send(1)
        XCTAssertEqual(recorder.events, [.subscription, .value(1)])
        XCTAssertEqual(String(describing: recorder.subscription!), "Multicast")

        connection.cancel()
        XCTAssertEqual(upstream.cancels, 1, "cancelling the connection cancels the upstream")
        upstream.send(2)
        XCTAssertEqual(recorder.values, [1])
    }

    /// The book's example: without `makeConnectable()` the first sink would exhaust `Just`
    /// before the second one attaches; with it both receive the value once connected.
    func testSubscribersAttachedBeforeConnectAllReceiveASynchronousUpstream() {
        let connectable = Just("Sent").share().makeConnectable()
        var first: [String] = []
        var second: [String] = []
        var finished = 0
        let cancellable1 = connectable.sink(receiveCompletion: { _ in finished += 1 }, receiveValue: { first.append($0) })
        let cancellable2 = connectable.sink(receiveCompletion: { _ in finished += 1 }, receiveValue: { second.append($0) })
        XCTAssertEqual(first, [])
        let connection = connectable.connect()
        XCTAssertEqual(first, ["Sent"])
        XCTAssertEqual(second, ["Sent"])
        XCTAssertEqual(finished, 2)
        connection.cancel()
        cancellable1.cancel()
        cancellable2.cancel()
    }

    func testConnectingTwiceDeliversEachUpstreamValueTwice() {
        let upstream = PassthroughSubject<Int, Never>()
        let connectable = upstream.makeConnectable()
        let recorder = Recorder<Int, Never>()
        connectable.subscribe(recorder)
        let first = connectable.connect()
        let second = connectable.connect()
        upstream.send(42)
        upstream.send(completion: .finished)
        XCTAssertEqual(recorder.events, [.subscription, .value(42), .value(42), .completion(.finished)])
        first.cancel()
        second.cancel()
    }

    /// OpenCombine's testGenericMulticastDisconnect: after a disconnect the subject is still
    /// open, so subscribing and connecting again works.
    func testReconnectAfterDisconnect() {
        let upstream = PassthroughSubject<Int, Never>()
        let connectable = upstream.makeConnectable()
        let recorder = Recorder<Int, Never>()
        connectable.subscribe(recorder)
        upstream.send(-1)
        var connection = connectable.connect()
        upstream.send(42)
        connection.cancel()
        upstream.send(100)

        let second = Recorder<Int, Never>()
        connectable.subscribe(second)
        connection = connectable.connect()
        upstream.send(2)
        upstream.send(completion: .finished)
        XCTAssertEqual(recorder.events, [.subscription, .value(42), .value(2), .completion(.finished)])
        XCTAssertEqual(second.events, [.subscription, .value(2), .completion(.finished)])
        connection.cancel()
    }
}
