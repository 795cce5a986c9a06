import Foundation

/// Token buckets in Redis: one hash per key (`tokens`, `at` in Redis's milliseconds clock),
/// refilled and spent by one Lua script, so replicas spending from one bucket at once never take
/// the same token twice. A bucket expires once it would be full again.
public final class RedisTokenBuckets: SharedTokenBuckets {
    private let client: RedisClient
    private let prefix: String

    public init(client: RedisClient, prefix: String = "serviceapp:bucket:") {
        self.client = client
        self.prefix = prefix
    }

    public func spend(_ key: String, capacity: Int, refillPerSecond: Double, completion: @escaping @Sendable (Int?) -> Void) {
        let arguments = [String(capacity), String(refillPerSecond / 1_000)]
        client.eval(Self.spendScript, keys: [prefix + key], arguments: arguments, affinity: key) { result in
            guard case .success(.integer(let milliseconds)) = result, milliseconds > 0 else { return completion(nil) }
            completion(max(1, (milliseconds + 999) / 1_000))
        }
    }

    /// ARGV: capacity, refill per millisecond. Returns the milliseconds until a token (0: taken).
    static let spendScript = """
        local time = redis.call('TIME')
        local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
        local capacity, rate = tonumber(ARGV[1]), tonumber(ARGV[2])
        local state = redis.call('HMGET', KEYS[1], 'tokens', 'at')
        local tokens, at = tonumber(state[1]) or capacity, tonumber(state[2]) or now
        tokens = math.min(capacity, tokens + math.max(0, now - at) * rate)
        local wait = 0
        if tokens >= 1 then tokens = tokens - 1
        elseif rate > 0 then wait = math.ceil((1 - tokens) / rate)
        else wait = 60000 end
        redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', now)
        if rate > 0 then redis.call('PEXPIRE', KEYS[1], math.ceil((capacity - tokens) / rate) + 1000) end
        return wait
        """
}
