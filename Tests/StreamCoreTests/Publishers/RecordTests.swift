import Foundation
import StreamCore
import XCTest

final class RecordTests: XCTestCase {
    func testReplaysToEverySubscriberHonouringDemand() {
        let record = Record<Int, TestError>(output: [1, 2, 3], completion: .failure(.boom))
        let first = Recorder<Int, TestError>(initialDemand: .max(2))
        record.subscribe(first)
        XCTAssertEqual(first.events, [.subscription, .value(1), .value(2)])
        first.request(.max(1))
        XCTAssertEqual(first.events, [.subscription, .value(1), .value(2), .value(3), .completion(.failure(.boom))])
        let second = Recorder<Int, TestError>()
        record.subscribe(second)
        XCTAssertEqual(second.events, first.events, "a record replays from the start for each subscriber")
    }

    func testRecordingBuilder() {
        let record = Record<String, Never> { recording in
            recording.receive("a")
            recording.receive("b")
            recording.receive(completion: .finished)
        }
        XCTAssertEqual(record.recording.output, ["a", "b"])
        let recorder = Recorder<String, Never>()
        record.subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .value("a"), .value("b"), .completion(.finished)])
    }

    func testEmptyRecordCompletesWithoutDemand() {
        let record = Record<Int, TestError>(recording: .init(output: [], completion: .failure(.other(1))))
        let recorder = Recorder<Int, TestError>(initialDemand: .none)
        record.subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .completion(.failure(.other(1)))])
    }

    func testCancelStopsReplay() {
        var received: [Int] = []
        var sink: Subscribers.Sink<Int, Never>?
        sink = Subscribers.Sink(receiveCompletion: { _ in XCTFail("no completion after cancel") }, receiveValue: {
            received.append($0)
            if $0 == 2 { sink?.cancel() }
        })
        Record<Int, Never>(output: [1, 2, 3, 4], completion: .finished).subscribe(sink!)
        XCTAssertEqual(received, [1, 2])
    }

    /// Apple's encoding, as the book's tests pin it: a record is `{"recording":{"completion":…,
    /// "output":[…]}}`, a failure `{"success":false,"error":…}`. JSONEncoder orders keys as its
    /// dictionary happens to (per process), so the shape is compared as JSON values, and the
    /// book's exact text with `.sortedKeys` where sorting gives its order.
    func testEncodesApplesShape() throws {
        struct Failure: Error, Codable { let code: Int }
        let finished = Record<String, Failure>(output: ["one", "two", "three"], completion: .finished)
        let sorted = JSONEncoder()
        sorted.outputFormatting = .sortedKeys
        XCTAssertEqual(
            String(decoding: try sorted.encode(finished), as: UTF8.self),
            #"{"recording":{"completion":{"success":true},"output":["one","two","three"]}}"#
        )
        let failed = Record<String, Failure>(output: ["one"], completion: .failure(Failure(code: 9)))
        let encoded = try JSONSerialization.jsonObject(with: JSONEncoder().encode(failed)) as? NSDictionary
        let apples = try JSONSerialization.jsonObject(
            with: Data(#"{"recording":{"completion":{"success":false,"error":{"code":9}},"output":["one"]}}"#.utf8)
        ) as? NSDictionary
        XCTAssertNotNil(apples)
        XCTAssertEqual(encoded, apples)
    }

    /// The text Apple's Combine wrote in the book's test (its failure type encodes itself as
    /// `{"invalidServerResponse":null}`) decodes to the recording it came from.
    func testDecodesApplesText() throws {
        enum Condition: Error, Codable, Equatable, CodingKey {
            case invalidServerResponse
            init(from decoder: Decoder) throws {
                let container = try decoder.container(keyedBy: Condition.self)
                guard container.contains(.invalidServerResponse) else {
                    throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "unknown"))
                }
                self = .invalidServerResponse
            }
            func encode(to encoder: Encoder) throws {
                var container = encoder.container(keyedBy: Condition.self)
                try container.encodeNil(forKey: self)
            }
        }
        let text = #"{"recording":{"completion":{"success":false,"error":{"invalidServerResponse":null}},"output":["one","two","three"]}}"#
        let record = try JSONDecoder().decode(Record<String, Condition>.self, from: Data(text.utf8))
        XCTAssertEqual(record.recording.output, ["one", "two", "three"])
        XCTAssertEqual(record.recording.completion, .failure(.invalidServerResponse))
    }

    func testCodableRoundTrip() throws {
        struct Failure: Error, Codable, Equatable { let code: Int }
        let record = Record<Int, Failure>(output: [4, 5], completion: .failure(Failure(code: 9)))
        let data = try JSONEncoder().encode(record)
        let decoded = try JSONDecoder().decode(Record<Int, Failure>.self, from: data)
        XCTAssertEqual(decoded.recording.output, [4, 5])
        XCTAssertEqual(decoded.recording.completion, .failure(Failure(code: 9)))
        let finished = try JSONDecoder().decode(
            Record<Int, Failure>.self,
            from: JSONEncoder().encode(Record<Int, Failure>(output: [], completion: .finished))
        )
        XCTAssertEqual(finished.recording.completion, .finished)
    }
}

final class ResultAndOptionalPublisherTests: XCTestCase {
    func testResultSuccessWaitsForDemand() {
        let recorder = Recorder<Int, TestError>(initialDemand: .none)
        Result<Int, TestError>.success(3).publisher.subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription])
        recorder.request(.max(1))
        XCTAssertEqual(recorder.events, [.subscription, .value(3), .completion(.finished)])
    }

    func testResultFailureFailsImmediately() {
        let recorder = Recorder<Int, TestError>(initialDemand: .none)
        Result<Int, TestError>.Publisher(.boom).subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .completion(.failure(.boom))])
    }

    func testResultPublisherInitialisers() {
        XCTAssertEqual(Result<Int, TestError>.Publisher(1), Result<Int, TestError>.success(1).publisher)
        XCTAssertEqual(Result<Int, TestError>.Publisher(.boom).result, .failure(.boom))
    }

    func testResultCancelBeforeDemand() {
        let recorder = Recorder<Int, TestError>(initialDemand: .none)
        Result<Int, TestError>.Publisher(1).subscribe(recorder)
        recorder.cancel()
        recorder.request(.max(1))
        XCTAssertEqual(recorder.events, [.subscription])
    }

    func testOptionalWithValue() {
        let recorder = Recorder<Int, Never>(initialDemand: .none)
        Optional(4).publisher.subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription])
        recorder.request(.max(1))
        XCTAssertEqual(recorder.events, [.subscription, .value(4), .completion(.finished)])
    }

    func testOptionalNilFinishes() {
        let recorder = Recorder<Int, Never>(initialDemand: .none)
        Optional<Int>.Publisher(nil).subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .completion(.finished)])
        XCTAssertEqual(Optional<Int>.none.publisher, Optional<Int>.Publisher(nil))
    }
}

final class NotificationCenterPublisherTests: XCTestCase {
    private let ping = Notification.Name("StreamCoreTests.ping")

    func testObservesOnSubscriptionAndHonoursDemand() {
        let center = NotificationCenter()
        let publisher = center.publisher(for: ping)
        center.post(name: ping, object: nil)  // before anyone subscribed: nobody sees it
        let recorder = Recorder<Notification, Never>(initialDemand: .max(2))
        publisher.subscribe(recorder)
        for index in 1...3 { center.post(name: ping, object: nil, userInfo: ["n": index]) }
        XCTAssertEqual(recorder.values.map { $0.userInfo?["n"] as? Int }, [1, 2], "the third is dropped without demand")
        recorder.request(.max(1))
        center.post(name: ping, object: nil, userInfo: ["n": 4])
        XCTAssertEqual(recorder.values.map { $0.userInfo?["n"] as? Int }, [1, 2, 4])
        XCTAssertTrue(recorder.completions.isEmpty)
    }

    func testFiltersByObject() {
        let center = NotificationCenter()
        let sender = NSObject()
        let recorder = Recorder<Notification, Never>()
        center.publisher(for: ping, object: sender).subscribe(recorder)
        center.post(name: ping, object: NSObject())
        center.post(name: ping, object: sender)
        XCTAssertEqual(recorder.values.count, 1)
        XCTAssertTrue(recorder.values.first?.object as AnyObject? === sender)
    }

    func testCancelRemovesObserver() {
        let center = NotificationCenter()
        var count = 0
        let cancellable = center.publisher(for: ping).sink { _ in count += 1 }
        center.post(name: ping, object: nil)
        cancellable.cancel()
        center.post(name: ping, object: nil)
        XCTAssertEqual(count, 1)
    }

    func testSubscriptionIsReleasedAfterCancel() {
        let center = NotificationCenter()
        weak var weakSink: Subscribers.Sink<Notification, Never>?
        do {
            let sink = Subscribers.Sink<Notification, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
            weakSink = sink
            center.publisher(for: ping).subscribe(sink)
            sink.cancel()
        }
        XCTAssertNil(weakSink)
    }
}
