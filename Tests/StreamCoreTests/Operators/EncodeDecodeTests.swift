import Foundation
import StreamCore
import XCTest

private struct User: Codable, Equatable {
    let login: String
    let publicRepos: Int
}

final class EncodeDecodeTests: XCTestCase {
    func testJSONRoundTrip() {
        let users = [User(login: "heckj", publicRepos: 69), User(login: "hec", publicRepos: 3)]
        let recorder = Recorder<User, Error>()
        users.publisher
            .encode(encoder: JSONEncoder())
            .decode(type: User.self, decoder: JSONDecoder())
            .subscribe(recorder)
        XCTAssertEqual(recorder.values, users)
        XCTAssertEqual(recorder.completions.count, 1)
        if case .failure = recorder.completions.first { XCTFail("expected .finished") }
    }

    func testPropertyListRoundTrip() {
        let recorder = Recorder<[String: Int], Error>()
        Just(["a": 1])
            .encode(encoder: PropertyListEncoder())
            .decode(type: [String: Int].self, decoder: PropertyListDecoder())
            .subscribe(recorder)
        XCTAssertEqual(recorder.values, [["a": 1]])
    }

    func testDecodeFailureCancelsUpstreamAndFails() {
        let subject = PassthroughSubject<Data, Never>()
        var cancelled = false
        let recorder = Recorder<User, Error>()
        subject
            .handleEvents(receiveCancel: { cancelled = true })
            .decode(type: User.self, decoder: JSONDecoder())
            .subscribe(recorder)
        subject.send(Data(#"{"login":"a","publicRepos":1}"#.utf8))
        subject.send(Data("not json".utf8))
        subject.send(Data(#"{"login":"b","publicRepos":2}"#.utf8))
        XCTAssertEqual(recorder.values, [User(login: "a", publicRepos: 1)])
        XCTAssertEqual(recorder.completions.count, 1)
        guard case .failure(let error) = recorder.completions.first else { return XCTFail("expected a failure") }
        XCTAssertTrue(error is DecodingError, "the decoder's own error: \(error)")
        XCTAssertTrue(cancelled)
    }

    func testEncodeFailure() {
        let recorder = Recorder<Data, Error>()
        // JSONEncoder rejects a non-finite Double.
        [1.0, .infinity, 2.0].publisher.encode(encoder: JSONEncoder()).subscribe(recorder)
        XCTAssertEqual(recorder.values.count, 1)
        guard case .failure(let error) = recorder.completions.first else { return XCTFail("expected a failure") }
        XCTAssertTrue(error is EncodingError)
    }

    func testDecodeHonoursDemand() {
        let recorder = Recorder<Int, Error>(initialDemand: .max(1))
        ["1", "2", "3"].map { Data($0.utf8) }.publisher
            .decode(type: Int.self, decoder: JSONDecoder())
            .subscribe(recorder)
        XCTAssertEqual(recorder.values, [1])
        recorder.request(.max(2))
        XCTAssertEqual(recorder.values, [1, 2, 3])
    }

    func testUpstreamFailureIsErased() {
        let recorder = Recorder<Data, Error>()
        Fail<Int, TestError>(error: .boom).encode(encoder: JSONEncoder()).subscribe(recorder)
        guard case .failure(let error) = recorder.completions.first else { return XCTFail("expected a failure") }
        XCTAssertEqual(error as? TestError, .boom)
    }
}
