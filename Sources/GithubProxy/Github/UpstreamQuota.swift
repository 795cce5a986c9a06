/// A caller's own allowance of upstream requests (fair use: one client cannot spend everyone's
/// GitHub quota). Asked only when a lookup really goes upstream: never for answers from the
/// cache or lookups that join a request already in flight.
public protocol UpstreamQuota: Sendable {
    /// Takes one request from the allowance: nil when allowed, else the seconds until the next
    /// one would be.
    func spend() -> Int?
}
