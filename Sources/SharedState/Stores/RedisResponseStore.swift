import Foundation

/// The replicas' shared cache in Redis: one key per entry (`<prefix><key>`), its JSON as the
/// value, expiring by Redis's own TTL (`SET … PX`). Failures count as misses (the client reports
/// them); nothing waits longer than the client's timeout. Commands for one key keep one
/// connection (`affinity`), so a write is in Redis before anything sent after it for that key.
public final class RedisResponseStore: SharedResponseStore {
    private let client: RedisClient
    private let prefix: String

    public init(client: RedisClient, prefix: String = "serviceapp:cache:") {
        self.client = client
        self.prefix = prefix
    }

    /// The Redis key of `key`.
    public func redisKey(_ key: String) -> String { prefix + key.lowercased() }

    public func load(_ key: String, completion: @escaping @Sendable (SharedEntry?) -> Void) {
        client.run(["GET", redisKey(key)], affinity: key.lowercased()) { result in
            switch result {
            case .success(.string(let bytes)):
                completion(try? JSONDecoder().decode(SharedEntry.self, from: Data(bytes)))
            case .success, .failure:
                completion(nil)
            }
        }
    }

    public func save(_ key: String, _ entry: SharedEntry, ttl: Duration) {
        guard ttl >= .milliseconds(1), let json = try? JSONEncoder().encode(entry) else { return }
        let milliseconds = String(Int((ttl / .milliseconds(1)).rounded(.up)))
        let command = [Array("SET".utf8), Array(redisKey(key).utf8), Array(json), Array("PX".utf8), Array(milliseconds.utf8)]
        client.run(command, affinity: key.lowercased()) { _ in }
    }
}
