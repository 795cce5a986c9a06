import Foundation
@testable import GithubProxy
import HTTPTestSupport
import StreamCore
import XCTest

/// The quota stage: a request goes out only once the caller's quota allows it.
final class QuotaStageTests: FakeGithubTestCase {
    func testARefusedChargeSendsNoRequestAndFailsClientRateLimited() {
        let outcomes = Box<[String]>([])
        let client = makeClient(events: GithubClientEvents(onRequest: { outcome, _ in outcomes.mutate { $0.append(outcome) } }))
        let quota = ScriptedQuota(wait: 7)
        let refused = Box(0)
        let requested = Box(0)
        let result = outcome(of: client.charged(to: quota, refused: { refused.mutate { $0 += 1 } }) {
            requested.mutate { $0 += 1 }
            return Just(1).setFailureType(to: GithubError.self).eraseToAnyPublisher()
        })
        XCTAssertEqual(result.values, [])
        XCTAssertEqual(result.completion, .failure(.clientRateLimited(retryAfterSeconds: 7)))
        XCTAssertEqual(requested.value, 0, "no request after a refused charge")
        XCTAssertEqual(refused.value, 1)
        XCTAssertEqual(quota.asked.value, 1)
        XCTAssertEqual(outcomes.value, ["client_rate_limited"])
    }

    func testAnAllowedChargeOrNoQuotaSendsTheRequestOnSubscription() {
        let client = makeClient()
        for quota in [ScriptedQuota(wait: nil), nil] {
            let requested = Box(0)
            let charged = client.charged(to: quota) {
                requested.mutate { $0 += 1 }
                return Just(1).setFailureType(to: GithubError.self).eraseToAnyPublisher()
            }
            XCTAssertEqual(requested.value, 0, "nothing before subscription")
            let result = outcome(of: charged)
            XCTAssertEqual(result.values, [1])
            XCTAssertEqual(result.completion, .finished)
            XCTAssertEqual(requested.value, 1)
            XCTAssertEqual(quota?.asked.value ?? 1, 1, "charged once")
        }
    }
}
