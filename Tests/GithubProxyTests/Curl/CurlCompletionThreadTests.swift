import FakeGithub
import Foundation
@testable import GithubProxy
import HTTPTestSupport
import StreamCore
import Synchronization
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A transfer completes on its client's driver thread, with no queue in between; the driver
/// keeps working whatever a completion does there.
final class CurlCompletionThreadTests: FakeGithubTestCase {
    /// Completions run on the driver thread.
    func testCompletionsRunOnTheDriverThread() {
        let onDriver = Mutex<[Bool]>([])
        let group = DispatchGroup()
        var cancellables: [AnyCancellable] = []
        for login in ["heckj", "octocat", "nobody-here"] {
            group.enter()
            cancellables.append(http.dataTaskPublisher(for: baseURL.appendingPathComponent("users/\(login)"))
                .sink(receiveCompletion: { [http] _ in
                    onDriver.withLock { $0.append(http!.isDriverThread) }
                    group.leave()
                }, receiveValue: { _ in }))
        }
        XCTAssertEqual(group.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(onDriver.withLock { $0 }, [true, true, true])
        cancellables.removeAll()
    }

    /// A completion that lets go of the last reference to its client shuts the client down from
    /// the driver thread itself: the shutdown does not wait for that thread (it would wait for
    /// ever), and the driver still frees the transfer's easy handle and stops.
    func testAClientReleasedByItsOwnCompletionStillFreesItsHandles() {
        let baseline = easyHandleBaseline()
        let done = expectation(description: "answered")
        var cancellable: AnyCancellable?
        do {
            let client = CurlHTTPClient()
            cancellable = client.dataTaskPublisher(for: baseURL.appendingPathComponent("users/heckj"))
                .sink(receiveCompletion: { _ in done.fulfill() }, receiveValue: { _ in })
        }
        wait(for: [done], timeout: 10)
        XCTAssertTrue(
            waitUntil(timeout: 10) { CurlHTTPClient.liveEasyHandles == baseline },
            "live easy handles: \(CurlHTTPClient.liveEasyHandles), baseline \(baseline)")
        cancellable?.cancel()
    }
}
