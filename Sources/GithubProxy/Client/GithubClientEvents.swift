import StreamCore

/// Hooks for what the client does, for metrics and logs. Every closure may be called from any
/// thread.
public struct GithubClientEvents: Sendable {
    /// An upstream request ended with `outcome` after `duration` (nil when no request was sent).
    public var onRequest: @Sendable (_ outcome: String, _ duration: Duration?) -> Void
    /// A transient failure is about to be retried.
    public var onRetry: @Sendable (_ login: String, _ error: GithubError) -> Void
    /// A `304 Not Modified` was served from the ETag cache.
    public var onCacheHit: @Sendable () -> Void
    /// An answer was served from the cache without a request: `.fresh`, or `.stale` because the
    /// upstream failed.
    public var onServedFromCache: @Sendable (_ source: CachedAnswer<GithubUser>.Source) -> Void
    /// A rate-limit resource was paused for `seconds` (primary or secondary limit).
    public var onPause: @Sendable (_ resource: String, _ kind: RateLimitBudget.PauseKind, _ seconds: Int) -> Void

    public init(
        onRequest: @escaping @Sendable (String, Duration?) -> Void = { _, _ in },
        onRetry: @escaping @Sendable (String, GithubError) -> Void = { _, _ in },
        onCacheHit: @escaping @Sendable () -> Void = {},
        onServedFromCache: @escaping @Sendable (CachedAnswer<GithubUser>.Source) -> Void = { _ in },
        onPause: @escaping @Sendable (String, RateLimitBudget.PauseKind, Int) -> Void = { _, _, _ in }
    ) {
        self.onRequest = onRequest
        self.onRetry = onRetry
        self.onCacheHit = onCacheHit
        self.onServedFromCache = onServedFromCache
        self.onPause = onPause
    }

    func requested(outcome: String, since start: ContinuousClock.Instant? = nil) {
        onRequest(outcome, start.map { ContinuousClock.now - $0 })
    }

    func retried(login: String, error: GithubError) { onRetry(login, error) }

    func cacheHit() { onCacheHit() }

    func served(_ source: CachedAnswer<GithubUser>.Source) { onServedFromCache(source) }

    func paused(resource: String, pause: RateLimitBudget.Pause) { onPause(resource, pause.kind, pause.seconds) }
}

extension Publisher where Failure == GithubError {
    /// Reports one upstream request's outcome to `events`: `ok` when its answer comes through —
    /// not at completion, which a caller that takes the first answer and cancels (REST's
    /// `first()`) never lets through — and a failure's outcome when it fails.
    func reportingOutcome(to events: GithubClientEvents, since started: ContinuousClock.Instant) -> Publishers.HandleEvents<Self> {
        handleEvents(
            receiveOutput: { _ in events.requested(outcome: "ok", since: started) },
            receiveCompletion: { completion in
                if case .failure = completion { events.requested(outcome: completion.outcome, since: started) }
            })
    }
}
