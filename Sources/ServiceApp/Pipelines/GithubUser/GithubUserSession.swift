import Dispatch
import GithubProxy
import HTTPServer
import StreamCore

/// Binds one `/ws` WebSocket session to its own `GithubUserPipeline`.
enum GithubUserSession {
    /// Greets the client, then feeds its text frames into a new pipeline until the socket closes;
    /// a binary frame closes the session with 1003.
    static func attach(
        _ session: WebSocketSession, client: GithubClient, throttleMs: Int, minLength: Int,
        scheduler: AnySchedulerOf<DispatchQueue>, quota: (any UpstreamQuota)? = nil
    ) {
        let tracer = PipelineSession.tracer(for: session, scheduler: scheduler)
        let write: @Sendable (ServerEvent) -> Void = { [weak session] event in session?.send(.text(event.json)) }
        write(.hello(throttleMs: throttleMs, minLength: minLength))
        let pipeline = GithubUserPipeline(
            client: client, throttle: .milliseconds(throttleMs), scheduler: scheduler, quota: quota, tracer: tracer, write: write
        )
        PipelineSession.feed(session, receive: { pipeline.receive(ClientFrame(text: $0), write: write) }, cancel: pipeline.cancel)
    }
}
