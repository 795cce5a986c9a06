import Foundation
import StreamCore
import XCTest

/// A subscriber attaching to a subject while another thread completes it must get its
/// subscription before the completion, and must get the completion (GithubClient's coalescer
/// joins shared lookups this way; a completion that overtook the subscription was lost and the
/// lookup hung).
final class SubjectAttachRaceTests: XCTestCase {
    func testCompletionNeverOvertakesTheSubscription() {
        for _ in 0..<3_000 {
            let subject = PassthroughSubject<Int, Never>()
            let events = EventLog()
            let start = DispatchSemaphore(value: 0)
            let done = DispatchGroup()
            done.enter()
            DispatchQueue.global().async {
                start.wait()
                subject.send(1)
                subject.send(completion: .finished)
                done.leave()
            }
            start.signal()
            subject.subscribe(AnySubscriber<Int, Never>(
                receiveSubscription: { subscription in
                    events.append("subscription")
                    usleep(UInt32.random(in: 0...20))
                    subscription.request(.unlimited)
                },
                receiveValue: { _ in events.append("value"); return .none },
                receiveCompletion: { _ in events.append("completion") }
            ))
            done.wait()
            let log = events.value
            XCTAssertEqual(log.first, "subscription", "\(log)")
            XCTAssertEqual(log.last, "completion", "\(log)")
            if log.first != "subscription" || log.last != "completion" { return }
        }
    }

    func testSharedPublisherJoinedWhileFinishingStillCompletes() {
        for _ in 0..<3_000 {
            let upstream = PassthroughSubject<Int, Never>()
            let shared = upstream.share()
            let first = shared.sink { _ in }
            let completed = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                upstream.send(1)
                upstream.send(completion: .finished)
            }
            let second = shared.sink(receiveCompletion: { _ in completed.signal() }, receiveValue: { _ in })
            XCTAssertEqual(completed.wait(timeout: .now() + 2), .success, "a late subscriber never completed")
            first.cancel()
            second.cancel()
        }
    }
}

private final class EventLog: @unchecked Sendable {
    // Sendable: `events` is guarded by `lock`.
    private let lock = NSLock()
    private var events: [String] = []
    func append(_ event: String) { lock.withLock { events.append(event) } }
    var value: [String] { lock.withLock { events } }
}
