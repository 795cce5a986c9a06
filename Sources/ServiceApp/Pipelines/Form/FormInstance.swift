import Dispatch
import StreamCore

/// Starts one instance of the form pipeline (`/ws/form`, or a `form` subscription of
/// `/ws/pipelines`).
enum FormInstance {
    /// Sends the `hello`, then builds a new `FormPipeline`, which sends the form's start state.
    static func start(scheduler: AnySchedulerOf<DispatchQueue>, output: PipelineInstance.Output) -> PipelineInstance {
        let write: @Sendable (FormEvent) -> Void = { event in output.event(event.json) }
        write(.hello)
        let tracing = output.trace.map { (PipelineTracer(scheduler: scheduler, send: $0), scheduler) }
        let pipeline = FormPipeline(tracing: tracing, write: write)
        return PipelineInstance(receive: { pipeline.receive(FormFrame(text: $0), write: write) }, cancel: pipeline.cancel)
    }
}
