import Dispatch
import HTTPServer
import WebSocketPublishers
import StreamCore

/// A pipeline's own endpoint (`/ws`, `/ws/search`, `/ws/form`): each session runs one instance;
/// text frames go to it until the socket closes, then it is cancelled (cancelling any upstream
/// request in flight); a binary frame closes the session with 1003. `?trace=1` adds the traces.
enum PipelineSession {
    static func attach(_ session: WebSocketSession, to pipeline: PipelineDescriptor, context: PipelineDescriptor.Context) {
        let send: @Sendable (String) -> Void = { [weak session] text in session?.send(.text(text)) }
        let output = PipelineInstance.Output(
            event: send, trace: PipelineTracer.isRequested(by: session.request) ? send : nil,
            afterWritten: { [weak session] body in session?.afterPendingSends(body) }
        )
        let instance = pipeline.start(context, context.fairUse.quota(for: session.request), output)
        feed(session, receive: instance.receive, cancel: instance.cancel)
    }

    private static func feed(
        _ session: WebSocketSession, receive: @escaping @Sendable (String) -> Void, cancel: @escaping @Sendable () -> Void
    ) {
        // The session holds this subscriber until the socket closes.
        session.messages.subscribe(Subscribers.Sink(
            receiveCompletion: { _ in cancel() },
            receiveValue: { [weak session] message in
                switch message {
                case .text(let text): receive(text)
                case .binary: session?.close(code: .unsupportedData, reason: "binary frames are not accepted")
                }
            }
        ))
    }
}
