import Foundation
import StreamCore

extension Publisher {
    /// The activity stage (the seed's `handleEvents` feeding `networkActivityPublisher`):
    /// `activity` is told when the subscription starts and when it completes or is cancelled,
    /// once.
    func reportingActivity(to activity: NetworkActivity?) -> AnyPublisher<Output, Failure> {
        guard let activity else { return eraseToAnyPublisher() }
        let token = ActivityToken()
        return handleEvents(
            receiveSubscription: { _ in token.value = activity.begin() },
            receiveCompletion: { _ in token.take().map { activity.end($0) } },
            receiveCancel: { token.take().map { activity.end($0) } }
        )
        .eraseToAnyPublisher()
    }
}

/// The activity of one subscription; ended at most once.
final class ActivityToken: @unchecked Sendable {
    // Sendable: `stored` is guarded by `lock`.
    private let lock = NSLock()
    private var stored: NetworkActivity.Token?

    var value: NetworkActivity.Token? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }

    func take() -> NetworkActivity.Token? {
        lock.withLock {
            defer { stored = nil }
            return stored
        }
    }
}
