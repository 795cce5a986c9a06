import Dispatch
import HTTPServer
import StreamCore

/// What every pipeline session does with its socket: text frames go to the pipeline until the
/// socket closes, then the pipeline is cancelled (cancelling any upstream request in flight); a
/// binary frame closes the session with 1003.
enum PipelineSession {
    /// The session's tracer when its upgrade asked for `?trace=1`, else nil.
    static func tracer(for session: WebSocketSession, scheduler: AnySchedulerOf<DispatchQueue>) -> PipelineTracer? {
        guard PipelineTracer.isRequested(by: session.request) else { return nil }
        return PipelineTracer(scheduler: scheduler) { [weak session] text in session?.send(.text(text)) }
    }

    static func feed(
        _ session: WebSocketSession, receive: @escaping (String) -> Void, cancel: @escaping () -> Void
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
