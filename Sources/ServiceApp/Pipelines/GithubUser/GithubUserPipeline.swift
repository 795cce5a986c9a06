import Dispatch
import Foundation
import GithubProxy
import StreamCore

/// The seed's GithubViewController pipeline, for one WebSocket session.
///
/// ```
/// input ─▶ throttle(throttleMs, latest: true) ─▶ removeDuplicates ─▶ map(retrieveGithubUser)
///       ─▶ switchToLatest ─▶ result events
/// network activity ─▶ activity events
/// ```
/// `input` is the seed's `@Published username`, fed by the client's frames (the `IBAction`); the
/// subscribers write `result` and `activity` events, as the seed's `sink`/`assign` subscribers
/// update the labels, the avatar and the spinner. Results go out through the activity's queue,
/// so a lookup's result always follows its `activity:true`, whichever thread delivers it.
final class GithubUserPipeline: Sendable {
    /// The field's current value, as the client sends it.
    let input = PassthroughSubject<String, Never>()
    private let activity = NetworkActivity()
    private let subscriptions = PipelineSubscriptions()
    /// Times the answers that need no upstream request, when measured.
    private let timer: CachedResultTimer?

    /// Builds the pipeline; `write` receives each event (from any thread, in order per source).
    /// Lookups that go upstream are charged to `quota` (the session's client); with `tracer`,
    /// every stage reports its events (`?trace=1`). With `timer`, each answer that needs no
    /// upstream request is timed up to its frame written (`afterWritten`: the output's).
    init(
        client: GithubClient, throttle: DispatchQueue.SchedulerTimeType.Stride,
        scheduler: AnySchedulerOf<DispatchQueue>, quota: (any UpstreamQuota)? = nil, tracer: PipelineTracer? = nil,
        timer: (CachedResultTimer, afterWritten: @Sendable (@escaping @Sendable () -> Void) -> Void)? = nil,
        write: @escaping @Sendable (GithubUserEvent) -> Void
    ) {
        let resultTimer = timer?.0
        let afterWritten = timer?.afterWritten
        self.timer = resultTimer
        var cancellables: [AnyCancellable] = []
        // Each closure holds only what it uses: an idle instance is mostly these closures.
        activity.publisher
            .sink { active in
                if active { resultTimer?.wentUpstream() }
                write(.activity(active: active))
            }
            .store(in: &cancellables)
        input
            .traced(Stage.input, tracer, on: scheduler)
            .throttle(for: throttle, scheduler: scheduler, latest: true)
            .traced(Stage.throttle, tracer, on: scheduler)
            .removeDuplicates()
            .traced(Stage.removeDuplicates, tracer, on: scheduler)
            .map { [activity] username in
                // The value left the throttle just now (removeDuplicates passes it on in the same
                // call): the timer's hold ends here, with no operator of its own per session.
                resultTimer?.throttled()
                return client.retrieveGithubUser(username: username, activity: activity, quota: quota)
                    .traced(Stage.lookup, tracer, on: scheduler, describe: Self.traceValue)
            }
            .switchToLatest()
            .traced(Stage.switchToLatest, tracer, on: scheduler, describe: Self.traceValue)
            .sink { [activity] result in
                activity.deliverInOrder {
                    write(.result(result))
                    if let resultTimer, let afterWritten { afterWritten { resultTimer.resultWritten() } }
                }
            }
            .store(in: &cancellables)
        subscriptions.keep(cancellables)
    }

    /// A lookup result in a trace: its query and status.
    @Sendable static func traceValue(_ result: LookupResult) -> Any? {
        ["query": result.query, "status": result.status.rawValue]
    }

    /// Feeds one client frame: a value goes into the pipeline; an unreadable frame is answered
    /// with an `error` event through `write`.
    /// `readAt`: when its frame was read (for the timer).
    func receive(_ frame: ClientFrame, readAt: DispatchTime = .now(), write: (GithubUserEvent) -> Void) {
        switch frame {
        case .input(let value):
            timer?.inputArriving(readAt: readAt)
            input.send(value)
        case .unreadable(let message): write(.error(code: "bad_message", message: message))
        }
    }

    /// Ends every subscription: an in-flight lookup is cancelled upstream.
    func cancel() { subscriptions.cancel() }
}
