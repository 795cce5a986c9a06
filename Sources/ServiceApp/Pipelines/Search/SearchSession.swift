import Dispatch
import GithubProxy
import HTTPServer
import StreamCore

/// Binds one `/ws/search` WebSocket session to its own `SearchPipeline`.
enum SearchSession {
    /// Greets the client, then feeds its frames into a new pipeline until the socket closes.
    static func attach(
        _ session: WebSocketSession, client: GithubClient, settings: SearchPipeline.Settings,
        scheduler: AnySchedulerOf<DispatchQueue>, quota: (any UpstreamQuota)? = nil
    ) {
        let tracer = PipelineSession.tracer(for: session, scheduler: scheduler)
        let write: @Sendable (SearchEvent) -> Void = { [weak session] event in session?.send(.text(event.json)) }
        write(.hello(debounceMs: settings.debounceMs, refreshDelayMs: settings.refreshDelayMs))
        let pipeline = SearchPipeline(client: client, settings: settings, scheduler: scheduler, quota: quota, tracer: tracer, write: write)
        PipelineSession.feed(session, receive: { pipeline.receive(SearchFrame(text: $0), write: write) }, cancel: pipeline.cancel)
    }
}
