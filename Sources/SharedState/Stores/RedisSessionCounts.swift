import Dispatch
import Foundation
import Locking

/// Open sessions per client in Redis: one hash per client, a field per session
/// (`<replica>|<session>`). A replica proves it is alive with a key it renews every 10 s (30 s
/// lifetime); the open script counts only live replicas' sessions and deletes the others, so the
/// sessions of a replica that was killed stop counting within 30 s. Counting and checking are
/// one Lua script: replicas admitting sessions of one client at once never pass the limit
/// together. Closing deletes the session's field, so it can be repeated harmlessly.
public final class RedisSessionCounts: SharedSessionCounts, Sendable {
    private let client: RedisClient
    private let prefix: String
    private let replica = UUID().uuidString
    /// Renews this replica's key every 10 s (a Dispatch source, which is not `Sendable`: reached
    /// only under its lock).
    private let timer = Locked(DispatchSource.makeTimerSource(queue: DispatchQueue(label: "redis.heartbeat")))

    public init(client: RedisClient, prefix: String = "serviceapp:") {
        self.client = client
        self.prefix = prefix
        timer.withLock { timer in
            timer.schedule(deadline: .now(), repeating: .seconds(10), leeway: .seconds(1))
            timer.setEventHandler { [weak self] in self?.renew() }
            timer.resume()
        }
    }

    deinit { timer.withLock { $0.cancel() } }

    /// Stops renewing this replica's key and deletes it (at shutdown): its counts stop counting.
    public func stop() {
        timer.withLock { $0.cancel() }
        client.run(["DEL", replicaKey]) { _ in }
    }

    private var replicaKey: String { prefix + "replica:" + replica }

    private func renew() {
        client.run(["SET", replicaKey, "1", "PX", "30000"]) { _ in }
    }

    public func open(_ client: String, session: String, limit: Int, completion: @escaping @Sendable (Bool?) -> Void) {
        let arguments = [replica, replica + "|" + session, String(limit), prefix + "replica:"]
        self.client.eval(Self.openScript, keys: [prefix + "sessions:" + client], arguments: arguments, affinity: client) { result in
            switch result {
            case .success(.integer(let counted)): completion(counted == 1)
            case .success, .failure: completion(nil)
            }
        }
    }

    public func close(_ client: String, session: String) {
        self.client.run(["HDEL", prefix + "sessions:" + client, replica + "|" + session], affinity: client) { _ in }
    }

    /// ARGV: this replica, this session's field, the limit, the replica keys' prefix.
    /// 1: counted; 0: at the limit.
    static let openScript = """
        local fields = redis.call('HKEYS', KEYS[1])
        local alive, total = {}, 0
        for _, field in ipairs(fields) do
          local replica = string.match(field, '^([^|]+)|')
          if replica and alive[replica] == nil then
            alive[replica] = replica == ARGV[1] or redis.call('EXISTS', ARGV[4] .. replica) == 1
          end
          if replica and alive[replica] then total = total + 1 else redis.call('HDEL', KEYS[1], field) end
        end
        if total >= tonumber(ARGV[3]) then return 0 end
        redis.call('HSET', KEYS[1], ARGV[2], 1)
        redis.call('EXPIRE', KEYS[1], 86400)
        return 1
        """
}
