import Dispatch
import Foundation
import Locking

/// Cross-replica coalescing in Redis. The lead of a flight holds `<prefix>lock:<key>` (`SET NX PX`,
/// expiring after the wait, so a crashed lead never blocks anyone for longer); the others wait
/// for its landing, a message on one channel that every replica subscribes to. A lead lands by
/// deleting its lock (only its own) and publishing the key, on the connection its cache write
/// went through, so a follower that hears the landing finds the answer in the shared cache.
///
/// Waiters are registered before the claim is sent, so a landing is never missed between the
/// two; while the subscription is down (Redis restarting), a follower does not wait at all.
public final class RedisFlights: SharedFlights, Sendable {
    private struct State: Sendable {
        /// Each key's waiting lookups, by id.
        var waiters: [String: [UInt64: @Sendable (FlightOutcome) -> Void]] = [:]
        /// The waiters following another replica's flight.
        var following: Set<UInt64> = []
        /// The claim tokens of the flights this replica leads, by key.
        var tokens: [String: String] = [:]
        var nextID: UInt64 = 0
    }
    private let client: RedisClient
    private let prefix: String
    private let channel: String
    private let replica = UUID().uuidString
    private let state = Locked(State())
    /// The landings' subscriber: made in `init`, once `self` can be handed to it.
    private let landings = Locked<RedisSubscriber?>(nil)

    public init(client: RedisClient, prefix: String = "serviceapp:flight:") {
        self.client = client
        self.prefix = prefix
        channel = prefix + "landed"
        let subscriber = RedisSubscriber(client: client, channel: channel) { [weak self] payload in
            self?.landed(String(decoding: payload, as: UTF8.self))
        }
        landings.withLock { $0 = subscriber }
    }

    deinit { subscriber?.stop() }

    private var subscriber: RedisSubscriber? { landings.withLock { $0 } }

    /// Whether landings reach this replica now (false while Redis is unreachable).
    public var isSubscribed: Bool { subscriber?.isSubscribed == true }

    /// Lookups of this replica waiting for another replica's request now.
    public var followers: Int { state.withLock { $0.following.count } }

    /// Stops listening for landings (at shutdown).
    public func stop() { subscriber?.stop() }

    public func join(_ key: String, wait: Duration, completion: @escaping @Sendable (FlightOutcome) -> Void) -> @Sendable () -> Void {
        let key = key.lowercased()
        let (id, token) = state.withLock { state -> (UInt64, String) in
            state.nextID += 1
            state.waiters[key, default: [:]][state.nextID] = completion
            return (state.nextID, "\(replica):\(state.nextID)")
        }
        let milliseconds = max(1, Int(wait / .milliseconds(1)))
        client.eval(Self.claimScript, keys: [prefix + "lock:" + key], arguments: [token, String(milliseconds)], affinity: key) {
            [self] result in
            switch result {
            case .success(.integer(0)):
                // Another replica leads: wait for its landing, or give up after `wait`.
                guard subscriber?.isSubscribed == true else { return finish(key, id, .timedOut) }
                state.withLock { state in if state.waiters[key]?[id] != nil { state.following.insert(id) } }
                DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(milliseconds)) { [self] in
                    finish(key, id, .timedOut)
                }
            case .success(.integer(1)):
                // The claim is ours; if the lookup left meanwhile (a newer keystroke, or a
                // landing of the previous flight answered it), nobody will land it: release it
                // now rather than make the others wait it out.
                guard let completion = remove(key, id) else { return release(key, token) }
                state.withLock { $0.tokens[key] = token }
                completion(.lead)
            default:
                // No answer (Redis unreachable or slow; the claim may still have been made):
                // fetch on our own, and give back a claim that may be ours.
                release(key, token)
                finish(key, id, .timedOut)
            }
        }
        return { [weak self] in self?.remove(key, id) }
    }

    public func land(_ key: String) {
        let key = key.lowercased()
        guard let token = state.withLock({ $0.tokens.removeValue(forKey: key) }) else { return }
        release(key, token)
    }

    /// Deletes the claim on `key` if it is `token`'s, and announces the landing.
    private func release(_ key: String, _ token: String) {
        client.eval(Self.landScript, keys: [prefix + "lock:" + key], arguments: [token, channel, key], affinity: key) { _ in }
    }

    /// Every waiter of `key` is told the flight landed.
    private func landed(_ key: String) {
        let waiting = state.withLock { state -> [UInt64: @Sendable (FlightOutcome) -> Void] in
            let waiting = state.waiters.removeValue(forKey: key) ?? [:]
            state.following.subtract(waiting.keys)
            return waiting
        }
        for completion in waiting.values { completion(.landed) }
    }

    /// Tells waiter `id` of `key` its outcome, unless it was told or stopped already.
    private func finish(_ key: String, _ id: UInt64, _ outcome: FlightOutcome) {
        remove(key, id)?(outcome)
    }

    @discardableResult
    private func remove(_ key: String, _ id: UInt64) -> (@Sendable (FlightOutcome) -> Void)? {
        state.withLock { state in
            state.following.remove(id)
            let completion = state.waiters[key]?.removeValue(forKey: id)
            if state.waiters[key]?.isEmpty == true { state.waiters[key] = nil }
            return completion
        }
    }

    /// 1: this caller leads (the lock is its); 0: another replica leads.
    static let claimScript = """
        if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return 1 end
        return 0
        """

    /// Releases the lock if it is still the caller's, then announces the landing.
    static let landScript = """
        if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
        redis.call('PUBLISH', ARGV[2], ARGV[3])
        return 1
        """
}
