import StreamCore
import XCTest

final class MapErrorTests: XCTestCase {
    struct Wrapped: Error, Equatable { let inner: TestError }

    func testMapsTheFailureAndKeepsValues() {
        let upstream = ScriptedPublisher<Int, TestError>()
        let recorder = Recorder<Int, Wrapped>()
        upstream.mapError { Wrapped(inner: $0) }.subscribe(recorder)
        upstream.send(1)
        upstream.send(completion: .failure(.boom))
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .completion(.failure(Wrapped(inner: .boom)))])
    }

    func testFinishedAndDemandPassThrough() {
        let recorder = Recorder<Int, Wrapped>(initialDemand: .max(2))
        (1...3).publisher.setFailureType(to: TestError.self).mapError { Wrapped(inner: $0) }.subscribe(recorder)
        XCTAssertEqual(recorder.values, [1, 2])
        recorder.request(.max(1))
        XCTAssertEqual(recorder.completions, [.finished])
    }

    func testErasedErrorCanBeNarrowed() {
        let recorder = Recorder<Int, TestError>()
        Fail<Int, Error>(error: TestError.other(3)).mapError { $0 as? TestError ?? .boom }.subscribe(recorder)
        XCTAssertEqual(recorder.completions, [.failure(.other(3))])
    }
}
