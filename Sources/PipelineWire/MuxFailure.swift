/// Why a subscription ended by itself: the `failure` of a `completion` frame.
public struct MuxFailure: Equatable, Hashable, Sendable {
    /// The failure's `code`: an open set, with the contract's codes as constants.
    public struct Code: RawRepresentable, Hashable, Sendable, CaseIterable {
        public let rawValue: String

        public init(rawValue: String) { self.rawValue = rawValue }

        /// More than `mux.maxPendingEvents` events waited for demand.
        public static let overflow = Code(rawValue: "overflow")

        /// Every code the contract defines.
        public static let allCases: [Code] = [.overflow]
    }

    public var code: Code
    public var message: String

    public init(code: Code, message: String) {
        self.code = code
        self.message = message
    }

    /// The failure of a subscription that let more than `limit` events wait for demand.
    public static func overflow(limit: Int) -> MuxFailure {
        MuxFailure(code: .overflow, message: "more than \(limit) events waited for demand")
    }
}
