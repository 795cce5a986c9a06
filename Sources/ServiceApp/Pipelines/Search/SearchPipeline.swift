import Dispatch
import Foundation
import GithubProxy
import StreamCore

/// The seed's search bar with pull-to-refresh, for one `/ws/search` session.
///
/// ```
/// text ─▶ prepend("") ─▶ debounce(debounce) ─▶ removeDuplicates ─────────────────────┐
/// refresh ─▶ withLatestFrom(text.prepend("")) ─▶ map { text } ─▶ delay(refreshDelay) ─┴▶ merge
///       ─▶ map(search) ─▶ switchToLatest ─▶ search events
/// ```
/// As in the seed, the refresh path ends the refresh indicator when its delayed value goes on
/// to trigger the search (`endRefreshing`), so every `refreshing:true` gets one `false`, also
/// when the search in flight is superseded. Results and the indicator's end go out through the
/// activity's queue, so they keep their place among the activity events.
final class SearchPipeline: Sendable {
    /// Timings and page size (`search.*` in the configuration).
    struct Settings: Sendable, Equatable {
        /// `search.debounceMs`.
        var debounce: Duration = .milliseconds(300)
        /// `search.refreshDelayMs`.
        var refreshDelay: Duration = .milliseconds(300)
        var perPage = 10
    }

    /// The search field's current text, as the client sends it.
    let text = PassthroughSubject<String, Never>()
    /// The pull-to-refresh gesture.
    let refresh = PassthroughSubject<Void, Never>()
    private let activity = NetworkActivity()
    private let subscriptions = PipelineSubscriptions()

    /// Builds the pipeline; `write` receives each event (from any thread, in order per source).
    init(
        client: GithubClient, settings: Settings, scheduler: AnySchedulerOf<DispatchQueue>,
        quota: (any UpstreamQuota)? = nil, tracer: PipelineTracer? = nil, write: @escaping @Sendable (SearchEvent) -> Void
    ) {
        var cancellables: [AnyCancellable] = []
        activity.publisher
            .sink { write(.activity(active: $0)) }
            .store(in: &cancellables)
        let searchStream = text.prepend("")
        let typed = searchStream
            .traced(Stage.input, tracer, on: scheduler)
            .debounce(for: .milliseconds(Int(settings.debounce.wholeMilliseconds)), scheduler: scheduler)
            .traced(Stage.debounce, tracer, on: scheduler)
            .removeDuplicates()
            .traced(Stage.removeDuplicates, tracer, on: scheduler)
        let refreshed = refresh
            .traced(Stage.refresh, tracer, on: scheduler, describe: { _ in "refresh" })
            .withLatestFrom(searchStream)
            .map { _, latest in latest }
            .traced(Stage.withLatestFrom, tracer, on: scheduler)
            .delay(for: .milliseconds(Int(settings.refreshDelay.wholeMilliseconds)), scheduler: scheduler)
            .traced(Stage.delay, tracer, on: scheduler)
            .handleEvents(receiveOutput: { [activity] _ in activity.deliverInOrder { write(.refreshing(active: false)) } })
        typed.merge(with: refreshed)
            .traced(Stage.merge, tracer, on: scheduler)
            .map { [activity] query in
                client.search(query: query, perPage: settings.perPage, activity: activity, quota: quota)
                    .traced(Stage.search, tracer, on: scheduler, describe: Self.traceValue)
            }
            .switchToLatest()
            .traced(Stage.switchToLatest, tracer, on: scheduler, describe: Self.traceValue)
            .sink { [activity] result in activity.deliverInOrder { write(.search(result)) } }
            .store(in: &cancellables)
        subscriptions.keep(cancellables)
    }

    /// A search result in a trace: its query, status and count.
    @Sendable static func traceValue(_ result: SearchResult) -> Any? {
        ["query": result.query, "status": result.status.rawValue, "total_count": result.totalCount]
    }

    /// Feeds one client frame: text goes into the pipeline, a refresh starts the indicator and
    /// re-runs the latest text's search; an unreadable frame is answered with an `error` event.
    func receive(_ frame: SearchFrame, write: (SearchEvent) -> Void) {
        switch frame {
        case .input(let value): text.send(value)
        case .refresh:
            write(.refreshing(active: true))
            refresh.send(())
        case .unreadable(let message): write(.error(code: "bad_message", message: message))
        }
    }

    /// Ends every subscription: a search in flight is cancelled upstream.
    func cancel() { subscriptions.cancel() }
}
