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
}
