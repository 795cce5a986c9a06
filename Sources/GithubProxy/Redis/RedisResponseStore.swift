import Foundation

/// The replicas' shared cache in Redis: one key per entry (`<prefix><key>`), its JSON as the
/// value, expiring by Redis's own TTL (`SET … PX`). Failures count as misses and are reported
/// to `onFailure` (for the "Redis unavailable" log and metric); nothing waits longer than the
/// client's timeout.
public final class RedisResponseStore: SharedResponseStore, @unchecked Sendable {
    // Sendable: `reachable` is guarded by `lock`; the rest is immutable.
    private let client: RedisClient
    private let lock = NSLock()
    private var reachable = true
    private let prefix: String
    private let onFailure: @Sendable (RedisError) -> Void

    public init(client: RedisClient, prefix: String = "serviceapp:cache:", onFailure: @escaping @Sendable (RedisError) -> Void = { _ in }) {
        self.client = client
        self.prefix = prefix
        self.onFailure = onFailure
    }

    /// Whether the last command reached Redis (true until one did not; a server error reply
    /// still counts as reached). For `/readyz`.
    public var isAvailable: Bool { lock.withLock { reachable } }

    public func load(_ key: String, completion: @escaping @Sendable (SharedEntry?) -> Void) {
        client.run(["GET", prefix + key.lowercased()]) { [self] result in
            note(result)
            switch result {
            case .success(.string(let bytes)):
                completion(try? JSONDecoder().decode(SharedEntry.self, from: Data(bytes)))
            case .success, .failure:
                completion(nil)
            }
        }
    }

    /// Records whether Redis was reached, and reports a failure.
    private func note(_ result: Result<RedisReply, RedisError>) {
        let reached: Bool
        switch result {
        case .success, .failure(.server): reached = true
        case .failure(.connection), .failure(.timeout): reached = false
        }
        lock.withLock { reachable = reached }
        if case .failure(let error) = result { onFailure(error) }
    }

    public func save(_ key: String, _ entry: SharedEntry, ttl: TimeInterval) {
        guard ttl >= 0.001, let json = try? JSONEncoder().encode(entry) else { return }
        let milliseconds = String(Int((ttl * 1_000).rounded(.up)))
        client.run([Array("SET".utf8), Array((prefix + key.lowercased()).utf8), Array(json), Array("PX".utf8), Array(milliseconds.utf8)]) {
            [self] result in note(result)
        }
    }
}
