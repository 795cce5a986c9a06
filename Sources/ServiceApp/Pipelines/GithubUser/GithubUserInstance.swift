import Dispatch
import GithubProxy
import StreamCore

/// Starts one instance of the GitHub-user keystroke pipeline (`/ws`, or a `github-user`
/// subscription of `/ws/pipelines`).
enum GithubUserInstance {
    /// Sends the `hello`, then builds a new `GithubUserPipeline` whose events go to `output`.
    static func start(
        client: GithubClient, throttle: Duration, minLength: Int, scheduler: AnySchedulerOf<DispatchQueue>,
        quota: (any UpstreamQuota)?, output: PipelineInstance.Output
    ) -> PipelineInstance {
        let tracer = output.trace.map { PipelineTracer(scheduler: scheduler, send: $0) }
        let write: @Sendable (GithubUserEvent) -> Void = { event in output.event(event.json) }
        write(.hello(throttleMs: Int(throttle.wholeMilliseconds), minLength: minLength))
        let pipeline = GithubUserPipeline(
            client: client, throttle: .milliseconds(Int(throttle.wholeMilliseconds)), scheduler: scheduler, quota: quota, tracer: tracer, write: write
        )
        return PipelineInstance(receive: { pipeline.receive(ClientFrame(text: $0), write: write) }, cancel: pipeline.cancel)
    }
}
