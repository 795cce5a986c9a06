import Dispatch
import HTTPServer
import WebSocketPublishers
import StreamCore

/// A pipeline's own endpoint (`/ws`, `/ws/search`, `/ws/form`): each session runs one instance;
/// text frames go to it until the socket closes, then it is cancelled (cancelling any upstream
/// request in flight); a binary frame closes the session with 1003. `?trace=1` adds the traces.
enum PipelineSession {
    static func attach(_ session: WebSocketSession, to pipeline: PipelineDescriptor, context: PipelineDescriptor.Context) {
        // The closures hold the session strongly: it lets go of its connection's handler when
        // the socket closes, so nothing here keeps the connection alive, and a send after the
        // socket closed does nothing. (A weak reference would cost every send a weak load, and
        // every retain of the session the slow path of an object with weak references.)
        let send: @Sendable (String) -> Void = { text in session.send(.text(text)) }
        let output = PipelineInstance.Output(
            event: send, trace: PipelineTracer.isRequested(by: session.request) ? send : nil,
            afterWritten: { body in session.afterPendingSends(body) }
        )
        let instance = pipeline.start(context, context.fairUse.quota(for: session.request), output)
        // The session holds this subscriber until the socket closes.
        session.messages.subscribe(Input(session: session, instance: instance))
    }

    /// Feeds the session's messages to its instance, on the session's loop, and cancels the
    /// instance when they end. (One object where a `Sink` would hold two closures around the
    /// instance's: an idle session is mostly what it allocates.)
    private final class Input: Subscriber {
        private let session: WebSocketSession
        private let instance: PipelineInstance

        init(session: WebSocketSession, instance: PipelineInstance) {
            self.session = session
            self.instance = instance
        }

        func receive(subscription: any Subscription) { subscription.request(.unlimited) }

        func receive(_ message: WebSocketSession.Message) -> Subscribers.Demand {
            switch message {
            case .text(let text): instance.receive(text)
            case .binary: session.close(code: .unsupportedData, reason: "binary frames are not accepted")
            }
            return .none
        }

        func receive(completion: Subscribers.Completion<Never>) { instance.cancel() }
    }
}
