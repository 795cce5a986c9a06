/// The accumulation a `scan` stage runs over the values.
public enum ScanFunction: Equatable, Hashable, Sendable {
    /// any → number: how many values have passed.
    case count
    /// string → string: the values so far joined with `separator`.
    case joined(separator: String)

    /// The name the JSON gives it (`fn`).
    public var name: String {
        switch self {
        case .count: "count"
        case .joined: "joined"
        }
    }

    /// Every function's name, in the catalog's order.
    public static let names = ["count", "joined"]
}
