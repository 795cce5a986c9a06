import Foundation
@testable import GithubProxy
import HTTPTestSupport
import StreamCore
import XCTest

/// The activity stage: on when the upstream part starts, off once when it ends or is cancelled.
final class ActivityStageTests: XCTestCase {
    private func recording(_ activity: NetworkActivity) -> (Box<[Bool]>, AnyCancellable) {
        let states = Box<[Bool]>([])
        let cancellable = activity.publisher.sink { state in states.mutate { $0.append(state) } }
        return (states, cancellable)
    }

    func testOnAtSubscriptionOffAtCompletion() {
        let activity = NetworkActivity()
        let (states, recorder) = recording(activity)
        let upstream = PassthroughSubject<Int, GithubError>()
        let cancellable = upstream.reportingActivity(to: activity).sink(receiveCompletion: { _ in }, receiveValue: { _ in })
        XCTAssertEqual(states.value, [true])
        upstream.send(completion: .finished)
        cancellable.cancel()
        XCTAssertEqual(states.value, [true, false], "ended once, not again by the cancel after completion")
        recorder.cancel()
    }

    func testOffWhenCancelled() {
        let activity = NetworkActivity()
        let (states, recorder) = recording(activity)
        let cancellable = PassthroughSubject<Int, GithubError>().reportingActivity(to: activity)
            .sink(receiveCompletion: { _ in }, receiveValue: { _ in })
        cancellable.cancel()
        XCTAssertEqual(states.value, [true, false])
        recorder.cancel()
    }
}
