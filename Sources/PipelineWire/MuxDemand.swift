/// A demand on the wire of `/ws/pipelines`: how many more events a subscription may be sent, as
/// the `demand` of `subscribe` and the `n` of `request` carry it (an integer, or `"unlimited"`).
///
/// The codec's own small type, so that this module needs only Foundation; the multiplexer and
/// `RemotePipeline` convert it to and from StreamCore's `Subscribers.Demand` at their edges.
public enum MuxDemand: Equatable, Hashable, Sendable {
    /// `"unlimited"`.
    case unlimited
    /// An integer from 0 to 2^63 − 1 (`Int.max`).
    case max(Int)

    /// No demand (`0`).
    public static let none = MuxDemand.max(0)

    /// The demand as the contract writes it: an integer or `"unlimited"`.
    public var json: String {
        switch self {
        case .unlimited: #""unlimited""#
        case .max(let count): String(count)
        }
    }
}
