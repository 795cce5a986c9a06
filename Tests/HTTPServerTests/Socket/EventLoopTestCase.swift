import XCTest

@testable import HTTPServer

/// A test case that starts event loops and stops them after each test.
class EventLoopTestCase: XCTestCase {
    private var loops: [EventLoop] = []

    override func tearDown() {
        loops.forEach { $0.stop() }
        loops = []
        super.tearDown()
    }

    /// A started loop, stopped after the test.
    func makeLoop(
        label: String = "test.loop", sweep: Duration = .milliseconds(250), timerSlack: Duration = .zero
    ) throws -> EventLoop {
        let loop = try EventLoop(label: label, sweepInterval: sweep, timerSlack: timerSlack)
        loop.start()
        loops.append(loop)
        return loop
    }

    /// A connected pair of Unix stream sockets, the first non-blocking.
    func socketPair() throws -> (Int32, Int32) {
        var fds: [Int32] = [0, 0]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0 else {
            throw SocketError.lastError("socketpair")
        }
        _ = fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK)
        return (fds[0], fds[1])
    }
}
