import Dispatch
import HTTPServer

/// The sessions of one serial queue, and what they measured.
final class Shard: @unchecked Sendable {
    // Sendable: `stats` and `sessions` are used only on `queue`.
    let queue: DispatchQueue
    let readBuffer = ReadBuffer()
    var stats = LoadStats()
    var sessions: [LoadSession] = []

    init(index: Int) { queue = DispatchQueue(label: "sessionload.\(index)", qos: .userInteractive) }
}

/// How the simulated users type, and where they connect.
struct LoadPlan: Sendable {
    var host: String
    var port: UInt16
    var path: String
    /// Monotonic time (ns) after which no new keystroke is typed.
    var endTime: UInt64
    var keyGapMs: ClosedRange<Int> = 80...250
    var pauseMs: ClosedRange<Int> = 500...2_000
    var typoChance = 0.04
    var upstreamDelayNs: UInt64
    /// `--names replay`: the names and which of them exist; nil: `Names.logins`, all existing.
    var vocabulary: ReplayVocabulary?
    /// How long a final value may wait for its result before it counts as missing.
    var resultWaitNs: UInt64 = 10_000_000_000
    /// Final keystrokes sent less than this before a modelled window boundary may have reached
    /// the server after it.
    var boundarySlackNs: UInt64 = 50_000_000
}

@inline(__always) func monotonicNow() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

/// One simulated user of the `github-user` pipeline (on `/ws`, or a subscription on
/// `/ws/pipelines`: its `SessionLink`): types names from `Names.logins` prefix by prefix, and
/// measures when the result for the final value of each name arrives. Confined to its shard's
/// queue.
final class LoadSession: @unchecked Sendable {
    // Sendable: confined to `shard.queue`.
    private struct Pending {
        var value: String
        var sentAt: UInt64
        var due: UInt64
        var replacedHeld: Bool
        var lookup: Bool
        var burst: Int
    }

    private let shard: Shard
    private let plan: LoadPlan
    private let link: SessionLink
    private var rng: SplitMix
    private var throttle = ThrottleModel(intervalNanoseconds: 500_000_000)
    private var minLength = 3
    private var keys: [String] = []
    private var keyIndex = 0
    private var lastSent: (value: String, at: UInt64, due: UInt64, replacedHeld: Bool)?
    private var pending: Pending?
    private var burst = 0
    private var pauseOver = false
    /// The final value of the current name has its result; no other result may follow it.
    private var answered = false
    /// The whole session's keystrokes and events (bounded), printed with every violation.
    private var history: SessionHistory
    /// The session's number in the run, to tell reports apart.
    private let index: Int
    /// Final values declared missing; a result for one of them later is counted as late.
    private var missing: [String: UInt64] = [:]
    /// A final went missing and no later name has been answered yet.
    private var awaitingRecovery = false
    /// The query of the last result received.
    private var lastResultQuery: String?
    /// A lookup started (activity:true) after the last result: the pipeline let a new value
    /// through, so a repeat of the last result's name would be a new lookup, not a collapse.
    private var lookupSinceLastResult = false
    /// When the last `activity:true` arrived: a final whose result comes after an activity that
    /// began after it was typed went upstream; one without such an activity was answered from
    /// the cache (or by a lookup in flight elsewhere), and no upstream delay is subtracted.
    private var activityOnAt: UInt64 = 0
    private var active = false
    private var helloSeen = false
    private var finished = false
    private let done: @Sendable () -> Void

    init(shard: Shard, plan: LoadPlan, index: Int, seed: UInt64, link: SessionLink, done: @escaping @Sendable () -> Void) {
        self.shard = shard
        self.index = index
        history = SessionHistory(start: monotonicNow())
        self.plan = plan
        self.done = done
        rng = SplitMix(seed: seed)
        self.link = link
    }

    /// Connects; runs on the shard's queue.
    func start() {
        link.start(
            onOpen: { [unowned self] in shard.stats.sessionsOpened += 1 },
            onEvent: { [unowned self] in received($0) },
            onClosed: { [unowned self] expected, why in closed(expected: expected, why) }
        )
        after(ns: 10_000_000_000) { [self] in
            if !helloSeen, !link.isClosed { link.abort("no hello within 10 s") }
        }
    }

    // MARK: Typing

    private func startName() {
        guard link.isOpen else { return }
        guard monotonicNow() < plan.endTime else { return finish() }
        let name = plan.vocabulary.map { $0.name(session: index, using: &rng) } ?? Names.logins.randomElement(using: &rng) ?? "heckj"
        keys = typedValues(of: name)
        keyIndex = 0
        burst += 1
        pauseOver = false
        answered = false
        history.note("#name \(name)", at: monotonicNow())
        typeNext()
    }

    /// The field's successive values while typing `name`, with an occasional typo fixed at once.
    private func typedValues(of name: String) -> [String] {
        let characters = Array(name)
        var values: [String] = []
        for length in 1...characters.count {
            if length > 1, Double.random(in: 0..<1, using: &rng) < plan.typoChance {
                // A wrong letter (never the right one: the fix would then repeat a value, which
                // removeDuplicates rightly swallows).
                var wrong = characters[length - 1]
                while wrong.lowercased() == characters[length - 1].lowercased() {
                    wrong = Character(Unicode.Scalar(UInt8.random(in: UInt8(ascii: "a")...UInt8(ascii: "z"), using: &rng)))
                }
                values.append(String(characters[..<(length - 1)]) + String(wrong))
                values.append(String(characters[..<(length - 1)]))  // backspace
            }
            values.append(String(characters[..<length]))
        }
        return values
    }

    private func typeNext() {
        guard link.isOpen else { return }
        let now = monotonicNow()
        // The run is over mid-name: stop without waiting for a result (the value left in the
        // field may already have been answered).
        if now >= plan.endTime, keyIndex > 0 { return finish() }
        let value = keys[keyIndex]
        keyIndex += 1
        let (due, replacedHeld) = throttle.send(at: now)
        lastSent = (value, now, due, replacedHeld)
        shard.stats.keystrokes += 1
        history.sent(value, at: now)
        link.sendInput(value)
        if keyIndex == keys.count { return endBurst() }
        let gap = Int.random(in: plan.keyGapMs, using: &rng)
        after(ns: UInt64(gap) * 1_000_000) { [self] in typeNext() }
    }

    /// The name is typed: wait for its final result and a pause.
    private func endBurst() {
        guard let last = lastSent else { return finish() }
        let lookup = last.value.utf8.count >= minLength && Self.isValidLogin(last.value)
        let current = burst
        pending = Pending(value: last.value, sentAt: last.at, due: last.due, replacedHeld: last.replacedHeld, lookup: lookup, burst: current)
        shard.stats.bursts += 1
        if lookup { shard.stats.finalsWithLookup += 1 }
        let pause = Int.random(in: plan.pauseMs, using: &rng)
        after(ns: UInt64(pause) * 1_000_000) { [self] in
            pauseOver = true
            continueTyping()
        }
        after(ns: plan.resultWaitNs) { [self] in
            guard let pending, pending.burst == current else { return }
            // The contract: once input stops, the last result names the last value. The same
            // name typed again within the throttle window of its previous final value is
            // released once more and dropped by removeDuplicates (the seed's pipeline): no new
            // result, and none is needed — the last result already names it (issue #16).
            if lastResultQuery == pending.value, !lookupSinceLastResult {
                shard.stats.collapsedFinals += 1
                history.note("=final \(pending.value) already answered by the last result (repeat collapsed by removeDuplicates)", at: monotonicNow())
                self.pending = nil
                answered = true
                continueTyping()
                return
            }
            shard.stats.missingFinals += 1
            missing[pending.value] = pending.sentAt
            awaitingRecovery = true
            report("missing final result: \(pending.value) (no result within \(plan.resultWaitNs / 1_000_000_000) s)")
            self.pending = nil
            continueTyping()
        }
    }

    private func continueTyping() {
        guard pending == nil, pauseOver else { return }
        startName()
    }

    private func finish() {
        guard !finished else { return }
        finished = true
        link.close()
        after(ns: 5_000_000_000) { [self] in
            if !link.isClosed { link.abort("no close answer within 5 s") }
        }
    }

    // MARK: Events

    private func received(_ bytes: [UInt8]) {
        let now = monotonicNow()
        history.received(bytes, at: now)
        switch ServerEventScanner.scan(bytes) {
        case .hello(let throttleMs, let minLength):
            if helloSeen {
                shard.stats.badEvents += 1
                report("second hello")
            }
            helloSeen = true
            throttle = ThrottleModel(intervalNanoseconds: UInt64(max(0, throttleMs)) * 1_000_000)
            self.minLength = minLength
            shard.stats.throttleMs = throttleMs
            after(ns: UInt64.random(in: 0..<1_000_000_000, using: &rng)) { [self] in startName() }
        case .activity(let on):
            if on == active {
                shard.stats.activityViolations += 1
                report("activity order violation: activity:\(on) twice (finished typing: \(finished))")
            }
            active = on
            if on {
                lookupSinceLastResult = true
                activityOnAt = now
            }
        case .result(let query, let status):
            shard.stats.results += 1
            lastResultQuery = query
            lookupSinceLastResult = false
            shard.stats.statusCounts[status, default: 0] += 1
            if status != expectedStatus(of: query) {
                shard.stats.unexpectedStatuses += 1
                report("unexpected status \(status) for \(query)")
            }
            if pending?.value != query, let sentAt = missing.removeValue(forKey: query) {
                shard.stats.lateFinals += 1
                report("late result for the missing final \(query): \((now - sentAt) / 1_000_000) ms after it was typed")
            }
            if let pending, query == pending.value, now >= pending.sentAt {
                if awaitingRecovery {
                    awaitingRecovery = false
                    report("answered again after a missing final (\(query))")
                }
                resolve(pending, at: now)
            } else if answered {
                shard.stats.staleResults += 1  // after the final value's result: last value did not win
                report("result for \(query) after the final value's result")
            }
        case .error:
            shard.stats.errorEvents += 1
            report("error event")
        case .unknown:
            shard.stats.badEvents += 1
            report("unreadable event")
        }
    }

    /// Records the final result's latency; see docs/benchmarks-method.md for the definitions.
    private func resolve(_ pending: Pending, at arrival: UInt64) {
        let raw = Int64(arrival - pending.sentAt)
        var hold = Int64(pending.due - pending.sentAt)
        let wentUpstream = pending.lookup && activityOnAt >= pending.sentAt
        let upstream = wentUpstream ? Int64(plan.upstreamDelayNs) : 0
        // Sent just before a modelled release: if the result came late enough for the next
        // window, the server saw the keystroke after that release.
        let nextWindow = hold + Int64(throttle.interval)
        if pending.replacedHeld, UInt64(hold) < plan.boundarySlackNs, raw >= nextWindow + upstream {
            hold = nextWindow
            shard.stats.nextWindowFinals += 1
            throttle.released(at: pending.due + throttle.interval)
        }
        let added = raw - hold - upstream
        shard.stats.raw.record(raw)
        shard.stats.holds.record(hold)
        shard.stats.serverAdded.record(added)
        if wentUpstream {
            shard.stats.serverAddedUpstream.record(added)
            // From the lookup's start to its result, less the fake's delay: time queued at the
            // gate, the transfer and the result's way back.
            shard.stats.upstreamSpanBeyondDelay.record(Int64(arrival - activityOnAt) - upstream)
        } else if pending.lookup {
            shard.stats.serverAddedCached.record(added)
        } else {
            shard.stats.serverAddedLocal.record(added)
        }
        self.pending = nil
        answered = true
        continueTyping()
    }

    private func expectedStatus(of query: String) -> String {
        if query.utf8.count < minLength { return "too_short" }
        guard Self.isValidLogin(query) else { return "invalid" }
        guard let vocabulary = plan.vocabulary else { return "found" }
        return vocabulary.existing.contains(query.lowercased()) ? "found" : "not_found"
    }

    private func closed(expected: Bool, _ why: String) {
        if expected {
            shard.stats.cleanCloses += 1
        } else {
            if helloSeen { shard.stats.unexpectedCloses += 1 } else { shard.stats.handshakeFailures += 1 }
            shard.stats.noteClose(why)
            if helloSeen { report("unexpected close: \(why)") }
        }
        finished = true
        done()
    }

    /// Logs a violation with the session's whole history (the first `reportLimit` per shard in
    /// full, later ones as one line), and notes it in the history.
    private func report(_ what: String) {
        let now = monotonicNow()
        history.note("!\(what)", at: now)
        shard.stats.reports += 1
        if shard.stats.reports <= Self.reportLimit {
            log("session \(index): \(what); its history (ms since it connected):\n    \(history.text)")
        } else {
            log("session \(index): \(what) (history not printed: more than \(Self.reportLimit) reports on this shard)")
        }
    }

    private static let reportLimit = 20

    private func after(ns: UInt64, _ work: @escaping @Sendable () -> Void) {
        shard.queue.asyncAfter(deadline: DispatchTime(uptimeNanoseconds: monotonicNow() + ns), execute: work)
    }

    /// GitHub's login rule: 1–39 ASCII letters, digits and single hyphens, no hyphen at either end.
    static func isValidLogin(_ login: String) -> Bool {
        let bytes = Array(login.utf8)
        guard (1...39).contains(bytes.count), bytes.first != UInt8(ascii: "-"), bytes.last != UInt8(ascii: "-") else { return false }
        var previous: UInt8 = 0
        for byte in bytes {
            let alphanumeric = (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            guard alphanumeric || (byte == UInt8(ascii: "-") && previous != byte) else { return false }
            previous = byte
        }
        return true
    }
}
