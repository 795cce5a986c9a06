import Foundation
import Locking

/// One GitHub rate-limit resource (`core`, `search`, …) as its responses report it. Once it is
/// spent, or a secondary limit paused it, requests to it answer `rate_limited` at once, without
/// an upstream call, until the pause ends.
public final class RateLimitBudget: Sendable {

    /// Why requests are paused.
    public enum PauseKind: String, Sendable {
        /// `x-ratelimit-remaining: 0` (or a bare 429): until `x-ratelimit-reset`.
        case primary
        /// A secondary limit (a 403/429 that mentions it, or any `retry-after`).
        case secondary
    }

    /// A pause just began or grew.
    public struct Pause: Equatable, Sendable {
        public var kind: PauseKind
        public var seconds: Int

        public init(kind: PauseKind, seconds: Int) {
            self.kind = kind
            self.seconds = seconds
        }
    }

    /// The pause after a secondary limit that names no `retry-after`; it doubles while the
    /// limit repeats, up to `maxSecondaryPause`.
    public static let secondaryPause: Duration = .seconds(60)
    public static let maxSecondaryPause: Duration = .seconds(3_600)

    private struct State: Sendable {
        /// Requests wait until then (nil: they may be sent).
        var blockedUntil: Date?
        /// Secondary limits in a row, for the doubling pause.
        var secondaryStreak = 0
    }
    private let state = Locked(State())
    private let now: @Sendable () -> Date

    public init(now: @escaping @Sendable () -> Date = Date.init) {
        self.now = now
    }

    /// Seconds until requests may be sent again, or nil when they may be sent now.
    public func secondsUntilReset() -> Int? {
        let now = now()
        return state.withLock { state in
            guard let until = state.blockedUntil else { return nil }
            guard until > now else {
                state.blockedUntil = nil
                return nil
            }
            return max(1, Int(until.timeIntervalSince(now).rounded(.up)))
        }
    }

    /// Pauses requests for `seconds` from now (a pause already longer stays): another replica
    /// found the resource spent or paused.
    public func pause(seconds: Int) {
        let until = now().addingTimeInterval(TimeInterval(max(1, seconds)))
        state.withLock { $0.blockedUntil = max($0.blockedUntil ?? until, until) }
    }

    /// Reads a response: `x-ratelimit-remaining`/`x-ratelimit-reset`, `retry-after`, and for a
    /// 403/429 whether `body` names a secondary rate limit. Returns the seconds to wait when
    /// the response says the resource is spent or paused.
    @discardableResult
    public func update(statusCode: Int, header: (String) -> String?, body: Data = Data()) -> Int? {
        read(statusCode: statusCode, header: header, body: body)?.seconds
    }

    /// `update`, telling which kind of pause began (nil when none).
    public func read(statusCode: Int, header: (String) -> String?, body: Data = Data()) -> Pause? {
        let now = now()
        // Everything read from the response before the lock (`header` is the caller's).
        let retryAfter = header("Retry-After").flatMap { Int($0.trimmingOptionalWhitespace()) }
        let remaining = header("x-ratelimit-remaining").flatMap { Int($0.trimmingOptionalWhitespace()) }
        let reset = header("x-ratelimit-reset").flatMap { TimeInterval($0.trimmingOptionalWhitespace()) }
            .map(Date.init(timeIntervalSince1970:))
        let limitedStatus = statusCode == 403 || statusCode == 429
        let secondary = limitedStatus && (retryAfter != nil || Self.mentionsSecondaryLimit(body))
        return state.withLock { state -> Pause? in
            let kind: PauseKind
            var until: Date
            if secondary {
                kind = .secondary
                let backoff = min(Self.maxSecondaryPause, Self.secondaryPause * (1 << min(state.secondaryStreak, 16))) / .seconds(1)
                state.secondaryStreak += 1
                until = now.addingTimeInterval(retryAfter.map { TimeInterval(max(1, $0)) } ?? backoff)
            } else if remaining == 0 {
                kind = .primary
                until = reset.map { max($0, now.addingTimeInterval(1)) } ?? now.addingTimeInterval(60)
            } else if statusCode == 429 {
                kind = .primary
                until = now.addingTimeInterval(60)
            } else {
                if (200..<500).contains(statusCode), !limitedStatus { state.secondaryStreak = 0 }
                return nil
            }
            until = max(state.blockedUntil ?? until, until)
            state.blockedUntil = until
            return Pause(kind: kind, seconds: max(1, Int(until.timeIntervalSince(now).rounded(.up))))
        }
    }

    /// Whether an error body says "secondary rate limit" (GitHub's wording), case-insensitive.
    static func mentionsSecondaryLimit(_ body: Data) -> Bool {
        guard !body.isEmpty, body.count <= 64 * 1024 else { return false }
        return String(decoding: body, as: UTF8.self).lowercased().contains("secondary rate limit")
    }
}
