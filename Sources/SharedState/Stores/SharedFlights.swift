import Foundation

/// What joining a shared flight (one replica's upstream request for a key) came to.
public enum FlightOutcome: Equatable, Sendable {
    /// No replica was fetching: this one does, and calls `land` when its request ends.
    case lead
    /// Another replica's request ended: its answer, if any, is in the shared cache.
    case landed
    /// Another replica is fetching, but no landing came within the wait: fetch on our own.
    case timedOut
}

/// Where replicas coalesce upstream requests (Redis, with `RedisFlights`): sessions on different
/// replicas asking for the same key at once cause one request. An unreachable store makes every
/// caller a lead, so each replica fetches for itself.
public protocol SharedFlights: Sendable {
    /// Joins the flight for `key`: `completion` runs once, on any thread, with `.lead`, or with
    /// `.landed`/`.timedOut` after waiting at most `wait` for another replica's request.
    /// Returns a function that stops waiting (`completion` then never runs).
    func join(_ key: String, wait: Duration, completion: @escaping @Sendable (FlightOutcome) -> Void) -> @Sendable () -> Void
    /// The lead's request for `key` ended (answered, failed or cancelled): the waiting replicas
    /// are told, after everything this replica already sent for `key` (its cache write).
    func land(_ key: String)
}
