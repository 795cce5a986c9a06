import Dispatch
import GithubProxy
import StreamCore

/// Starts one instance of the search pipeline (`/ws/search`, or a `github-search` subscription
/// of `/ws/pipelines`).
enum SearchInstance {
    /// Sends the `hello`, then builds a new `SearchPipeline` whose events go to `output`.
    static func start(
        client: GithubClient, settings: SearchPipeline.Settings, scheduler: AnySchedulerOf<DispatchQueue>,
        quota: (any UpstreamQuota)?, output: PipelineInstance.Output
    ) -> PipelineInstance {
        let tracer = output.trace.map { PipelineTracer(scheduler: scheduler, send: $0) }
        let write: @Sendable (SearchEvent) -> Void = { event in output.event(event.json) }
        write(.hello(debounceMs: Int(settings.debounce.wholeMilliseconds), refreshDelayMs: Int(settings.refreshDelay.wholeMilliseconds)))
        let pipeline = SearchPipeline(client: client, settings: settings, scheduler: scheduler, quota: quota, tracer: tracer, write: write)
        return PipelineInstance(receive: { pipeline.receive(SearchFrame(text: $0), write: write) }, cancel: pipeline.cancel)
    }
}
