/// Open-session counts replicas share (Redis, with `RedisSessionCounts`): fair use's sessions per
/// client, so a client spreading its WebSockets over replicas gets one allowance, not one each.
/// Each session is counted under its own identifier, so closing is idempotent: a close after an
/// open whose answer was lost, or after a Redis restart, never takes another session's place.
public protocol SharedSessionCounts: Sendable {
    /// Counts `session` of `client` unless the client has `limit` open on all replicas together:
    /// `completion(true)` counted, `false` refused (nothing counted), `nil` no answer (Redis
    /// unreachable or slow: each replica's own count decides; `close` it all the same).
    /// Runs once, on any thread.
    func open(_ client: String, session: String, limit: Int, completion: @escaping @Sendable (Bool?) -> Void)
    /// `session` of `client` closed (nothing happens if it was never counted).
    func close(_ client: String, session: String)
}
