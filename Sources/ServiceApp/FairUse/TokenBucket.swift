/// A token bucket: `capacity` tokens, refilled continuously at `refillPerSecond`; each spend
/// takes one. Pure value on explicit time (seconds on any monotonic clock), so tests drive it
/// on virtual time.
struct TokenBucket: Sendable, Equatable {
    let capacity: Double
    let refillPerSecond: Double
    private(set) var tokens: Double
    private var updatedAt: Double

    /// A full bucket at `now`.
    init(capacity: Int, refillPerSecond: Double, now: Double) {
        self.capacity = Double(max(0, capacity))
        self.refillPerSecond = max(0, refillPerSecond)
        tokens = self.capacity
        updatedAt = now
    }

    /// Takes one token: nil when there was one, else the seconds until there will be (at least 1).
    mutating func spend(now: Double) -> Int? {
        refill(now: now)
        if tokens >= 1 {
            tokens -= 1
            return nil
        }
        guard refillPerSecond > 0 else { return 60 }
        // (Less a nanosecond, so that float noise never rounds a whole second up to the next.)
        return max(1, Int(((1 - tokens) / refillPerSecond - 1e-9).rounded(.up)))
    }

    /// Whether it is full at `now` (its client has nothing to remember).
    func isFull(now: Double) -> Bool {
        tokens + max(0, now - updatedAt) * refillPerSecond >= capacity
    }

    private mutating func refill(now: Double) {
        guard now > updatedAt else { return }
        tokens = min(capacity, tokens + (now - updatedAt) * refillPerSecond)
        updatedAt = now
    }
}
