/// Why `/ws/pipelines` refused a client frame: the `code` of an `error` frame.
///
/// An open set (a raw string with the contract's codes as constants), so that a client reads a
/// code a newer server adds instead of failing on it.
public struct MuxErrorCode: RawRepresentable, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// The code as the frame carries it (`bad_message`, …).
    public let rawValue: String

    /// A code; any string, so that codes a newer server adds are read too.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Not a JSON object, no or unknown `type`, a missing or malformed field, a binary frame.
    public static let badMessage = MuxErrorCode(rawValue: "bad_message")
    /// `subscribe` names no pipeline of the catalog.
    public static let unknownPipeline = MuxErrorCode(rawValue: "unknown_pipeline")
    /// `subscribe`'s definition object is refused (the error's `stage` says where).
    public static let badPipeline = MuxErrorCode(rawValue: "bad_pipeline")
    /// `send`, `request` or `cancel` names no live subscription.
    public static let unknownID = MuxErrorCode(rawValue: "unknown_id")
    /// `subscribe` names an id that is live already.
    public static let duplicateID = MuxErrorCode(rawValue: "duplicate_id")
    /// `demand` or `n` is not a valid demand.
    public static let badDemand = MuxErrorCode(rawValue: "bad_demand")
    /// The connection has `mux.maxSubscriptions` live subscriptions.
    public static let tooManySubscriptions = MuxErrorCode(rawValue: "too_many_subscriptions")
    /// The client has `limits.sessionsPerClient` sessions open (each subscription counts).
    public static let tooManySessions = MuxErrorCode(rawValue: "too_many_sessions")

    /// Every code the contract defines, in its order.
    public static let allCases: [MuxErrorCode] = [
        .badMessage, .unknownPipeline, .badPipeline, .unknownID, .duplicateID, .badDemand, .tooManySubscriptions, .tooManySessions,
    ]

    /// The code as the frame carries it.
    public var description: String { rawValue }
}
