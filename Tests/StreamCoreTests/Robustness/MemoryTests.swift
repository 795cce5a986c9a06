import StreamCore
import XCTest

/// Cancelling, dropping the AnyCancellable or completing releases a whole pipeline: no retain
/// cycles between subscribers, subscriptions, shared publishers and captured objects.
final class MemoryTests: XCTestCase {
    /// An object captured by a closure in the pipeline; only weak references to it survive.
    private final class Captured {
        func touch<T>(_ value: T) -> T { value }
    }

    /// Counts how often the upstream side still runs; held strongly by the test.
    private final class Counter {
        var calls = 0
    }

    /// Weak references to everything a subject + map + filter + share + sink pipeline creates.
    private struct Watch {
        weak var mapCapture: Captured?
        weak var filterCapture: Captured?
        weak var sinkCapture: Captured?
        weak var share: AnyObject?
        weak var sink: AnyObject?
        weak var recorder: AnyObject?
        weak var recorderSubscription: AnyObject?

        func assertAllReleased(file: StaticString = #filePath, line: UInt = #line) {
            XCTAssertNil(mapCapture, "map closure capture", file: file, line: line)
            XCTAssertNil(filterCapture, "filter closure capture", file: file, line: line)
            XCTAssertNil(sinkCapture, "sink closure capture", file: file, line: line)
            XCTAssertNil(share, "share", file: file, line: line)
            XCTAssertNil(sink, "sink", file: file, line: line)
            XCTAssertNil(recorder, "second subscriber", file: file, line: line)
            XCTAssertNil(recorderSubscription, "second subscriber's subscription", file: file, line: line)
        }
    }

    /// Builds the pipeline; returns the sink's AnyCancellable and one for the second subscriber.
    private func makePipeline(
        _ subject: PassthroughSubject<Int, Never>, counter: Counter, watch: inout Watch
    ) -> (sink: AnyCancellable, recorder: AnyCancellable) {
        let mapCapture = Captured(), filterCapture = Captured(), sinkCapture = Captured()
        let shared = subject
            .map { value -> Int in
                counter.calls += 1
                return mapCapture.touch(value)
            }
            .filter { filterCapture.touch($0) >= 0 }
            .share()
        let sink = Subscribers.Sink<Int, Never>(
            receiveCompletion: { _ in _ = sinkCapture.touch(0) },
            receiveValue: { _ = sinkCapture.touch($0) }
        )
        let recorder = Recorder<Int, Never>()
        shared.subscribe(sink)
        shared.subscribe(recorder)
        subject.send(1)
        XCTAssertEqual(recorder.values, [1])
        watch.mapCapture = mapCapture
        watch.filterCapture = filterCapture
        watch.sinkCapture = sinkCapture
        watch.share = shared
        watch.sink = sink
        watch.recorder = recorder
        watch.recorderSubscription = recorder.subscription as AnyObject?
        return (AnyCancellable(sink), AnyCancellable(recorder))
    }

    func testCancellingReleasesEverything() {
        let subject = PassthroughSubject<Int, Never>()
        let counter = Counter()
        var watch = Watch()
        let (sink, recorder) = makePipeline(subject, counter: counter, watch: &watch)
        sink.cancel()
        recorder.cancel()
        watch.assertAllReleased()
        subject.send(2)
        XCTAssertEqual(counter.calls, 1, "the subject no longer feeds the pipeline")
    }

    func testDroppingTheCancellablesReleasesEverything() {
        let subject = PassthroughSubject<Int, Never>()
        let counter = Counter()
        var watch = Watch()
        do {
            let cancellables = makePipeline(subject, counter: counter, watch: &watch)
            withExtendedLifetime(cancellables) { subject.send(2) }
        }
        watch.assertAllReleased()
        subject.send(3)
        XCTAssertEqual(counter.calls, 2)
    }

    /// Even while the sink's AnyCancellable is still held (e.g. stored on the object its closure
    /// captures), a completion tears the pipeline down and the sink lets go of its closures.
    func testCompletionReleasesEverythingWhileTheCancellableIsStillHeld() {
        let subject = PassthroughSubject<Int, Never>()
        let counter = Counter()
        var watch = Watch()
        let (sink, recorder) = makePipeline(subject, counter: counter, watch: &watch)
        recorder.cancel() // the Recorder keeps its subscription by design; a Sink does not
        subject.send(completion: .finished)
        XCTAssertNotNil(watch.sink, "the sink itself lives as long as its AnyCancellable")
        watch.sink = nil
        watch.assertAllReleased()
        withExtendedLifetime(sink) {}
    }

    func testCancellingAConnectionReleasesTheUpstreamPipeline() {
        let subject = PassthroughSubject<Int, Never>()
        weak var weakCapture: Captured?
        weak var weakRecorder: Recorder<Int, Never>?
        let connection: Cancellable
        do {
            let capture = Captured()
            weakCapture = capture
            let connectable = subject.map { capture.touch($0) }.makeConnectable()
            let recorder = Recorder<Int, Never>()
            weakRecorder = recorder
            connectable.subscribe(recorder)
            connection = connectable.connect()
            subject.send(1)
            XCTAssertEqual(recorder.values, [1])
            recorder.cancel()
        }
        XCTAssertNil(weakRecorder)
        XCTAssertNotNil(weakCapture, "the connection keeps the upstream running")
        connection.cancel()
        XCTAssertNil(weakCapture)
    }

    /// Apple's Sink releases its closures once it has terminated (OpenCombine's SinkTests).
    func testSinkReleasesItsClosuresOnCompletionAndOnCancel() {
        for cancelInstead in [false, true] {
            let subject = PassthroughSubject<Int, Never>()
            weak var weakCapture: Captured?
            let cancellable: AnyCancellable
            do {
                let capture = Captured()
                weakCapture = capture
                cancellable = subject.sink(receiveCompletion: { _ in _ = capture }, receiveValue: { _ = capture.touch($0) })
            }
            XCTAssertNotNil(weakCapture)
            if cancelInstead {
                cancellable.cancel()
            } else {
                subject.send(completion: .finished)
            }
            XCTAssertNil(weakCapture, cancelInstead ? "after cancel" : "after completion")
            withExtendedLifetime(cancellable) {}
        }
    }
}
