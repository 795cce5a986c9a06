@testable import SharedState
import XCTest

/// The one reconnection back-off of the pool's connections and the subscriber.
final class ReconnectBackoffTests: XCTestCase {
    func testDoublesFromFiftyMillisecondsToTwoSecondsAndResetsOnSuccess() {
        var backoff = ReconnectBackoff()
        XCTAssertEqual(backoff.delay, .zero)
        let waits = (0..<8).map { _ in backoff.failed() }
        XCTAssertEqual(waits, [50, 100, 200, 400, 800, 1_600, 2_000, 2_000].map { Duration.milliseconds($0) })
        backoff.succeeded()
        XCTAssertEqual(backoff.delay, .zero)
        XCTAssertEqual(backoff.failed(), .milliseconds(50), "after a success the next failure starts over")
    }
}
