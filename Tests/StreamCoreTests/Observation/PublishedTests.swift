import StreamCore
import XCTest

/// The seed's view-controller shape: a `@Published var username` driving a pipeline.
private final class GithubViewModel: ObservableObject {
    @Published var username: String = ""
    @Published private(set) var githubUserData: [String] = []
    var usernameSubscriber: AnyCancellable?

    func githubIdChanged(_ text: String?) { username = text ?? "" }

    func connect() {
        usernameSubscriber = $username
            .map { $0.isEmpty ? [] : ["user:\($0)"] }
            .assign(to: \.githubUserData, on: self)
    }
}

private final class Counter: ObservableObject {
    @Published var count = 0
    @Published var label = "a"
    var plain = 0
}

final class PublishedTests: XCTestCase {
    func testSeedUsernamePipeline() {
        let model = GithubViewModel()
        var seen: [String] = []
        let sink = model.$username.sink { seen.append($0) }
        model.connect()
        XCTAssertEqual(model.githubUserData, [], "the current value is published on subscription")
        model.githubIdChanged("heck")
        model.githubIdChanged("heckj")
        XCTAssertEqual(seen, ["", "heck", "heckj"])
        XCTAssertEqual(model.githubUserData, ["user:heckj"])
        model.usernameSubscriber = nil  // the pipeline holds the model: break the cycle
        sink.cancel()
    }

    func testEmitsNewValueBeforeTheStoreLikeWillSet() {
        let model = Counter()
        var observed: [(new: Int, stored: Int)] = []
        let sink = model.$count.sink { observed.append((new: $0, stored: model.count)) }
        model.count = 5
        XCTAssertEqual(observed.map(\.new), [0, 5])
        XCTAssertEqual(observed.map(\.stored), [0, 0], "the property still holds the old value while publishing")
        XCTAssertEqual(model.count, 5)
        sink.cancel()
    }

    func testDemandOwesTheLatestValue() {
        let model = Counter()
        let recorder = Recorder<Int, Never>(initialDemand: .none)
        model.$count.subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription])
        model.count = 1
        model.count = 2
        recorder.request(.max(1))
        XCTAssertEqual(recorder.values, [2], "without demand only the latest value is kept")
        recorder.request(.max(1))
        model.count = 3
        XCTAssertEqual(recorder.values, [2, 3])
    }

    func testCancelStopsUpdatesAndOtherSubscribersContinue() {
        let model = Counter()
        let first = Recorder<Int, Never>()
        let second = Recorder<Int, Never>()
        model.$count.subscribe(first)
        model.$count.subscribe(second)
        first.cancel()
        model.count = 7
        XCTAssertEqual(first.values, [0])
        XCTAssertEqual(second.values, [0, 7])
    }

    func testAssignToPublished() {
        let model = Counter()
        let source = PassthroughSubject<Int, Never>()
        source.assign(to: &model.$count)
        let recorder = Recorder<Int, Never>()
        model.$count.subscribe(recorder)
        source.send(4)
        source.send(9)
        XCTAssertEqual(model.count, 9)
        XCTAssertEqual(recorder.values, [0, 4, 9])
    }

    func testAssignToPublishedLivesAsLongAsTheProperty() {
        var cancelled = false
        let source = PassthroughSubject<Int, Never>()
        weak var weakModel: Counter?
        do {
            let model = Counter()
            weakModel = model
            source.handleEvents(receiveCancel: { cancelled = true }).assign(to: &model.$count)
            source.send(1)
            XCTAssertEqual(model.count, 1)
            XCTAssertFalse(cancelled)
        }
        XCTAssertNil(weakModel, "assign(to:) does not retain the object")
        XCTAssertTrue(cancelled, "the upstream is cancelled when the property goes away")
    }

    func testObjectIsReleasedWithLiveSubscribers() {
        weak var weakModel: Counter?
        var sink: AnyCancellable?
        do {
            let model = Counter()
            weakModel = model
            sink = model.$count.sink { _ in }
        }
        XCTAssertNil(weakModel)
        sink?.cancel()
    }

    /// The book (testPublishedSinkWithError): when a pipeline from a @Published property fails,
    /// the subscriber cancels and the publisher ceases reporting changes to that pipeline.
    func testAFailureInThePipelineEndsItsSubscriptionToTheProperty() {
        let model = Counter()
        var mapped: [Int] = []
        let recorder = Recorder<Int, Error>()
        model.$count
            .tryMap { value -> Int in
                mapped.append(value)
                if value == 2 { throw TestError.boom }
                return value
            }
            .subscribe(recorder)
        model.count = 1
        model.count = 2
        model.count = 3
        XCTAssertEqual(mapped, [0, 1, 2], "nothing reaches the pipeline after its failure")
        XCTAssertEqual(recorder.values, [0, 1])
        XCTAssertEqual(testError(recorder.completions), [.boom])
        let later = Recorder<Int, Never>()
        model.$count.subscribe(later)
        model.count = 4
        XCTAssertEqual(later.values, [3, 4], "other pipelines still get every change")
    }
}

final class ObservableObjectTests: XCTestCase {
    func testObjectWillChangeFiresBeforeTheChange() {
        let model = Counter()
        var seenDuringWillChange: [Int] = []
        let sink = model.objectWillChange.sink { seenDuringWillChange.append(model.count) }
        model.count = 1
        model.count = 2
        model.plain = 10
        XCTAssertEqual(seenDuringWillChange, [0, 1], "fires before each @Published change, with the old value in place")
        sink.cancel()
    }

    func testEveryPublishedFieldSharesOnePublisher() {
        let model = Counter()
        XCTAssertTrue(model.objectWillChange === model.objectWillChange)
        var fired = 0
        let sink = model.objectWillChange.sink { fired += 1 }
        model.label = "b"
        model.count += 1
        XCTAssertEqual(fired, 2)
        sink.cancel()
    }

    func testObjectWillChangeFiresBeforePropertyPublisher() {
        let model = Counter()
        var order: [String] = []
        let will = model.objectWillChange.sink { order.append("objectWillChange") }
        let did = model.$count.dropFirstForTest().sink { order.append("$count \($0)") }
        model.count = 3
        XCTAssertEqual(order, ["objectWillChange", "$count 3"])
        will.cancel()
        did.cancel()
    }

    func testSubclassFieldsAndSuperclassFields() {
        class Base: ObservableObject {
            @Published var base = 0
        }
        final class Derived: Base {
            @Published var derived = ""
        }
        let model = Derived()
        var fired = 0
        let sink = model.objectWillChange.sink { fired += 1 }
        model.base = 1
        model.derived = "x"
        XCTAssertEqual(fired, 2)
        sink.cancel()
    }

    func testAssignToPublishedFiresObjectWillChange() {
        let model = Counter()
        var fired = 0
        let sink = model.objectWillChange.sink { fired += 1 }
        Just(8).assign(to: &model.$count)
        XCTAssertEqual(fired, 1)
        XCTAssertEqual(model.count, 8)
        sink.cancel()
    }

    func testObjectWithoutPublishedFields() {
        final class Plain: ObservableObject { var value = 0 }
        let recorder = Recorder<Void, Never>()
        Plain().objectWillChange.subscribe(recorder)
        XCTAssertEqual(recorder.subscriptionCount, 1)
        XCTAssertTrue(recorder.completions.isEmpty)
    }
}

extension Publisher {
    /// Skips the value a `@Published` publisher sends on subscription (`dropFirst()` is
    /// another helper's operator).
    fileprivate func dropFirstForTest() -> Publishers.Filter<Self> {
        var first = true
        return filter { _ in
            defer { first = false }
            return !first
        }
    }
}
