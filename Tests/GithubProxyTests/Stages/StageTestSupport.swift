import Foundation
@testable import GithubProxy
import HTTPTestSupport
import StreamCore
import XCTest

/// A quota that answers `wait` (nil: allowed) and counts what it was asked.
final class ScriptedQuota: UpstreamQuota, @unchecked Sendable {
    // Sendable: `asked` is a Box; `wait` is immutable.
    private let wait: Int?
    let asked = Box(0)

    init(wait: Int?) { self.wait = wait }

    func spend() -> Int? {
        asked.mutate { $0 += 1 }
        return wait
    }
}

extension XCTestCase {
    /// Subscribes to `publisher` and waits up to ten seconds for its completion: its values and
    /// how it ended.
    func outcome<Value, Failure: Error>(
        of publisher: AnyPublisher<Value, Failure>
    ) -> (values: [Value], completion: Subscribers.Completion<Failure>?) {
        let values = Box<[Value]>([])
        let completion = Box<Subscribers.Completion<Failure>?>(nil)
        let done = expectation(description: "completion")
        let cancellable = publisher.sink(
            receiveCompletion: { ending in
                completion.mutate { $0 = ending }
                done.fulfill()
            },
            receiveValue: { value in values.mutate { $0.append(value) } }
        )
        wait(for: [done], timeout: 10)
        cancellable.cancel()
        return (values.value, completion.value)
    }
}

extension GithubUser {
    static func sample(_ login: String) -> GithubUser {
        GithubUser(login: login, id: 1, name: nil, publicRepos: 1, avatarURL: nil, htmlURL: nil)
    }
}
