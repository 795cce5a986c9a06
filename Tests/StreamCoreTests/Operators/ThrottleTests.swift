import Dispatch
import StreamCore
import XCTest

final class ThrottleTests: XCTestCase {
    private let window = NanosecondStride.milliseconds(300)

    func testFirstValueImmediatelyThenLatestOfEachWindow() {
        assertMarbles(input: "abc-------e", expected: "a--c------e") { upstream, scheduler in
            upstream.throttle(for: self.window, scheduler: scheduler, latest: true).eraseToAnyPublisher()
        }
    }

    func testFirstValueImmediatelyThenFirstOfEachWindow() {
        assertMarbles(input: "abc-------e", expected: "a--b------e") { upstream, scheduler in
            upstream.throttle(for: self.window, scheduler: scheduler, latest: false).eraseToAnyPublisher()
        }
    }

    func testContinuousInputLatestVersusFirst() {
        // Each delivery starts the next window: deliveries every 300 ms, picking the latest or
        // the first value received since the previous one.
        assertMarbles(input: "abcdefg", expected: "a--d--g") { upstream, scheduler in
            upstream.throttle(for: self.window, scheduler: scheduler, latest: true).eraseToAnyPublisher()
        }
        assertMarbles(input: "abcdefg", expected: "a--b--e") { upstream, scheduler in
            upstream.throttle(for: self.window, scheduler: scheduler, latest: false).eraseToAnyPublisher()
        }
    }

    func testCompletionWaitsForHeldValue() {
        assertMarbles(input: "ab|", expected: "a--(b|)") { upstream, scheduler in
            upstream.throttle(for: self.window, scheduler: scheduler, latest: true).eraseToAnyPublisher()
        }
        assertMarbles(input: "ab#", expected: "a--(b#)") { upstream, scheduler in
            upstream.throttle(for: self.window, scheduler: scheduler, latest: true).eraseToAnyPublisher()
        }
    }

    func testCompletionWithNothingHeldIsDeliveredAtOnce() {
        assertMarbles(input: "a---|", expected: "a---|") { upstream, scheduler in
            upstream.throttle(for: self.window, scheduler: scheduler, latest: true).eraseToAnyPublisher()
        }
        assertMarbles(input: "#", expected: "#") { upstream, scheduler in
            upstream.throttle(for: self.window, scheduler: scheduler, latest: false).eraseToAnyPublisher()
        }
    }

    /// The product's username field: `throttle(for: 0.5, scheduler:, latest: true)`.
    func testUsernameFieldTrace() {
        let scheduler = DispatchQueue.test
        let start = scheduler.now
        let field = PassthroughSubject<String, Never>()
        var received: [(ms: Int, value: String)] = []
        let cancellable = field
            .throttle(for: 0.5, scheduler: scheduler, latest: true)
            .sink { received.append((milliseconds(since: start, on: scheduler), $0)) }

        // Typing slower than the window: every keystroke comes out, at once.
        for text in ["h", "he", "hec", "heck", "heckj"] {
            field.send(text)
            scheduler.advance(by: .milliseconds(600))
        }
        XCTAssertEqual(received.map(\.value), ["h", "he", "hec", "heck", "heckj"])
        XCTAssertEqual(received.map(\.ms), [0, 600, 1_200, 1_800, 2_400])

        // A burst within one window: its first value at once, its latest at the window's end.
        received = []
        for text in ["heckj2", "heckj23", "heckj234"] {
            field.send(text)
            scheduler.advance(by: .milliseconds(100))
        }
        scheduler.advance(by: .seconds(1))
        XCTAssertEqual(received.map(\.value), ["heckj2", "heckj234"])
        XCTAssertEqual(received.map(\.ms), [3_000, 3_500])
        cancellable.cancel()
    }

    /// A value sent while the subscription is being made (Just, a current value) goes out at once,
    /// as in Apple's Combine: the upstream is asked only after the downstream has had its say.
    func testValueDeliveredDuringSubscriptionIsEmitted() {
        let scheduler = DispatchQueue.test
        for latest in [false, true] {
            let recorder = Recorder<Int, Never>()
            Just(7).throttle(for: .milliseconds(100), scheduler: scheduler, latest: latest).subscribe(recorder)
            scheduler.run()
            XCTAssertEqual(recorder.values, [7], "latest: \(latest)")
            XCTAssertEqual(recorder.completions.count, 1)
        }
    }

    /// The seed's own shape, `$username.throttle(…)`: the initial value goes out at once, then at
    /// most one value per window counted from the last emission (Apple: [-1, 2, 3]).
    func testPublishedPropertyInitialValueThenLatestPerWindow() {
        final class Model {
            @Published var value = -1
        }
        let scheduler = DispatchQueue.test
        let start = scheduler.now
        let model = Model()
        var received: [(ms: Int, value: Int)] = []
        let cancellable = model.$value
            .throttle(for: .milliseconds(500), scheduler: scheduler, latest: true)
            .sink { received.append((milliseconds(since: start, on: scheduler), $0)) }
        scheduler.advance(by: .milliseconds(100))
        model.value = 1
        scheduler.advance(by: .milliseconds(100))
        model.value = 2
        scheduler.advance(by: .milliseconds(400))
        model.value = 3
        scheduler.advance(by: .seconds(2))
        XCTAssertEqual(received.map(\.value), [-1, 2, 3])
        XCTAssertEqual(received.map(\.ms), [0, 500, 1_000])
        cancellable.cancel()
    }

    func testValuesWithoutDemandAreDropped() {
        let scheduler = DispatchQueue.test
        let upstream = ScriptedPublisher<Int, Never>(keepsSubscriber: true)
        let recorder = Recorder<Int, Never>(initialDemand: .max(2))
        upstream.throttle(for: .seconds(10), scheduler: scheduler, latest: false).subscribe(recorder)
        XCTAssertEqual(upstream.requests, [.unlimited])
        upstream.send(1)
        scheduler.advance()
        upstream.send(2)
        scheduler.advance(by: .seconds(10))
        upstream.send(3)  // no demand left
        scheduler.run()
        XCTAssertEqual(recorder.values, [1, 2])
        recorder.request(.max(1))
        upstream.send(4)
        scheduler.run()
        XCTAssertEqual(recorder.values, [1, 2, 4])
    }

    func testNothingIsDeliveredOnTheCallersThread() {
        let scheduler = DispatchQueue.test
        let upstream = ScriptedPublisher<Int, Never>(keepsSubscriber: true)
        let recorder = Recorder<Int, Never>()
        upstream.throttle(for: .seconds(1), scheduler: scheduler, latest: true).subscribe(recorder)
        upstream.send(1)
        upstream.send(2)
        XCTAssertEqual(recorder.values, [])
        scheduler.advance()
        XCTAssertEqual(recorder.values, [2], "values sent before the scheduled delivery replace the held one")
    }

    func testCancelStopsDeliveryAndReleasesDownstream() {
        let scheduler = DispatchQueue.test
        let upstream = ScriptedPublisher<Int, Never>(keepsSubscriber: true)
        weak var weakRecorder: Recorder<Int, Never>?
        do {
            let recorder = Recorder<Int, Never>()
            weakRecorder = recorder
            upstream.throttle(for: .seconds(1), scheduler: scheduler, latest: true).subscribe(recorder)
            upstream.send(1)
            recorder.cancel()
            scheduler.run()
            XCTAssertEqual(recorder.values, [])
        }
        XCTAssertTrue(upstream.cancelled)
        XCTAssertNil(weakRecorder)
    }

    /// The example in the README, kept true here.
    func testReadmeExample() {
        assertMarbles(input: "abc-d---e|", expected: "a-c-d---e|") { upstream, scheduler in
            upstream.throttle(for: .milliseconds(200), scheduler: scheduler, latest: true).eraseToAnyPublisher()
        }
    }

}
