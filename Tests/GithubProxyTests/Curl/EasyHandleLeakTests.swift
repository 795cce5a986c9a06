import FakeGithub
import Foundation
import HTTPTestSupport
import GithubProxy
import StreamCore
import XCTest

/// After many lookups of every kind — found, not found, 5xx with retries, cancelled before and
/// during the transfer — no transfer holds an easy handle: the client keeps at most its spare
/// handles for reuse, and frees those when it shuts down.
final class EasyHandleLeakTests: FakeGithubTestCase {
    func testNoEasyHandleLeaksAfterTenThousandMixedLookups() {
        let baseline = easyHandleBaseline()
        for n in 0..<20 {
            fake.update(FakeGithubUser(login: "found-\(n)", id: 1000 + n, name: nil, publicRepos: n))
            fake.update(FakeGithubUser(login: "slow-\(n)", id: 2000 + n, name: nil, publicRepos: n))
            fake.setFault(.delay(.milliseconds(400)), for: "slow-\(n)")
            fake.setFault(.status([500, 502, 503][n % 3]), for: "broken-\(n)")
        }
        let client = makeClient(retry: RetryPolicy(maxRetries: 1, baseDelay: .milliseconds(1), jitter: 0))
        let total = 10_000
        let batch = 100
        let statuses = Box<[LookupResult.Status: Int]>([:])
        var cancelled = 0
        for start in stride(from: 0, to: total, by: batch) {
            var finishing: [AnyCancellable] = []
            var cancelling: [AnyCancellable] = []
            let group = DispatchGroup()
            for i in start..<(start + batch) {
                let n = (i / 4) % 20
                let login = ["found-\(n)", "missing-\(n)", "broken-\(n)", "slow-\(n)"][i % 4]
                if i % 4 == 3 {
                    let lookup = client.retrieveGithubUser(username: login).sink { _ in }
                    // Half are cancelled at once (often before curl has the transfer), half later.
                    if i % 8 == 3 { lookup.cancel() } else { cancelling.append(lookup) }
                    cancelled += 1
                    continue
                }
                group.enter()
                finishing.append(client.retrieveGithubUser(username: login).sink { result in
                    statuses.mutate { $0[result.status, default: 0] += 1 }
                    group.leave()
                })
            }
            XCTAssertEqual(group.wait(timeout: .now() + 30), .success)
            cancelling.forEach { $0.cancel() }
            finishing.forEach { $0.cancel() }
        }
        XCTAssertEqual(statuses.value[.found], total / 4)
        XCTAssertEqual(statuses.value[.notFound], total / 4)
        XCTAssertEqual(statuses.value[.unavailable], total / 4)
        XCTAssertEqual(cancelled, total / 4)
        let spares = http.configuration.spareEasyHandles
        XCTAssertTrue(
            waitUntil(timeout: 10) { CurlHTTPClient.liveEasyHandles <= baseline + spares },
            "live easy handles: \(CurlHTTPClient.liveEasyHandles), baseline \(baseline), spares at most \(spares)")
        http.shutdown()
        XCTAssertEqual(CurlHTTPClient.liveEasyHandles, baseline, "a client that has shut down holds no easy handle")
        XCTAssertGreaterThan(fake.requestCount, 0)
    }
}
