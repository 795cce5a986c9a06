import Foundation
import HTTPTestSupport
@testable import HTTPServer
import XCTest

/// HTTPServer's plain WebSocket API, without StreamCore: a reader asks for messages one at a
/// time and writes each back upper-cased, following back pressure; its calls all come on the
/// session's loop, `readingStarted` first and `readingEnded` last.
final class WebSocketReaderTests: ServerTestCase {
    /// Upper-cases what it reads; records its calls.
    private final class UppercasingReader: WebSocketMessageReader, WebSocketOutputObserver {
        let session: WebSocketSession
        let calls = Box<[String]>([])
        private var reading: WebSocketReading?

        init(session: WebSocketSession) { self.session = session }

        func readingStarted(_ reading: WebSocketReading) {
            XCTAssertTrue(session.loop.inLoop)
            calls.mutate { $0.append("started") }
            self.reading = reading
            session.addOutputObserver(self)
            reading.request(.max(1))
        }

        func read(_ message: WebSocketSession.Message) -> WebSocketDemand {
            XCTAssertTrue(session.loop.inLoop)
            guard case .text(let text) = message else { return .none }
            calls.mutate { $0.append(text) }
            return session.write(.text(text.uppercased())) ? .max(1) : .none
        }

        func readingEnded() {
            XCTAssertTrue(session.loop.inLoop)
            calls.mutate { $0.append("ended") }
            session.removeOutputObserver(self)
        }

        func outputDrained() { reading?.request(.max(1)) }
        func sessionClosed() { calls.mutate { $0.append("closed") } }
    }

    func testAReaderReadsWritesAndEndsOnTheLoop() throws {
        let readers = Box<[UppercasingReader]>([])
        let (_, port) = try startServer(testConfiguration(), router: Self.standardRouter()) { server in
            server.webSocket("/ws/upper") { session in
                let reader = UppercasingReader(session: session)
                readers.mutate { $0.append(reader) }
                session.read(with: reader)
            }
        }
        let client = try TestWebSocketClient(port: port, path: "/ws/upper")
        for word in ["hello", "loop"] { try client.send(text: word) }
        XCTAssertEqual(try client.readText(), "HELLO")
        XCTAssertEqual(try client.readText(), "LOOP")
        try client.sendClose(code: .normalClosure)
        _ = try client.readClose()
        let reader = try XCTUnwrap(readers.value.first)
        XCTAssertTrue(waitUntil { reader.calls.value.last == "ended" }, "\(reader.calls.value)")
        XCTAssertEqual(reader.calls.value.filter { $0 != "closed" }, ["started", "hello", "loop", "ended"])
    }

    func testASecondReaderIsStartedAndEndedAtOnce() throws {
        let second = Box<[String]>([])
        let (_, port) = try startServer(testConfiguration(), router: Self.standardRouter()) { server in
            server.webSocket("/ws/twice") { session in
                session.read(with: UppercasingReader(session: session))
                let late = UppercasingReader(session: session)
                session.read(with: late)
                let calls = late.calls
                session.loop.execute { second.mutate { $0 = calls.value } }
            }
        }
        let client = try TestWebSocketClient(port: port, path: "/ws/twice")
        try client.send(text: "one")
        XCTAssertEqual(try client.readText(), "ONE", "the first reader reads")
        XCTAssertTrue(waitUntil { second.value == ["started", "ended"] }, "\(second.value)")
    }

    /// A reader holds its reading (to ask for more); once the reading ends, the session lets go
    /// of the reader, so the two do not keep each other alive.
    func testAnEndedReadingLetsGoOfItsReader() throws {
        final class Weak: @unchecked Sendable {
            // Sendable: written once on the loop before the test reads it through `waitUntil`.
            weak var reader: UppercasingReader?
        }
        let weak = Weak()
        let (_, port) = try startServer(testConfiguration(), router: Self.standardRouter()) { server in
            server.webSocket("/ws/weak") { session in
                let reader = UppercasingReader(session: session)
                weak.reader = reader
                session.read(with: reader)
            }
        }
        let client = try TestWebSocketClient(port: port, path: "/ws/weak")
        try client.send(text: "hi")
        XCTAssertEqual(try client.readText(), "HI")
        XCTAssertNotNil(weak.reader, "held while the session reads")
        try client.sendClose(code: .normalClosure)
        _ = try client.readClose()
        XCTAssertTrue(waitUntil { weak.reader == nil }, "the ended reading still holds its reader")
    }
}
