import Dispatch
import StreamCore
import XCTest

final class PassthroughSubjectTests: XCTestCase {
    func testDeliversOnlyWithinDemand() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = Recorder<Int, Never>(initialDemand: .max(2))
        subject.subscribe(recorder)
        (1...5).forEach(subject.send)
        XCTAssertEqual(recorder.values, [1, 2], "values without demand are dropped")
        recorder.request(.max(1))
        subject.send(6)
        XCTAssertEqual(recorder.values, [1, 2, 6])
    }

    func testNothingAfterCompletion() {
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<Int, TestError>()
        subject.subscribe(recorder)
        subject.send(1)
        subject.send(completion: .failure(.boom))
        subject.send(2)
        subject.send(completion: .finished)
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .completion(.failure(.boom))])
    }

    func testLateSubscriberGetsCompletion() {
        let subject = PassthroughSubject<Int, Never>()
        subject.send(completion: .finished)
        let recorder = Recorder<Int, Never>()
        subject.subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .completion(.finished)])
    }

    func testCancelStopsDeliveryAndReleasesSubscriber() {
        let subject = PassthroughSubject<Int, Never>()
        weak var weakRecorder: Recorder<Int, Never>?
        do {
            let recorder = Recorder<Int, Never>()
            weakRecorder = recorder
            subject.subscribe(recorder)
            subject.send(1)
            recorder.cancel()
            subject.send(2)
            XCTAssertEqual(recorder.values, [1])
        }
        XCTAssertNil(weakRecorder, "the subject lets go of a cancelled subscriber")
    }

    func testBroadcastsToEverySubscriber() {
        let subject = PassthroughSubject<String, Never>()
        let first = Recorder<String, Never>()
        let second = Recorder<String, Never>()
        subject.subscribe(first)
        subject.subscribe(second)
        subject.send("a")
        XCTAssertEqual(first.values, ["a"])
        XCTAssertEqual(second.values, ["a"])
    }

    func testRelaysAnotherPublisherWhenSubscribedAsSubject() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = Recorder<Int, Never>()
        subject.subscribe(recorder)
        let relay = [1, 2, 3].publisher.subscribe(subject)
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(2), .value(3), .completion(.finished)])
        relay.cancel()
    }

    func testReentrantSendFromSubscriberIsDelivered() {
        let subject = PassthroughSubject<Int, Never>()
        var received: [Int] = []
        let cancellable = subject.sink { value in
            received.append(value)
            if value < 3 { subject.send(value + 1) }
        }
        subject.send(1)
        XCTAssertEqual(received, [1, 2, 3])
        cancellable.cancel()
    }

    func testConcurrentSendersNeitherCrashNorReorderAProducer() {
        let subject = PassthroughSubject<(producer: Int, index: Int), Never>()
        let recorder = Recorder<(producer: Int, index: Int), Never>()
        subject.subscribe(recorder)
        let producers = 8, perProducer = 5_000
        DispatchQueue.concurrentPerform(iterations: producers) { producer in
            for index in 0..<perProducer { subject.send((producer, index)) }
        }
        let values = recorder.values
        XCTAssertEqual(values.count, producers * perProducer)
        for producer in 0..<producers {
            XCTAssertEqual(values.filter { $0.producer == producer }.map(\.index), Array(0..<perProducer))
        }
    }
}

