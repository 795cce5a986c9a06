/// Why `/ws/pipelines` refused a client frame: the `code` of an `error` frame.
enum MuxErrorCode: String, CaseIterable, Sendable {
    /// Not a JSON object, no or unknown `type`, a missing or malformed field, a binary frame.
    case badMessage = "bad_message"
    /// `subscribe` names no pipeline of the catalog.
    case unknownPipeline = "unknown_pipeline"
    /// `send`, `request` or `cancel` names no live subscription.
    case unknownID = "unknown_id"
    /// `subscribe` names an id that is live already.
    case duplicateID = "duplicate_id"
    /// `demand` or `n` is not a valid demand.
    case badDemand = "bad_demand"
    /// The connection has `mux.maxSubscriptions` live subscriptions.
    case tooManySubscriptions = "too_many_subscriptions"
    /// The client has `limits.sessionsPerClient` sessions open (each subscription counts).
    case tooManySessions = "too_many_sessions"
}
