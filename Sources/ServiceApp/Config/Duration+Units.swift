extension Duration {
    /// The duration in whole milliseconds, rounded toward zero (for APIs that take milliseconds).
    var wholeMilliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds &* 1000 &+ attoseconds / 1_000_000_000_000_000
    }

    /// The duration in seconds, as a `Double` (for APIs that take a `TimeInterval`).
    var timeInterval: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
