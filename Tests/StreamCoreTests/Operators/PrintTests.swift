import StreamCore
import XCTest

/// Collects what `print` writes.
private final class Lines: TextOutputStream {
    var text = ""
    func write(_ string: String) { text += string }
    var lines: [String] { text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init) }
}

final class PrintTests: XCTestCase {
    func testLinesForAFinishingStream() {
        let stream = Lines()
        let recorder = Recorder<Int, Never>()
        Just(1).print("p", to: stream).subscribe(recorder)
        XCTAssertEqual(stream.lines, [
            "p: receive subscription: (Just)",
            "p: request unlimited",
            "p: receive value: (1)",
            "p: receive finished",
        ])
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .completion(.finished)])
    }

    func testLinesForDemandSyncDemandAndCancel() {
        let stream = Lines()
        let recorder = Recorder<Int, Never>(initialDemand: .max(1), demandPerValue: { $0 == 1 ? .max(2) : .none })
        let subject = PassthroughSubject<Int, Never>()
        subject.print(to: stream).subscribe(recorder)
        subject.send(1)
        subject.send(2)
        recorder.request(.max(3))
        recorder.cancel()
        XCTAssertEqual(stream.lines, [
            "receive subscription: (PassthroughSubject)",
            "request max: (1)",
            "receive value: (1)",
            "request max: (2) (synchronous)",
            "receive value: (2)",
            "request max: (3)",
            "receive cancel",
        ])
    }

    func testErrorLine() {
        let stream = Lines()
        let recorder = Recorder<Int, TestError>()
        Fail<Int, TestError>(error: .boom).print("f", to: stream).subscribe(recorder)
        XCTAssertEqual(stream.lines.last, "f: receive error: (boom)")
        XCTAssertEqual(recorder.completions, [.failure(.boom)])
    }

    func testEmptyValueAsInTheBook() {
        let stream = Lines()
        _ = Just("").print("username pipeline: ", to: stream).sink { _ in }
        XCTAssertEqual(stream.lines[2], "username pipeline: : receive value: ()")
    }

    func testDemandIsHonoured() {
        let stream = Lines()
        let recorder = Recorder<Int, Never>(initialDemand: .max(2))
        (1...5).publisher.print(to: stream).subscribe(recorder)
        XCTAssertEqual(recorder.values, [1, 2])
        XCTAssertFalse(stream.text.contains("receive finished"))
    }
}

final class BreakpointTests: XCTestCase {
    func testPassesEverythingThroughWhenClosuresReturnFalse() {
        var seen: [String] = []
        let recorder = Recorder<Int, Never>(initialDemand: .max(2))
        (1...3).publisher.breakpoint(
            receiveSubscription: { _ in seen.append("subscription"); return false },
            receiveOutput: { seen.append("value \($0)"); return false },
            receiveCompletion: { _ in seen.append("completion"); return false }
        ).subscribe(recorder)
        XCTAssertEqual(recorder.values, [1, 2], "demand passes straight through")
        recorder.request(.max(5))
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(2), .value(3), .completion(.finished)])
        XCTAssertEqual(seen, ["subscription", "value 1", "value 2", "value 3", "completion"])
    }

    func testBreakpointOnErrorDoesNotTrapOnFinished() {
        let recorder = Recorder<Int, TestError>()
        Record<Int, TestError>(output: [1], completion: .finished).breakpointOnError().subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .completion(.finished)])
    }
}
