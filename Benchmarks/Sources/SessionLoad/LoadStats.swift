import LatencyHistogram

/// What one shard of sessions measured; merged at the end.
struct LoadStats {
    var sessionsOpened = 0
    var handshakeFailures = 0
    var unexpectedCloses = 0
    var cleanCloses = 0
    var keystrokes = 0
    var results = 0
    var errorEvents = 0
    var badEvents = 0
    var activityViolations = 0
    /// Results whose status is not the one the query implies (found / too_short / invalid).
    var unexpectedStatuses = 0
    var statusCounts: [String: Int] = [:]
    /// Bursts (one name typed, or cut by the end of the run) whose final value needs a result.
    var bursts = 0
    var finalsWithLookup = 0
    /// Bursts whose final result did not come within the wait limit.
    var missingFinals = 0
    /// Results that arrived after the final value's result, before the next name.
    var staleResults = 0
    /// Results for a final value that had already been counted missing.
    var lateFinals = 0
    /// Finals that got no new result because the last result already named them (the same name
    /// retyped within its throttle window: removeDuplicates drops the repeat).
    var collapsedFinals = 0
    /// Violations reported with a session history.
    var reports = 0
    /// Final keystrokes the server saw after a window boundary the client model put after them.
    var nextWindowFinals = 0
    var throttleMs = 0
    /// Nanoseconds: final keystroke → its result; the modelled throttle hold; what remains after
    /// subtracting the hold and the upstream delay.
    var raw = LatencyHistogram()
    var holds = LatencyHistogram()
    var serverAdded = LatencyHistogram()
    /// Server-added latency of finals whose lookup went upstream (the fake's delay subtracted),
    /// of valid logins answered without an upstream request (cache, or a flight already in the
    /// air), and of values the pipeline answers itself (too short, invalid).
    var serverAddedUpstream = LatencyHistogram()
    var serverAddedCached = LatencyHistogram()
    var serverAddedLocal = LatencyHistogram()
    /// For finals that went upstream: activity:true → result, less the fake's delay.
    var upstreamSpanBeyondDelay = LatencyHistogram()
    var closeReasons: [String: Int] = [:]

    mutating func merge(_ other: LoadStats) {
        sessionsOpened += other.sessionsOpened
        handshakeFailures += other.handshakeFailures
        unexpectedCloses += other.unexpectedCloses
        cleanCloses += other.cleanCloses
        keystrokes += other.keystrokes
        results += other.results
        errorEvents += other.errorEvents
        badEvents += other.badEvents
        activityViolations += other.activityViolations
        unexpectedStatuses += other.unexpectedStatuses
        statusCounts.merge(other.statusCounts, uniquingKeysWith: +)
        bursts += other.bursts
        finalsWithLookup += other.finalsWithLookup
        missingFinals += other.missingFinals
        staleResults += other.staleResults
        lateFinals += other.lateFinals
        collapsedFinals += other.collapsedFinals
        reports += other.reports
        nextWindowFinals += other.nextWindowFinals
        throttleMs = max(throttleMs, other.throttleMs)
        raw.merge(other.raw)
        holds.merge(other.holds)
        serverAdded.merge(other.serverAdded)
        serverAddedUpstream.merge(other.serverAddedUpstream)
        serverAddedCached.merge(other.serverAddedCached)
        upstreamSpanBeyondDelay.merge(other.upstreamSpanBeyondDelay)
        serverAddedLocal.merge(other.serverAddedLocal)
        closeReasons.merge(other.closeReasons, uniquingKeysWith: +)
    }

    mutating func noteClose(_ why: String) {
        // Keep the reasons few: strip numbers that vary per connection.
        closeReasons[why, default: 0] += 1
    }
}

/// Percentiles of nanosecond samples, in milliseconds (HdrHistogram's, see `LatencyHistogram`;
/// NaN when there are none).
struct Percentiles {
    let count: Int
    let p50: Double
    let p90: Double
    let p99: Double
    let max: Double
    let mean: Double

    init(_ samples: LatencyHistogram) {
        count = samples.count
        func at(_ q: Double) -> Double { samples.value(atQuantile: q).map { Double($0) / 1e6 } ?? .nan }
        p50 = at(0.50)
        p90 = at(0.90)
        p99 = at(0.99)
        max = samples.isEmpty ? .nan : Double(samples.max) / 1e6
        mean = samples.mean.map { $0 / 1e6 } ?? .nan
    }
}
