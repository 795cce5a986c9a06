/// A token bucket: `capacity` tokens, refilled continuously at one per `refillInterval`; each
/// spend takes one. Pure value on explicit instants of the continuous clock, so tests drive it
/// on virtual time (instants they advance themselves).
struct TokenBucket: Sendable, Equatable {
    let capacity: Double
    /// The time one token takes to come back; nil: the bucket never refills.
    let refillInterval: Duration?
    private(set) var tokens: Double
    private var updatedAt: ContinuousClock.Instant

    /// A full bucket at `now`; a `refillInterval` that is nil, zero or negative never refills.
    init(capacity: Int, refillInterval: Duration?, now: ContinuousClock.Instant) {
        self.capacity = Double(max(0, capacity))
        self.refillInterval = refillInterval.flatMap { $0 > .zero ? $0 : nil }
        tokens = self.capacity
        updatedAt = now
    }

    /// Takes one token: nil when there was one, else the whole seconds until there will be (at
    /// least 1).
    mutating func spend(now: ContinuousClock.Instant) -> Int? {
        refill(now: now)
        if tokens >= 1 {
            tokens -= 1
            return nil
        }
        guard let refillInterval else { return 60 }
        // (Less a nanosecond, so that float noise never rounds a whole second up to the next.)
        return max(1, Int(((1 - tokens) * (refillInterval / .seconds(1)) - 1e-9).rounded(.up)))
    }

    /// Whether it is full at `now` (its client has nothing to remember).
    func isFull(now: ContinuousClock.Instant) -> Bool {
        tokens + refilled(over: now - updatedAt) >= capacity
    }

    /// Tokens that come back over `elapsed` (none for a negative span).
    private func refilled(over elapsed: Duration) -> Double {
        guard let refillInterval, elapsed > .zero else { return 0 }
        return elapsed / refillInterval
    }

    private mutating func refill(now: ContinuousClock.Instant) {
        guard now > updatedAt else { return }
        tokens = min(capacity, tokens + refilled(over: now - updatedAt))
        updatedAt = now
    }
}
