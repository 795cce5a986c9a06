/// The server's `throttle(latest: true)` (StreamCore's, as Apple's Combine) replayed on the
/// client's send times, to know when the server should release each value: a value arriving
/// while none is held is released at `max(arrival, lastRelease + interval)`; a value arriving
/// while one is held replaces it and is released at the held one's time.
struct ThrottleModel {
    let interval: UInt64
    private var lastRelease: UInt64?
    private var heldUntil: UInt64?

    init(intervalNanoseconds: UInt64) { interval = intervalNanoseconds }

    /// Records a value sent at `time` (ns); returns when the throttle releases it if no newer
    /// value replaces it, and whether it replaced a held value (then the server, which sees it a
    /// little later, may see it after that release and hold it for the next window instead).
    mutating func send(at time: UInt64) -> (due: UInt64, replacedHeld: Bool) {
        if let due = heldUntil {
            if time < due { return (due, true) }
            lastRelease = due
            heldUntil = nil
        }
        let due = lastRelease.map { max(time, $0 + interval) } ?? time
        heldUntil = due
        return (due, false)
    }

    /// Corrects the release time of the value held now, when the server's timing showed it
    /// fell into the next window (see `LoadSession.resolve`).
    mutating func released(at time: UInt64) {
        if heldUntil != nil { heldUntil = time } else { lastRelease = time }
    }
}

/// A small, fast, seedable generator (SplitMix64).
struct SplitMix: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
