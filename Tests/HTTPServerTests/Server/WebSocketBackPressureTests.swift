import HTTPTestSupport
import Foundation
@testable import HTTPServer
import WebSocketPublishers
import StreamCore
import XCTest

/// Back pressure end to end: a client that does not read stops the server from reading, and a
/// slow `messages` subscriber gets everything, in order.
final class WebSocketBackPressureTests: ServerTestCase {
    /// Regression: a burst larger than the inbound queue, arriving in one read, is echoed in
    /// full. The reader held complete messages beyond the queue limit, and delivery that made
    /// room did not decode them: the echo stalled until the client sent something else.
    func testBurstInOneReadIsEchoedInFull() throws {
        let (_, port) = try startServer { server in
            server.webSocket("/ws/echo") { session in session.messages.subscribe(session.outbound) }
        }
        for round in 0 ..< 20 {
            let client = try TestWebSocketClient(port: port)
            let messages = (0 ..< 100).map { "burst \(round).\($0)" }
            var bytes: [UInt8] = []
            for message in messages {
                bytes += WebSocketFrameEncoder.frame(opcode: .text, payload: Array(message.utf8), maskingKey: 0x0102_0304)
            }
            try client.http.send(bytes)
            for message in messages {
                let echo = try client.readText()  // throws timedOut on the stall
                XCTAssertEqual(echo, message, "round \(round)")
            }
        }
    }

    func testClientThatNeverReadsMakesTheServerStopReading() throws {
        let (server, port) = try startServer { server in
            server.webSocket("/ws/echo") { session in session.messages.subscribe(session.outbound) }
        }
        let client = try TestWebSocketClient(port: port)
        let messageSize = 64 * 1024
        var frames: [[UInt8]] = []
        for index in 0 ..< 4 {
            let payload = [UInt8](repeating: UInt8(index), count: messageSize)
            frames.append(WebSocketFrameEncoder.frame(opcode: .binary, payload: payload, maskingKey: 0xA1B2_C3D4))
        }
        let goal = 50 << 20
        var sent = 0
        var frameIndex = 0
        var offset = 0
        var stalled = false
        while sent < goal {
            let frame = frames[frameIndex % frames.count]
            let count = try frame.withUnsafeBytes { try client.http.sendNonBlocking(UnsafeRawBufferPointer(rebasing: $0[offset...])) }
            if count == 0 {
                // Stalled: the server has stopped taking bytes for a while.
                if !client.http.waitWritable(timeout: 2) {
                    stalled = true
                    break
                }
                continue
            }
            sent += count
            offset += count
            if offset == frame.count {
                offset = 0
                frameIndex += 1
            }
        }
        XCTAssertTrue(stalled, "the server kept reading all \(sent) bytes from a client that never reads")
        // What the server holds is bounded: kernel buffers on both sides plus a few messages.
        XCTAssertLessThan(sent, 40 << 20)
        // The server itself holds a few messages each way, not what the kernel lets through.
        let buffered = server.bufferedBytes
        XCTAssertGreaterThan(buffered, 0)
        XCTAssertLessThan(buffered, 4 << 20, "server buffers \(buffered) bytes after \(sent) sent")

        // Once the client reads, everything comes back, in order, including the message it was
        // in the middle of sending.
        var remaining = offset > 0 ? Array(frames[frameIndex % frames.count][offset...]) : []
        let total = offset > 0 ? frameIndex + 1 : frameIndex
        var expected = 0
        while expected < total {
            if !remaining.isEmpty {
                if expected == total - 1 {
                    try client.http.send(remaining)
                    remaining = []
                } else {
                    let count = try remaining.withUnsafeBytes { try client.http.sendNonBlocking($0) }
                    remaining.removeFirst(count)
                }
            }
            let message = try client.readMessage()
            XCTAssertEqual(message.payload.count, messageSize)
            XCTAssertEqual(message.payload.first, UInt8(expected % frames.count))
            expected += 1
        }
    }

    func testSlowSubscriberGetsEveryMessageInOrder() throws {
        let recorder = SlowRecorder(delay: 0.002)
        let (_, port) = try startServer { server in
            server.webSocket("/ws/slow") { session in session.messages.subscribe(recorder) }
        }
        let client = try TestWebSocketClient(port: port, path: "/ws/slow")
        let count = 300
        for index in 0 ..< count { try client.send(text: "message \(index)") }
        XCTAssertTrue(waitUntil(timeout: 20) { recorder.received.count == count }, "got \(recorder.received.count)")
        XCTAssertEqual(recorder.received, (0 ..< count).map { .text("message \($0)") })
        try client.sendClose(code: .normalClosure)
        XCTAssertTrue(waitUntil { recorder.finished })
    }

    /// Regression: a message given to the outbound subscriber on the loop was written at once,
    /// ahead of one another thread had given it before (still queued for the loop). Combine's
    /// calls to a subscriber come one at a time but from any thread; their order is kept.
    func testOutboundKeepsTheOrderOfMessagesFromTheLoopAndOtherThreads() throws {
        let (_, port) = try startServer { server in
            server.webSocket("/ws/order") { session in
                nonisolated(unsafe) let outbound = session.outbound
                outbound.receive(subscription: Subscriptions.empty)
                session.loop.enqueue {
                    // The loop is busy here: the other thread's message waits in its queue.
                    let sent = DispatchSemaphore(value: 0)
                    Thread.detachNewThread {
                        _ = outbound.receive(.text("first, from another thread"))
                        sent.signal()
                    }
                    sent.wait()
                    _ = outbound.receive(.text("second, from the loop"))
                }
            }
        }
        let client = try TestWebSocketClient(port: port, path: "/ws/order")
        XCTAssertEqual(try client.readText(), "first, from another thread")
        XCTAssertEqual(try client.readText(), "second, from the loop")
    }

    /// Regression: while reading was paused for a slow application, the client's pongs sat
    /// unread, and the keepalive closed a healthy session as idle.
    func testASessionPausedForTheApplicationIsNotClosedAsIdle() throws {
        var configuration = testConfiguration()
        configuration.webSocket.pingInterval = .milliseconds(100)
        configuration.webSocket.idleTimeout = .milliseconds(300)
        configuration.webSocket.inboundQueueMessages = 4
        let recorder = GatedRecorder()
        let (server, port) = try startServer(configuration) { server in
            server.webSocket("/ws/gated") { session in session.messages.subscribe(recorder) }
        }
        let client = try TestWebSocketClient(port: port, path: "/ws/gated")
        let count = 20
        for index in 0 ..< count { try client.send(text: "m\(index)") }
        XCTAssertTrue(waitUntil { recorder.received.count == 1 })
        // Several idle timeouts long: the session must survive on its paused reading alone.
        Thread.sleep(forTimeInterval: 1.0)
        XCTAssertEqual(server.openConnections, 1, "the paused session was closed as idle")
        recorder.open()
        XCTAssertTrue(waitUntil { recorder.received.count == count }, "got \(recorder.received.count)")
        XCTAssertEqual(recorder.received, (0 ..< count).map { .text("m\($0)") })
    }
}

/// A subscriber that takes one message, then nothing until `open()`.
private final class GatedRecorder: Subscriber, @unchecked Sendable {
    // Sendable: `messages` and `subscription` are guarded by `lock`.
    typealias Input = WebSocketSession.Message
    typealias Failure = Never

    private let lock = NSLock()
    private var messages: [WebSocketSession.Message] = []
    private var subscription: Subscription?

    var received: [WebSocketSession.Message] { lock.withLock { messages } }

    func open() { lock.withLock { subscription }?.request(.unlimited) }

    func receive(subscription: Subscription) {
        lock.withLock { self.subscription = subscription }
        subscription.request(.max(1))
    }

    func receive(_ input: WebSocketSession.Message) -> Subscribers.Demand {
        lock.withLock { messages.append(input) }
        return .none
    }

    func receive(completion: Subscribers.Completion<Never>) {}
}

/// A subscriber that asks for one message at a time, a little later each time.
final class SlowRecorder: Subscriber, @unchecked Sendable {
    typealias Input = WebSocketSession.Message
    typealias Failure = Never

    private let lock = NSLock()
    private var messages: [WebSocketSession.Message] = []
    private var done = false
    private var subscription: Subscription?
    private let delay: TimeInterval

    init(delay: TimeInterval) { self.delay = delay }

    var received: [WebSocketSession.Message] { lock.withLock { messages } }
    var finished: Bool { lock.withLock { done } }

    func receive(subscription: Subscription) {
        lock.withLock { self.subscription = subscription }
        subscription.request(.max(1))
    }

    func receive(_ input: WebSocketSession.Message) -> Subscribers.Demand {
        let subscription = lock.withLock {
            messages.append(input)
            return self.subscription
        }
        nonisolated(unsafe) let later = subscription
        DispatchQueue.global().asyncAfter(deadline: .now() + delay) { later?.request(.max(1)) }
        return .none
    }

    func receive(completion: Subscribers.Completion<Never>) {
        lock.withLock { done = true }
    }
}
