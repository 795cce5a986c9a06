import HTTPServer

/// Binds one `/ws/form` WebSocket session to its own `FormPipeline`.
enum FormSession {
    /// Greets the client, sends the form's start state, then feeds its frames into the pipeline
    /// until the socket closes.
    static func attach(_ session: WebSocketSession) {
        let write: @Sendable (FormEvent) -> Void = { [weak session] event in session?.send(.text(event.json)) }
        write(.hello)
        let pipeline = FormPipeline(write: write)
        PipelineSession.feed(session, receive: { pipeline.receive(FormFrame(text: $0), write: write) }, cancel: pipeline.cancel)
    }
}
