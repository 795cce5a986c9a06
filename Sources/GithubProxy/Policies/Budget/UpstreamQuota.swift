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
}

extension UpstreamQuota {
    public func spend(completion: @escaping @Sendable (Int?) -> Void) { completion(spend()) }
}
