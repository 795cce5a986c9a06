import Foundation
import Locking
import SharedState
@_spi(ServerSupport) import StreamCore

extension GithubClient {
    /// The flights stage: `fetch` — unless another replica is fetching `key` now: then its answer, taken from the
    /// shared cache once its request lands, with nothing fetched or charged here. When that
    /// request failed or was cancelled, or nothing landed within `flightWait`, `fetch` runs after
    /// all. Without shared flights (one replica, or no cache to pass the answer through) `fetch`
    /// runs at once. `fetch` is given this replica's end of the flight (`FlightEnd`): a lead's
    /// lands it; a follower's does nothing. `key` is lowercased.
    ///
    /// A landing without an answer (the lead failed or left) is followed by one more join, so
    /// the followers elect a new lead instead of all fetching at once; after a second such
    /// landing, each fetches.
    func acrossReplicas(
        key: String, rejoin: Bool = true, _ fetch: @escaping (FlightEnd) -> AnyPublisher<CachedAnswer<GithubUser>, GithubError>
    ) -> AnyPublisher<CachedAnswer<GithubUser>, GithubError> {
        guard let sharedFlights, let sharedCache else { return fetch(FlightEnd()) }
        return Self.join(sharedFlights, key: key, wait: configuration.flightWait)
            .setFailureType(to: GithubError.self)
            .flatMap(maxPublishers: .max(1)) { [self] outcome -> AnyPublisher<CachedAnswer<GithubUser>, GithubError> in
                switch outcome {
                case .lead:
                    let end = FlightEnd { sharedFlights.land(key) }
                    return fetch(end)
                        .handleEvents(receiveCancel: end.abandon)
                        .eraseToAnyPublisher()
                case .timedOut:
                    return fetch(FlightEnd())
                case .landed:
                    return Self.load(key, from: sharedCache)
                        .setFailureType(to: GithubError.self)
                        .flatMap(maxPublishers: .max(1)) { [self] shared -> AnyPublisher<CachedAnswer<GithubUser>, GithubError> in
                            if let shared { adopt(shared, for: key) }
                            if let fresh = freshAnswer(for: key) { return fresh }
                            return rejoin ? acrossReplicas(key: key, rejoin: false, fetch) : fetch(FlightEnd())
                        }
                        .eraseToAnyPublisher()
                }
            }
            .eraseToAnyPublisher()
    }

    /// `SharedFlights.join` as a publisher of its one outcome; cancelling stops the wait.
    private static func join(_ flights: any SharedFlights, key: String, wait: Duration) -> AnyPublisher<FlightOutcome, Never> {
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
private final class StopWaiting: Sendable {
    private let stop = Locked<(@Sendable () -> Void)?>(nil)

    func set(_ stop: @escaping @Sendable () -> Void) { self.stop.withLock { $0 = stop } }

    func run() {
        let stop = stop.withLock { stop -> (@Sendable () -> Void)? in
            defer { stop = nil }
            return stop
        }
        stop?()
    }
}

/// This replica's end of a flight. A lead's lands it exactly once: when its request ends
/// (`land`, once `handOver` gave the request that job), or when no request of its own is sent
/// (`land` at once), or when its subscriber leaves first (`abandon`). A follower's does nothing.
final class FlightEnd: Sendable {
    private enum State: Sendable {
        /// The lead's flight, until its request takes over or its subscriber leaves.
        case flying(landing: @Sendable () -> Void)
        /// The lead's own request ends the flight; a subscriber leaving no longer does.
        case handedOver(landing: @Sendable () -> Void)
        /// Landed, or a follower's (nothing to land).
        case landed
    }
    private let state: Locked<State>

    init(_ landing: (@Sendable () -> Void)? = nil) { state = Locked(landing.map { .flying(landing: $0) } ?? .landed) }

    /// Lands the flight (at most once).
    var land: @Sendable () -> Void {
        { [self] in take(ifNotHandedOver: false)?() }
    }

    /// The request of this replica's own now ends the flight: a subscriber leaving no longer
    /// does (others may still share the request).
    func handOver() {
        state.withLock { state in
            if case .flying(let landing) = state { state = .handedOver(landing: landing) }
        }
    }

    /// The subscriber left before handing over: lands the flight.
    var abandon: @Sendable () -> Void {
        { [self] in take(ifNotHandedOver: true)?() }
    }

    private func take(ifNotHandedOver: Bool) -> (@Sendable () -> Void)? {
        state.withLock { state in
            switch state {
            case .flying(let landing):
                state = .landed
                return landing
            case .handedOver(let landing):
                guard !ifNotHandedOver else { return nil }
                state = .landed
                return landing
            case .landed:
                return nil
            }
        }
    }
}
