/// How many more messages the reader of a `WebSocketSession` wants: a count, or unlimited.
/// The same arithmetic as Combine's `Subscribers.Demand` (adding saturates, unlimited absorbs),
/// without depending on a Combine library.
public struct WebSocketDemand: Sendable, Hashable {
    /// nil: unlimited.
    public let max: Int?

    private init(max: Int?) { self.max = max }

    /// No more now.
    public static let none = WebSocketDemand(max: 0)
    /// Every message, as it comes.
    public static let unlimited = WebSocketDemand(max: nil)

    /// `count` more messages (negative counts as 0).
    public static func max(_ count: Int) -> WebSocketDemand { WebSocketDemand(max: Swift.max(0, count)) }

    /// Whether at least one more message is wanted.
    var wantsMore: Bool { max.map { $0 > 0 } ?? true }

    static func + (lhs: WebSocketDemand, rhs: WebSocketDemand) -> WebSocketDemand {
        guard let left = lhs.max, let right = rhs.max else { return .unlimited }
        let (sum, overflow) = left.addingReportingOverflow(right)
        return overflow ? .unlimited : .max(sum)
    }

    /// One message fewer (unlimited stays unlimited).
    func afterOne() -> WebSocketDemand {
        guard let max else { return self }
        return .max(max - 1)
    }
}
