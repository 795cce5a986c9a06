import Foundation
import GithubProxy
import StreamCore

/// The GitHub client's side of a keystroke: what the service runs most under typing load, a
/// lookup the cache answers (docs/benchmarks.md, "1,000 typing sessions").
enum GithubProxyCases {
    /// The `/ws` pipeline after its throttle: `removeDuplicates → map(retrieveGithubUser) →
    /// switchToLatest → sink`, each result handed on through the session's `NetworkActivity`
    /// (`deliverInOrder`), two logins in turn, both cached fresh. An operation is one value:
    /// a lookup made, subscribed and answered without a request.
    final class FreshLookup: BatchOperation {
        private let subject = PassthroughSubject<String, Never>()
        private var cancellable: AnyCancellable?
        private var sum = 0
        private var next = 0
        private let logins = ["heckj", "octocat"]

        init() {
            // Nothing listens there: a request would fail, and the case would count 0 users.
            let client = GithubClient(configuration: .init(baseURL: URL(string: "http://127.0.0.1:9")!))
            for (id, login) in logins.enumerated() {
                let user = GithubUser(login: login, id: id, name: nil, publicRepos: 1, avatarURL: nil, htmlURL: nil)
                _ = client.cache.store(user, etag: nil, directives: CacheDirectives(maxAge: 86_400), for: login)
            }
            let activity = NetworkActivity()
            cancellable = subject
                .removeDuplicates()
                .map { client.retrieveGithubUser(username: $0, activity: activity) }
                .switchToLatest()
                .sink { [unowned self] result in
                    activity.deliverInOrder {}
                    sum &+= result.users.count
                }
        }

        func run(_ count: Int) -> Int {
            for _ in 0..<count {
                subject.send(logins[next & 1])
                next &+= 1
            }
            precondition(sum == next, "every lookup is answered from the cache")
            return sum
        }
    }
}
