/// Token buckets replicas share (Redis, with `RedisTokenBuckets`): fair use's per-client lookup
/// allowance, so a client spreading its lookups over replicas gets one allowance, not one each.
public protocol SharedTokenBuckets: Sendable {
    /// Takes one token from `key`'s bucket (`capacity` tokens, refilled at `refillPerSecond`;
    /// a new bucket is full). `completion(nil)`: taken; `completion(seconds)`: empty for that
    /// long. Unreachable → nil (each replica's own bucket decides). Runs once, on any thread.
    func spend(_ key: String, capacity: Int, refillPerSecond: Double, completion: @escaping @Sendable (Int?) -> Void)
}
