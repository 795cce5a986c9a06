import Dispatch
import GithubProxy
import StreamCore

/// Starts one instance of the GitHub-user keystroke pipeline (`/ws`, or a `github-user`
/// subscription of `/ws/pipelines`).
enum GithubUserInstance {
    /// Sends the `hello`, then builds a new `GithubUserPipeline` whose events go to `output`.
    static func start(
        client: GithubClient, throttle: Duration, minLength: Int, scheduler: AnySchedulerOf<DispatchQueue>,
        quota: (any UpstreamQuota)?, output: PipelineInstance.Output, timer: CachedResultTimer? = nil
    ) -> PipelineInstance {
        let tracer = output.trace.map { PipelineTracer(scheduler: scheduler, send: $0) }
        // Holds the event closure alone, not the whole output (an instance is mostly closures).
        let send = output.event
        let write: @Sendable (GithubUserEvent) -> Void = { event in send(event.json) }
        write(.hello(throttleMs: Int(throttle.wholeMilliseconds), minLength: minLength))
        let pipeline = GithubUserPipeline(
            client: client, throttle: .milliseconds(Int(throttle.wholeMilliseconds)), scheduler: scheduler, quota: quota, tracer: tracer,
            timer: timer.map { timer in (timer, output.afterWritten) }, write: write
        )
        return PipelineInstance(
            receive: { text in
                let readAt = DispatchTime.now()
                pipeline.receive(ClientFrame(text: text), readAt: readAt, write: write)
            },
            cancel: pipeline.cancel
        )
    }
}
