import FakeGithub
import Foundation
import GithubProxy
import HTTPTestSupport
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The driver reuses the easy handles of ended transfers, reset: one request after another
/// allocates one handle, and nothing of a request carries over to the next on the same handle.
final class EasyHandleReuseTests: FakeGithubTestCase {
    func testRequestsOneAfterAnotherShareOneHandleAndCarryNothingOver() throws {
        let baseline = easyHandleBaseline()
        fake.update(FakeGithubUser(login: "heckj", id: 1, name: "Joe", publicRepos: 3))
        let first = try XCTUnwrap(fetch("users/heckj", headers: ["If-None-Match": "W/\"stale\"", "X-Probe": "first"]))
        XCTAssertEqual(try first.get().response.statusCode, 200)
        XCTAssertEqual(CurlHTTPClient.liveEasyHandles, baseline + 1, "the ended transfer's handle is kept for the next one")
        let second = try XCTUnwrap(fetch("users/heckj"))
        XCTAssertEqual(try second.get().response.statusCode, 200)
        XCTAssertEqual(CurlHTTPClient.liveEasyHandles, baseline + 1, "the second request reused the handle")
        let requests = fake.requests.filter { $0.path == "/users/heckj" }
        XCTAssertEqual(requests.count, 2)
        XCTAssertEqual(requests.first?.header("X-Probe"), "first")
        XCTAssertNil(requests.last?.header("X-Probe"), "the reused handle sends only its own request's fields")
        XCTAssertNil(requests.last?.header("If-None-Match"))
        http.shutdown()
        XCTAssertEqual(CurlHTTPClient.liveEasyHandles, baseline, "shutting down frees the spare handle")
    }

    /// With no spare handles allowed, every ended transfer frees its handle at once.
    func testWithoutSparesEveryHandleIsFreed() throws {
        let baseline = easyHandleBaseline()
        let client = CurlHTTPClient(configuration: .init(spareEasyHandles: 0))
        let done = expectation(description: "answered")
        let cancellable = client.dataTaskPublisher(for: baseURL.appendingPathComponent("users/octocat"))
            .sink(receiveCompletion: { _ in done.fulfill() }, receiveValue: { _ in })
        wait(for: [done], timeout: 10)
        XCTAssertTrue(
            waitUntil(timeout: 10) { CurlHTTPClient.liveEasyHandles == baseline },
            "live easy handles: \(CurlHTTPClient.liveEasyHandles), baseline \(baseline)")
        cancellable.cancel()
        client.shutdown()
    }
}
