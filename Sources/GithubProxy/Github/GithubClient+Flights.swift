import Foundation
import StreamCore

extension GithubClient {
    /// `fetch` — unless another replica is fetching `key` now: then its answer, taken from the
    /// shared cache once its request lands. When that request failed or was cancelled, or
    /// nothing landed within `flightWait`, `fetch` runs after all. Without shared flights (one
    /// replica, or no cache to pass the answer through) `fetch` runs at once. `key` is lowercased.
    func acrossReplicas(
        key: String, _ fetch: @escaping () -> AnyPublisher<CachedAnswer<GithubUser>, GithubError>
    ) -> AnyPublisher<CachedAnswer<GithubUser>, GithubError> {
        guard let sharedFlights, let sharedCache else { return fetch() }
        return Self.join(sharedFlights, key: key, wait: flightWait)
            .setFailureType(to: GithubError.self)
            .flatMap(maxPublishers: .max(1)) { [self] outcome -> AnyPublisher<CachedAnswer<GithubUser>, GithubError> in
                switch outcome {
                case .lead:
                    return fetch()
                        .handleEvents(
                            receiveCompletion: { _ in sharedFlights.land(key) },
                            receiveCancel: { sharedFlights.land(key) }
                        )
                        .eraseToAnyPublisher()
                case .timedOut:
                    return fetch()
                case .landed:
                    return Self.load(key, from: sharedCache)
                        .setFailureType(to: GithubError.self)
                        .flatMap(maxPublishers: .max(1)) { [self] shared -> AnyPublisher<CachedAnswer<GithubUser>, GithubError> in
                            if let shared { adopt(shared, for: key) }
                            guard let entry = cache.fresh(for: key) else { return fetch() }
                            events.served(.fresh)
                            guard let user = entry.value else { return Fail(error: .notFound).eraseToAnyPublisher() }
                            return Just(answer(user, .fresh, entry, in: cache)).setFailureType(to: GithubError.self).eraseToAnyPublisher()
                        }
                        .eraseToAnyPublisher()
                }
            }
            .eraseToAnyPublisher()
    }

    /// `SharedFlights.join` as a publisher of its one outcome; cancelling stops the wait.
    private static func join(_ flights: any SharedFlights, key: String, wait: TimeInterval) -> AnyPublisher<FlightOutcome, Never> {
        Deferred { () -> AnyPublisher<FlightOutcome, Never> in
            let stop = StopWaiting()
            return callbackPublisher { done in stop.set(flights.join(key, wait: wait, completion: done)) }
            .handleEvents(receiveCancel: { stop.run() })
            .eraseToAnyPublisher()
        }
        .eraseToAnyPublisher()
    }

    /// The shared entry for `key` (nil when absent or the store is unreachable).
    static func load(_ key: String, from store: any SharedResponseStore) -> AnyPublisher<SharedEntry?, Never> {
        callbackPublisher { store.load(key, completion: $0) }
    }
}

/// The function that stops one flight wait, run at most once.
private final class StopWaiting: @unchecked Sendable {
    // Sendable: `stop` is guarded by `lock`.
    private let lock = NSLock()
    private var stop: (@Sendable () -> Void)?

    func set(_ stop: @escaping @Sendable () -> Void) { lock.withLock { self.stop = stop } }

    func run() {
        let stop = lock.withLock { () -> (@Sendable () -> Void)? in
            defer { self.stop = nil }
            return self.stop
        }
        stop?()
    }
}
