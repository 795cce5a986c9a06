import Dispatch
import StreamCore
import XCTest

/// The examples of the DocC articles (Sources/StreamCore/StreamCore.docc), run: what an article
/// says they print or assert, they do.
final class ArticleExamplesTests: XCTestCase {
    // GettingStarted.md, "A first pipeline".
    func testFirstPipeline() {
        var lines: [String] = []
        let cancellable = [1, 2, 3, 4].publisher
            .filter { $0.isMultiple(of: 2) }
            .map { $0 * 10 }
            .sink(receiveCompletion: { lines.append("completion: \($0)") }, receiveValue: { lines.append("value: \($0)") })
        XCTAssertEqual(lines, ["value: 20", "value: 40", "completion: finished"])
        cancellable.cancel()
    }

    // GettingStarted.md, "Subjects".
    func testCurrentValueSubjectValidation() {
        let field = CurrentValueSubject<String, Never>("")
        var lines: [String] = []
        let cancellable = field.map { $0.count >= 3 ? $0 : nil }.sink { lines.append("valid: \($0 ?? "-")") }
        field.send("joé")
        XCTAssertEqual(lines, ["valid: -", "valid: joé"])
        cancellable.cancel()
    }

    // GettingStarted.md, "Demand".
    func testTwoAtATime() {
        final class TwoAtATime: Subscriber {
            typealias Input = Int
            typealias Failure = Never
            var subscription: (any Subscription)?
            var received: [Int] = []
            func receive(subscription: any Subscription) {
                self.subscription = subscription
                subscription.request(.max(2))
            }
            func receive(_ input: Int) -> Subscribers.Demand {
                received.append(input)
                return .none
            }
            func receive(completion: Subscribers.Completion<Never>) {}
        }
        let subscriber = TwoAtATime()
        (1...10).publisher.subscribe(subscriber)
        XCTAssertEqual(subscriber.received, [1, 2])
        subscriber.subscription?.request(.max(1))
        XCTAssertEqual(subscriber.received, [1, 2, 3])
    }

    // GettingStarted.md, "Async/await".
    func testValues() async {
        var received: [Int] = []
        for await value in [1, 2, 3].publisher.values { received.append(value) }
        XCTAssertEqual(received, [1, 2, 3])
    }

    // TestingWithVirtualTime.md, "The test scheduler".
    func testThrottleKeepsTheLatestValueOfEachWindow() {
        let scheduler = DispatchQueue.test
        let field = PassthroughSubject<String, Never>()
        var received: [String] = []
        let cancellable = field
            .throttle(for: .milliseconds(500), scheduler: scheduler, latest: true)
            .sink { received.append($0) }

        field.send("h")
        scheduler.advance()
        field.send("he")
        field.send("hec")
        scheduler.advance(by: .milliseconds(499))
        XCTAssertEqual(received, ["h"])
        scheduler.advance(by: .milliseconds(1))
        XCTAssertEqual(received, ["h", "hec"])
        cancellable.cancel()
    }

    // TestingWithVirtualTime.md, "Marble strings".
    func testMarbleExamples() {
        assertMarbles(input: "abc-d---e|", expected: "a-c-d---e|", tick: .milliseconds(100)) { upstream, scheduler in
            upstream.throttle(for: .milliseconds(200), scheduler: scheduler, latest: true).eraseToAnyPublisher()
        }
        assertMarbles(input: "abc---d----", expected: "----c---d") { upstream, scheduler in
            upstream.debounce(for: .milliseconds(200), scheduler: scheduler).eraseToAnyPublisher()
        }
    }

    // TestingWithVirtualTime.md, "Recording a pipeline with trace".
    func testTraceRecordsEveryStage() {
        let scheduler = DispatchQueue.test
        let field = PassthroughSubject<String, Never>()
        var events: [String] = []
        let cancellable = field
            .trace("input", on: scheduler) { stage, event, _ in events.append("\(stage) \(event)") }
            .throttle(for: .milliseconds(500), scheduler: scheduler, latest: true)
            .trace("throttle", on: scheduler) { stage, event, _ in events.append("\(stage) \(event)") }
            .sink { _ in }
        field.send("h")
        scheduler.advance()
        XCTAssertTrue(events.contains("input value(\"h\")"), "\(events)")
        XCTAssertTrue(events.contains("throttle value(\"h\")"), "\(events)")
        cancellable.cancel()
    }
}
