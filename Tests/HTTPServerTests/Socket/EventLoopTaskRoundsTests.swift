import Foundation
import Synchronization
import XCTest

@testable import HTTPServer

/// A turn runs the tasks its tasks queue (a stage's result handed on to be written) before
/// going back to I/O, for a few rounds: a chain that keeps queueing does not keep I/O out.
final class EventLoopTaskRoundsTests: EventLoopTestCase {
    func testATaskQueuedByATaskRunsBeforeTheIOThatBecameReadyMeanwhile() throws {
        let loop = try makeLoop(sweep: .seconds(3600))
        let log = Log()
        let (ours, peer) = try socketPair()
        defer { close(peer) }
        let done = expectation(description: "read")
        let reader = LoggingReader(descriptor: ours, log: log) { done.fulfill() }
        try register(reader, on: loop)
        loop.enqueue {
            // Ready at once: were the queued task left for the next turn, the read would come first.
            _ = write(peer, "x", 1)
            log.append("first")
            loop.enqueue { log.append("queued by first") }
        }
        wait(for: [done], timeout: 5)
        XCTAssertEqual(log.entries, ["first", "queued by first", "read"])
        deregister(reader, on: loop)
    }

    func testAChainOfTasksThatKeepsQueueingLetsIOInAfterFourRounds() throws {
        let loop = try makeLoop(sweep: .seconds(3600))
        let log = Log()
        let (ours, peer) = try socketPair()
        defer { close(peer) }
        let reader = LoggingReader(descriptor: ours, log: log)
        let done = expectation(description: "chain ended")
        try register(reader, on: loop)
        @Sendable func chain(_ round: Int) {
            log.append("round \(round)")
            if round == 6 { return done.fulfill() }
            loop.enqueue { chain(round + 1) }
        }
        loop.enqueue {
            _ = write(peer, "x", 1)
            chain(1)
        }
        wait(for: [done], timeout: 5)
        XCTAssertEqual(log.entries, ["round 1", "round 2", "round 3", "round 4", "read", "round 5", "round 6"])
        deregister(reader, on: loop)
    }

    private func register(_ reader: LoggingReader, on loop: EventLoop) throws {
        let token = try loop.sync { () -> Result<UInt64, SocketError> in
            Result { () throws(SocketError) in try loop.register(reader.descriptor, interest: .readable, handler: reader) }
        }.get()
        reader.token.withLock { $0 = token }
    }

    private func deregister(_ reader: LoggingReader, on loop: EventLoop) {
        loop.sync {
            loop.deregister(reader.descriptor, token: reader.token.withLock { $0 })
            close(reader.descriptor)
        }
    }
}

/// Reads what is readable and logs "read" each time.
private final class LoggingReader: IOHandler, Sendable {
    let descriptor: Int32
    let log: Log
    let token = Mutex<UInt64>(0)
    let onRead: @Sendable () -> Void

    init(descriptor: Int32, log: Log, onRead: @escaping @Sendable () -> Void = {}) {
        self.descriptor = descriptor
        self.log = log
        self.onRead = onRead
    }

    func ready(_ event: IOEvent) {
        var byte: UInt8 = 0
        guard read(descriptor, &byte, 1) == 1 else { return }
        log.append("read")
        onRead()
    }
}
