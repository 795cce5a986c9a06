import Foundation
import StreamCore
import XCTest

/// "Last value wins" under real concurrency, for the operators of the service's pipelines:
/// several threads send at once while the operator's scheduler fires on a queue of its own; then
/// one final value is sent; once it is out (debounce drops a value still waiting at completion, as
/// Apple's does) the upstream finishes. Whatever the interleaving, the final value must come out,
/// nothing after it, and the completion must come. Each test runs many short rounds with
/// a 1 ms interval, so values keep landing on window boundaries; bounded by `rounds`, each round
/// by `timeout`.
final class LastValueWinsStressTests: XCTestCase {
    private let rounds = 150
    private let senders = 4
    private let valuesPerSender = 40
    private let timeout: TimeInterval = 10
    private static let final = -1

    /// One round: `senders` threads send their values, then the final value goes in from this
    /// thread, then (once it is out) the completion. Returns what came out, once the completion
    /// has; nil if the final value or the completion did not come within `timeout`.
    private func round(
        _ makePipeline: (PassthroughSubject<Int, Never>) -> AnyPublisher<Int, Never>
    ) -> [Int]? {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = Recorder<Int, Never>()
        makePipeline(subject).subscribe(recorder)
        let valuesPerSender = valuesPerSender
        DispatchQueue.concurrentPerform(iterations: senders) { sender in
            for value in 0..<valuesPerSender {
                subject.send(sender * 1_000 + value)
                if value % 8 == 0 { usleep(UInt32.random(in: 0...300)) }  // spread over window boundaries
            }
        }
        subject.send(Self.final)
        let deadline = Date().addingTimeInterval(timeout)
        while !recorder.values.contains(Self.final) && Date() < deadline { usleep(200) }
        subject.send(completion: .finished)
        while recorder.completions.isEmpty && Date() < deadline { usleep(200) }
        recorder.cancel()
        return recorder.completions.isEmpty ? nil : recorder.values
    }

    private func assertLastValueWins(
        file: StaticString = #filePath, line: UInt = #line,
        _ makePipeline: (PassthroughSubject<Int, Never>) -> AnyPublisher<Int, Never>
    ) {
        for index in 0..<rounds {
            guard let values = round(makePipeline) else {
                return XCTFail("round \(index): no final value or no completion within \(timeout) s", file: file, line: line)
            }
            guard values.last == Self.final else {
                return XCTFail("round \(index): the final value was not the last out: …\(values.suffix(5))", file: file, line: line)
            }
        }
    }

    private func queue(_ name: String) -> DispatchQueue { DispatchQueue(label: "stress.\(name)") }

    func testThrottleLatestEmitsTheFinalValueLast() {
        assertLastValueWins { subject in
            subject.throttle(for: .milliseconds(1), scheduler: queue("throttle"), latest: true).eraseToAnyPublisher()
        }
    }

    func testDebounceEmitsTheFinalValueLast() {
        assertLastValueWins { subject in
            subject.debounce(for: .milliseconds(1), scheduler: queue("debounce")).eraseToAnyPublisher()
        }
    }

    func testRemoveDuplicatesBehindAQueueHopEmitsTheFinalValueLast() {
        assertLastValueWins { subject in
            subject.receive(on: queue("hop")).map { $0 / 2 * 2 }.removeDuplicates()
                .map { $0 == Self.final / 2 * 2 ? Self.final : $0 }
                .eraseToAnyPublisher()
        }
    }

    /// Inner publishers that answer on other threads after a random short delay (like lookups):
    /// a superseded inner's late answer must never come after the final one's.
    func testSwitchToLatestEmitsTheFinalInnersValueLast() {
        let answers = DispatchQueue(label: "stress.answers", attributes: .concurrent)
        assertLastValueWins { subject in
            subject
                .map { value in
                    Deferred {
                        Future<Int, Never> { promise in
                            answers.asyncAfter(deadline: .now() + .microseconds(Int.random(in: 0...500))) { promise(.success(value)) }
                        }
                    }
                }
                .switchToLatest()
                .eraseToAnyPublisher()
        }
    }

    /// The service's `/ws` shape end to end: throttle → removeDuplicates → map(lookup answered on
    /// another thread) → switchToLatest.
    func testTheKeystrokePipelineShapeEmitsTheFinalLookupLast() {
        let answers = DispatchQueue(label: "stress.lookups", attributes: .concurrent)
        assertLastValueWins { subject in
            subject
                .throttle(for: .milliseconds(1), scheduler: queue("pipeline"), latest: true)
                .removeDuplicates()
                .map { value in
                    Deferred {
                        Future<Int, Never> { promise in
                            answers.asyncAfter(deadline: .now() + .microseconds(Int.random(in: 0...300))) { promise(.success(value)) }
                        }
                    }
                }
                .switchToLatest()
                .eraseToAnyPublisher()
        }
    }

    /// `share()` as the GitHub client coalesces lookups: subscribers join a shared request from
    /// several threads while it answers on another; every subscriber gets a completion, and each
    /// either saw the answer or joined after it was sent (then it finished without a value and
    /// would ask again) — none waits forever.
    func testShareEverySubscriberCompletesWhileTheUpstreamAnswersOnAnotherThread() {
        let answers = DispatchQueue(label: "stress.shared", attributes: .concurrent)
        for index in 0..<rounds * 4 {
            let shared = Deferred {
                Future<Int, Never> { promise in
                    answers.asyncAfter(deadline: .now() + .microseconds(Int.random(in: 0...200))) { promise(.success(index)) }
                }
            }
            .share()
            // Subscribing a Share from several threads is what the test is about (its state is locked).
            nonisolated(unsafe) let joined = shared
            let recorders = (0..<8).map { _ in Recorder<Int, Never>() }
            DispatchQueue.concurrentPerform(iterations: recorders.count) { joiner in
                usleep(UInt32.random(in: 0...300))
                joined.subscribe(recorders[joiner])
            }
            let deadline = Date().addingTimeInterval(timeout)
            while recorders.contains(where: { $0.completions.isEmpty }) && Date() < deadline { usleep(200) }
            for (joiner, recorder) in recorders.enumerated() {
                guard !recorder.completions.isEmpty else {
                    return XCTFail("round \(index): subscriber \(joiner) never completed (values \(recorder.values))")
                }
                XCTAssert(recorder.values == [] || recorder.values == [index], "round \(index): \(recorder.values)")
            }
        }
    }
}
