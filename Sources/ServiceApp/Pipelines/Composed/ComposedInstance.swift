import Dispatch
import GithubProxy
import PipelineWire
import StreamCore

/// Starts one instance of a composed pipeline (a `/ws/pipelines` subscription with a definition).
enum ComposedInstance {
    /// Sends the `hello` (the definition as it runs), then builds a `ComposedPipeline` whose
    /// events go to `output`. `definition` was validated against `limits`.
    static func start(
        definition: PipelineDefinition, limits: ComposerLimits, client: GithubClient, searchPerPage: Int,
        scheduler: AnySchedulerOf<DispatchQueue>, quota: (any UpstreamQuota)?, output: PipelineInstance.Output
    ) -> PipelineInstance {
        let tracer = output.trace.map { PipelineTracer(scheduler: scheduler, send: $0) }
        let write: @Sendable (ComposedEvent) -> Void = { event in output.event(event.json) }
        write(.hello(definition))
        let pipeline = ComposedPipeline(
            definition: definition, limits: limits, client: client, searchPerPage: searchPerPage,
            scheduler: scheduler, quota: quota, tracer: tracer, write: write
        )
        return PipelineInstance(receive: { pipeline.receive(ClientFrame(text: $0), write: write) }, cancel: pipeline.cancel)
    }

    /// `start` with what a session may use (`PipelineDescriptor.Context`): its client, its
    /// scheduler, the configured limits and page size.
    static func start(
        definition: PipelineDefinition, context: PipelineDescriptor.Context, quota: (any UpstreamQuota)?,
        output: PipelineInstance.Output
    ) -> PipelineInstance {
        start(
            definition: definition, limits: context.config.mux.composer, client: context.client,
            searchPerPage: context.config.search.perPage, scheduler: context.scheduler, quota: quota, output: output
        )
    }
}
