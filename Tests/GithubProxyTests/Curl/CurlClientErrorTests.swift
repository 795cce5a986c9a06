import Foundation
import HTTPTestSupport
import GithubProxy
import StreamCore
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

final class CurlClientErrorTests: XCTestCase {
    /// Nothing listens on the port: the failure is `cannotConnectToHost`, as URLSession reports.
    func testRefusedConnectionIsCannotConnect() throws {
        let port = try unusedLoopbackPort()
        let client = CurlHTTPClient()
        let done = expectation(description: "done")
        let outcome = Outcome()
        let cancellable = client.dataTaskPublisher(for: URL(string: "http://127.0.0.1:\(port)/")!)
            .sink(receiveCompletion: { completion in
                if case .failure(let error) = completion { outcome.error = error }
                done.fulfill()
            }, receiveValue: { _ in XCTFail("no value expected") })
        wait(for: [done], timeout: 10)
        XCTAssertEqual(outcome.error?.code, .cannotConnectToHost)
        cancellable.cancel()
    }

    func testMalformedURLIsBadURL() {
        let client = CurlHTTPClient()
        let done = expectation(description: "done")
        let outcome = Outcome()
        let cancellable = client.dataTaskPublisher(for: URL(string: "gopherx://127.0.0.1/")!)
            .sink(receiveCompletion: { completion in
                if case .failure(let error) = completion { outcome.error = error }
                done.fulfill()
            }, receiveValue: { _ in })
        wait(for: [done], timeout: 10)
        XCTAssertEqual(outcome.error?.code, .badURL)
        cancellable.cancel()
    }

    /// The service's curl driver stops at the end of a graceful shutdown: a request started
    /// afterwards fails at once instead of waiting on a thread that is gone; stopping twice is fine.
    func testAfterShutdownARequestFailsAtOnce() throws {
        let port = try unusedLoopbackPort()
        let client = CurlHTTPClient()
        client.shutdown()
        client.shutdown()
        let done = expectation(description: "done")
        let outcome = Outcome()
        let cancellable = client.dataTaskPublisher(for: URL(string: "http://127.0.0.1:\(port)/")!)
            .sink(receiveCompletion: { completion in
                if case .failure(let error) = completion { outcome.error = error }
                done.fulfill()
            }, receiveValue: { _ in XCTFail("no value expected") })
        wait(for: [done], timeout: 10)
        XCTAssertEqual(outcome.error?.code, .unknown)
        cancellable.cancel()
    }
}

final class Outcome: @unchecked Sendable {
    // Written once on the callback queue before the expectation is fulfilled, read after the wait.
    var error: URLError?
}
