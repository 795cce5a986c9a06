/// A caller's own allowance of upstream requests (fair use: one client cannot spend everyone's
/// GitHub quota). Asked only when a lookup really goes upstream: never for answers from the
/// cache or lookups that join a request already in flight.
public protocol UpstreamQuota: Sendable {
    /// Takes one request from the allowance: nil when allowed, else the seconds until the next
    /// one would be.
    func spend() -> Int?
    /// `spend()`, where the answer may take a round trip (an allowance replicas share):
    /// `completion` runs once, on any thread. By default, `spend()` at once.
    func spend(completion: @escaping @Sendable (Int?) -> Void)
    /// Whether the allowance is known to be spent now, without taking from it: the seconds
    /// until the next request would be allowed (the refusal reported as `spend` reports one),
    /// else nil — also when only a round trip could tell. A lookup asks before it reports
    /// activity, so that one refused at once never shows `activity`. By default nil.
    func refusalIfSpent() -> Int?
}

extension UpstreamQuota {
    public func spend(completion: @escaping @Sendable (Int?) -> Void) { completion(spend()) }

    public func refusalIfSpent() -> Int? { nil }
}
