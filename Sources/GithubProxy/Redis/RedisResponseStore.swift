import Foundation

/// The replicas' shared cache in Redis: one key per entry (`<prefix><key>`), its JSON as the
/// value, expiring by Redis's own TTL (`SET … PX`). Failures count as misses and are reported
/// to `onFailure` (for the "Redis unavailable" log and metric); nothing waits longer than the
/// client's timeout.
public final class RedisResponseStore: SharedResponseStore {
    private let client: RedisClient
    private let prefix: String
    private let onFailure: @Sendable (RedisError) -> Void

    public init(client: RedisClient, prefix: String = "serviceapp:cache:", onFailure: @escaping @Sendable (RedisError) -> Void = { _ in }) {
        self.client = client
        self.prefix = prefix
        self.onFailure = onFailure
    }

    public func load(_ key: String, completion: @escaping @Sendable (SharedEntry?) -> Void) {
        client.run(["GET", prefix + key.lowercased()]) { [onFailure] result in
            switch result {
            case .success(.string(let bytes)):
                completion(try? JSONDecoder().decode(SharedEntry.self, from: Data(bytes)))
            case .success:
                completion(nil)
            case .failure(let error):
                onFailure(error)
                completion(nil)
            }
        }
    }

    public func save(_ key: String, _ entry: SharedEntry, ttl: TimeInterval) {
        guard ttl >= 0.001, let json = try? JSONEncoder().encode(entry) else { return }
        let milliseconds = String(Int((ttl * 1_000).rounded(.up)))
        client.run([Array("SET".utf8), Array((prefix + key.lowercased()).utf8), Array(json), Array("PX".utf8), Array(milliseconds.utf8)]) {
            [onFailure] result in
            if case .failure(let error) = result { onFailure(error) }
        }
    }
}
