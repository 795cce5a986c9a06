import GithubProxy
import StreamCore
import XCTest

final class NetworkActivityTests: XCTestCase {
    func testBalancedAndNeverOverlapping() {
        let activity = NetworkActivity()
        var events: [Bool] = []
        let cancellable = activity.publisher.sink { events.append($0) }
        let first = activity.begin()
        let second = activity.begin()  // ends `first` before beginning
        activity.end(first)  // stale: ignored
        activity.end(second)
        activity.end(second)  // twice: ignored
        XCTAssertEqual(events, [true, false, true, false])
        cancellable.cancel()
    }
}
