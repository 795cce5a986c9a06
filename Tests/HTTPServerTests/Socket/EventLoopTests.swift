import Foundation
import XCTest

@testable import HTTPServer

final class EventLoopTests: EventLoopTestCase {

    func testTasksRunOnTheLoopThreadAndOnlyThere() throws {
        let loop = try makeLoop()
        XCTAssertFalse(loop.inLoop)
        XCTAssertTrue(loop.sync { loop.inLoop })
        let other = try makeLoop()
        XCTAssertFalse(loop.sync { other.inLoop })
    }

    func testExecuteOnTheLoopRunsInlineAndEnqueueKeepsOrder() throws {
        let loop = try makeLoop()
        let log = Log()
        let done = expectation(description: "all tasks ran")
        // The loop waits until every task below is queued: otherwise it may run "a" (queuing
        // "a-queued") before this thread has queued "b", and the order checked is not the one set up.
        let queued = DispatchSemaphore(value: 0)
        loop.enqueue { queued.wait() }
        loop.enqueue {
            log.append("a")
            loop.execute { log.append("a-inline") }
            loop.enqueue { log.append("a-queued") }
        }
        loop.enqueue { log.append("b") }
        loop.enqueue { log.append("c") }
        // Queued from the loop after "a-queued": runs after it.
        loop.enqueue { loop.enqueue { log.append("last"); done.fulfill() } }
        queued.signal()
        wait(for: [done], timeout: 5)
        XCTAssertEqual(log.entries, ["a", "a-inline", "b", "c", "a-queued", "last"])
    }

    func testTasksTheLoopQueuesRunWithoutWaitingForTheSweep() throws {
        let loop = try makeLoop(sweep: .seconds(3600))
        let done = expectation(description: "a chain of 100 tasks, each queued by the one before")
        @Sendable func chain(_ left: Int) {
            if left == 0 { return done.fulfill() }
            loop.enqueue { chain(left - 1) }
        }
        loop.enqueue { chain(100) }
        // Were the loop to block in `epoll_wait` after a task queued one, it would wait an hour.
        wait(for: [done], timeout: 30)
    }

    func testManyThreadsEnqueueWithoutLosingATask() throws {
        let loop = try makeLoop()
        let counter = Log()
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for index in 0..<2_000 { loop.enqueue { counter.append("\(thread).\(index)") } }
        }
        XCTAssertEqual(loop.sync { counter.entries.count }, 16_000)
    }

    func testStopRunsWhatWasQueuedThenLaterTasksRunOnTheCaller() throws {
        let loop = try EventLoop(label: "test.stop")
        loop.start()
        let log = Log()
        for index in 0..<100 { loop.enqueue { log.append("\(index)") } }
        loop.stop()
        XCTAssertEqual(log.entries.count, 100)
        loop.enqueue { log.append("after") }
        XCTAssertEqual(log.entries.last, "after")
        XCTAssertEqual(loop.sync { 42 }, 42)
        loop.stop()  // a second stop returns at once
    }

    func testReadinessIsReportedAndInterestCanBeChanged() throws {
        let loop = try makeLoop()
        let (ours, peer) = try socketPair()
        let handler = RecordingHandler()
        let token = try loop.sync { () -> Result<UInt64, SocketError> in
            Result { () throws(SocketError) in try loop.register(ours, interest: .writable, handler: handler) }
        }.get()

        let writable = handler.expect(self, "writable")
        wait(for: [writable], timeout: 5)
        XCTAssertTrue(loop.sync { handler.events.contains { $0.writable } })

        // Only input from now on: a write by the peer is reported as readable.
        try reregister(ours, token: token, interest: .readable, on: loop)
        let readable = handler.expect(self, "readable") { $0.readable }
        XCTAssertEqual(write(peer, "x", 1), 1)
        wait(for: [readable], timeout: 5)

        // Not reading, but watching for the peer's FIN: a half-close is reported as such.
        try reregister(ours, token: token, interest: .peerHangUp, on: loop)
        let finSeen = handler.expect(self, "peer hang-up") { $0.peerHangUp && !$0.failed }
        XCTAssertEqual(shutdown(peer, Int32(SHUT_WR)), 0)
        wait(for: [finSeen], timeout: 5)

        // With no interest at all, a hang-up is still reported, as a failure.
        try reregister(ours, token: token, interest: [], on: loop)
        let hangUp = handler.expect(self, "hang-up") { $0.failed }
        close(peer)
        wait(for: [hangUp], timeout: 5)
        loop.sync {
            loop.deregister(ours, token: token)
            close(ours)
        }
    }

    func testTheSweepTellsConnectionsTheirDeadlinePassed() throws {
        let loop = try makeLoop(sweep: .milliseconds(10))
        let due = TimedStub(deadline: Deadline(uptimeNanoseconds: DispatchTime.now().uptimeNanoseconds), expectation: expectation(description: "due"))
        let later = TimedStub(deadline: .after(.seconds(3600)), expectation: nil)
        let none = TimedStub(deadline: nil, expectation: nil)
        loop.sync {
            loop.watch(due)
            loop.watch(later)
            loop.watch(none)
        }
        wait(for: [due.expectation!], timeout: 5)
        XCTAssertEqual(loop.sync { [later.passed, none.passed, loop.connectionCount] }, [0, 0, 3])
        loop.sync { [due, later, none] in [due, later, none].forEach { loop.unwatch($0) } }
        XCTAssertEqual(loop.sync { loop.connectionCount }, 0)
    }

    /// Changes a registration from the test thread (registrations belong to the loop).
    private func reregister(_ descriptor: Int32, token: UInt64, interest: IOInterest, on loop: EventLoop) throws {
        try loop.sync {
            Result { () throws(SocketError) in try loop.reregister(descriptor, token: token, interest: interest) }
        }.get()
    }
}

/// Strings appended from any thread.
/// Entries appended from any thread (the loop tests' record of what ran, in order).
final class Log: @unchecked Sendable {
    // Sendable: `items` is guarded by `lock`.
    private let lock = NSLock()
    private var items: [String] = []

    func append(_ entry: String) { lock.withLock { items.append(entry) } }
    var entries: [String] { lock.withLock { items } }
}

private final class RecordingHandler: IOHandler, @unchecked Sendable {
    // Sendable: `recorded`, `pending` and `condition` are guarded by `lock`.
    struct Event: Sendable {
        let readable: Bool
        let writable: Bool
        let peerHangUp: Bool
        let failed: Bool
    }

    private let lock = NSLock()
    private var recorded: [Event] = []
    private var pending: XCTestExpectation?
    private var condition: (Event) -> Bool = { _ in true }

    var events: [Event] { lock.withLock { recorded } }

    /// An expectation fulfilled at the next event matching `condition`.
    func expect(_ test: XCTestCase, _ name: String, where condition: @escaping (Event) -> Bool = { _ in true }) -> XCTestExpectation {
        let expectation = test.expectation(description: name)
        lock.withLock {
            pending = expectation
            self.condition = condition
        }
        return expectation
    }

    func ready(_ ioEvent: IOEvent) {
        let event = Event(readable: ioEvent.readable, writable: ioEvent.writable, peerHangUp: ioEvent.peerHangUp, failed: ioEvent.failed)
        let fulfil: XCTestExpectation? = lock.withLock {
            recorded.append(event)
            guard let pending, condition(event) else { return nil }
            self.pending = nil
            return pending
        }
        fulfil?.fulfill()
    }
}

private final class TimedStub: TimedConnection, @unchecked Sendable {
    // Sendable: only touched on the loop (and read back through `sync`).
    let deadline: Deadline?
    let expectation: XCTestExpectation?
    var passed = 0

    init(deadline: Deadline?, expectation: XCTestExpectation?) {
        self.deadline = deadline
        self.expectation = expectation
    }

    var bufferedBytes: Int { 0 }
    func quiesce() {}
    func close() {}

    func deadlinePassed() {
        passed += 1
        if passed == 1 { expectation?.fulfill() }
    }
}

/// The lifecycle of a real loop around stop.
final class EventLoopStopTests: XCTestCase {
    func testStopOnTheLoopEndsItAfterItsNextTurnAndAnotherStopperWaitsForThat() throws {
        let loop = try EventLoop(label: "test.stop2")
        loop.start()
        let ran = DispatchSemaphore(value: 0)
        loop.enqueue {
            loop.stop()  // on the loop: returns at once
            loop.enqueue { ran.signal() }
        }
        loop.stop()
        XCTAssertEqual(ran.wait(timeout: .now()), .success, "what the last turn queued ran before stop returned")
        XCTAssertTrue(loop.sync { loop.inLoop }, "a stopped loop runs tasks on the caller, as the loop")
        XCTAssertFalse(loop.inLoop)
    }

    func testAStoppedLoopRunsTasksOneAtATimeAndNestedCallsAsOnTheLoop() throws {
        let loop = try EventLoop(label: "test.stop3")
        loop.start()
        loop.stop()
        let log = Log()
        loop.enqueue {
            loop.enqueue { log.append("queued") }
            loop.execute { log.append("inline") }
            log.append(loop.sync { "sync" })
        }
        XCTAssertEqual(log.entries, ["inline", "sync", "queued"])
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for index in 0..<500 { loop.enqueue { log.append("\(index)") } }
        }
        XCTAssertEqual(log.entries.count, 2_003)
    }

    func testTasksQueuedBeforeTheStartRunWithoutWaitingForTheSweep() throws {
        let loop = try EventLoop(label: "test.early", sweepInterval: .seconds(3600))
        let ran = expectation(description: "the early task ran")
        loop.enqueue { ran.fulfill() }
        loop.start()
        wait(for: [ran], timeout: 30)
        loop.stop()
    }

    func testStoppingALoopThatNeverStartedRunsItsTasksOnTheCaller() throws {
        let loop = try EventLoop(label: "test.stop4")
        let log = Log()
        loop.enqueue { log.append("early") }
        loop.stop()
        XCTAssertEqual(log.entries, ["early"])
        loop.start()  // refused: stopped for good
        XCTAssertEqual(loop.sync { 1 }, 1)
    }
}

final class EventLoopGroupTests: XCTestCase {
    func testNextGoesRoundRobinFromManyThreads() throws {
        let group = try EventLoopGroup(count: 3, label: "test.group")
        defer { group.stop() }
        let first = (0..<3).map { _ in ObjectIdentifier(group.next()) }
        XCTAssertEqual(Set(first).count, 3)
        XCTAssertEqual(ObjectIdentifier(group.next()), first[0])
        let handedOut = Log()
        DispatchQueue.concurrentPerform(iterations: 3) { _ in
            for _ in 0..<300 { handedOut.append("\(ObjectIdentifier(group.next()).hashValue)") }
        }
        XCTAssertEqual(Dictionary(grouping: handedOut.entries) { $0 }.values.map(\.count), [300, 300, 300])
    }

    func testLoopThreadsCarryTheirNamesInTheKernelCutTo15Bytes() throws {
        let group = try EventLoopGroup(count: 2, label: "test.group")
        defer { group.stop() }
        let long = try EventLoopGroup(count: 1, label: "a-label-longer-than-the-kernel-keeps")
        defer { long.stop() }
        // What `top -H`, `ps -L` and perf show: the kernel's name of the thread.
        let kernelName: @Sendable () -> String = {
            ((try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? "").trimmingCharacters(in: .newlines)
        }
        XCTAssertEqual(Set([group.next().sync(kernelName), group.next().sync(kernelName)]), ["test.group.0", "test.group.1"])
        XCTAssertEqual(long.next().sync(kernelName), "a-label-longer-")
    }
}
