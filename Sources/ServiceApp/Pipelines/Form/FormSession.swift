import Dispatch
import StreamCore
import HTTPServer

/// Binds one `/ws/form` WebSocket session to its own `FormPipeline`.
enum FormSession {
    /// Greets the client, sends the form's start state, then feeds its frames into the pipeline
    /// until the socket closes.
    static func attach(_ session: WebSocketSession, scheduler: AnySchedulerOf<DispatchQueue>) {
        let write: @Sendable (FormEvent) -> Void = { [weak session] event in session?.send(.text(event.json)) }
        write(.hello)
        let tracing = PipelineSession.tracer(for: session, scheduler: scheduler).map { ($0, scheduler) }
        let pipeline = FormPipeline(tracing: tracing, write: write)
        PipelineSession.feed(session, receive: { pipeline.receive(FormFrame(text: $0), write: write) }, cancel: pipeline.cancel)
    }
}
