/// How a `lookup` stage turns its requests, one per value, into one stream of results: the
/// book's lesson on why the seed uses switchToLatest.
public enum Flatten: Equatable, Hashable, Sendable {
    /// `map` + `switchToLatest()`: a new value cancels the request still running.
    case switchToLatest
    /// `flatMap(maxPublishers: .max(n))`: up to `maxPublishers` requests at once, results as
    /// they come.
    case flatMap(maxPublishers: Int)
    /// One request after the other, in the order of the values.
    case concat

    /// The name the JSON gives it (`flatten`).
    public var name: String {
        switch self {
        case .switchToLatest: "switchToLatest"
        case .flatMap: "flatMap"
        case .concat: "concat"
        }
    }

    /// Every flatten's name, in the catalog's order.
    public static let names = ["switchToLatest", "flatMap", "concat"]
}
