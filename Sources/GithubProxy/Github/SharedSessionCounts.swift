/// Open-session counts replicas share (Redis, with `RedisSessionCounts`): fair use's sessions per
/// client, so a client spreading its WebSockets over replicas gets one allowance, not one each.
public protocol SharedSessionCounts: Sendable {
    /// Counts one more session of `client` unless it has `limit` open on all replicas together:
    /// `completion(true)` counted, `false` refused (nothing counted), `nil` unreachable (nothing
    /// counted; each replica's own count decides). Runs once, on any thread.
    func open(_ client: String, limit: Int, completion: @escaping @Sendable (Bool?) -> Void)
    /// A session counted by `open` closed.
    func close(_ client: String)
}
