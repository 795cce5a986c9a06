import Foundation

/// GitHub's rate limits shared in Redis: one hash per resource (`remaining`, `reset` and
/// `paused`, times in Redis's own milliseconds clock so replicas' clocks never disagree), read and
/// written only by two Lua scripts, which Redis runs atomically. Each request takes one from
/// `remaining` (so the last one is never spent twice); each response sets it to what GitHub
/// says. The hash expires a minute after its window or pause ends. Resource names are keys: the
/// caller bounds them (GithubProxy's `RateLimits.name(of:)`).
public final class RedisRateLimitStore: SharedRateLimitStore {
    private let client: RedisClient
    private let prefix: String

    public init(client: RedisClient, prefix: String = "serviceapp:ratelimit:") {
        self.client = client
        self.prefix = prefix
    }

    public func take(_ resource: String, completion: @escaping @Sendable (Int?) -> Void) {
        client.eval(Self.takeScript, keys: [prefix + resource], arguments: []) { result in
            guard case .success(.integer(let milliseconds)) = result, milliseconds > 0 else { return completion(nil) }
            completion(max(1, (milliseconds + 999) / 1_000))
        }
    }

    public func record(_ resource: String, _ reading: RateLimitReading) {
        guard !reading.isEmpty else { return }
        let arguments = [
            reading.remaining.map(String.init) ?? "",
            reading.reset.map { String(Int(($0.timeIntervalSince1970 * 1_000).rounded())) } ?? "",
            reading.pauseSeconds.map { String($0 * 1_000) } ?? "",
        ]
        client.eval(Self.recordScript, keys: [prefix + resource], arguments: arguments) { _ in }
    }

    /// Returns the milliseconds to wait (0: go). While the window is known and open, a request is
    /// taken from `remaining`; at 0 the caller waits for `reset`. A pause wins over both.
    static let takeScript = """
        local time = redis.call('TIME')
        local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
        local state = redis.call('HMGET', KEYS[1], 'remaining', 'reset', 'paused')
        local remaining, reset, paused = tonumber(state[1]), tonumber(state[2]), tonumber(state[3])
        if paused and paused > now then return paused - now end
        if remaining and reset and reset > now then
          if remaining <= 0 then return reset - now end
          redis.call('HINCRBY', KEYS[1], 'remaining', -1)
        end
        return 0
        """

    /// ARGV: remaining, reset (ms since 1970), pause (ms); each may be empty. A newer window
    /// replaces the old one; within one window the latest reading wins: GitHub's count is the
    /// truth, and the takes since then (requests it did not charge, such as a `304`, or that
    /// never reached it) must not lower it for good. A pause only grows.
    static let recordScript = """
        local time = redis.call('TIME')
        local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
        local remaining, reset, pause = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
        local state = redis.call('HMGET', KEYS[1], 'remaining', 'reset', 'paused')
        local oldRemaining, oldReset, oldPaused = tonumber(state[1]), tonumber(state[2]), tonumber(state[3])
        if remaining and reset then
          if not oldReset or reset > oldReset then
            redis.call('HSET', KEYS[1], 'remaining', remaining, 'reset', reset)
          elseif reset == oldReset then
            redis.call('HSET', KEYS[1], 'remaining', remaining)
          end
        end
        if pause and pause > 0 and (not oldPaused or now + pause > oldPaused) then
          redis.call('HSET', KEYS[1], 'paused', now + pause)
        end
        state = redis.call('HMGET', KEYS[1], 'reset', 'paused')
        local last = math.max(tonumber(state[1]) or 0, tonumber(state[2]) or 0)
        if last > now then redis.call('PEXPIRE', KEYS[1], last - now + 60000) else redis.call('PEXPIRE', KEYS[1], 60000) end
        return 1
        """
}
