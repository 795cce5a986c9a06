/// Why a subscription ended by itself: the `failure` of a `completion` frame.
public struct MuxFailure: Equatable, Hashable, Sendable {
    /// The failure's `code`: an open set, with the contract's codes as constants.
    public struct Code: RawRepresentable, Hashable, Sendable, CaseIterable {
        /// The code as the frame carries it (`overflow`).
        public let rawValue: String

        /// A code; any string, so that codes a newer server adds are read too.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// More than `mux.maxPendingEvents` events waited for demand.
        public static let overflow = Code(rawValue: "overflow")

        /// Every code the contract defines.
        public static let allCases: [Code] = [.overflow]
    }

    /// What kind of failure it is.
    public var code: Code
    /// What happened, for people.
    public var message: String

    /// A failure with `code`, saying `message`.
    public init(code: Code, message: String) {
        self.code = code
        self.message = message
    }

    /// The failure of a subscription that let more than `limit` events wait for demand.
    public static func overflow(limit: Int) -> MuxFailure {
        MuxFailure(code: .overflow, message: "more than \(limit) events waited for demand")
    }
}
