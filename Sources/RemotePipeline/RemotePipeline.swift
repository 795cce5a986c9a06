import Foundation
import HTTPServer
import PipelineWire
import StreamCore

/// A pipeline of the service, run on the server, as a local `Publisher`: the Swift client of
/// `GET /ws/pipelines` (its frames: `/asyncapi.json`). Combine's protocol goes over the wire: the
/// subscriber's `request(_:)` becomes a `request` frame (its first demand travels in the
/// `subscribe` frame), its `cancel()` a `cancel` frame, the server's `completion` the
/// publisher's completion. A dropped connection fails it with `.connectionLost`.
///
/// ```swift
/// let githubUser = RemotePipeline(url: URL(string: "ws://127.0.0.1:8080/ws/pipelines")!, pipeline: "github-user")
/// let results = githubUser
///     .events(for: keystrokes.throttle(for: .milliseconds(500), scheduler: DispatchQueue.main, latest: true).removeDuplicates())
///     .filter { $0.type == "result" }
///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0.query ?? "", $0.users.map(\.login)) })
/// ```
///
/// A composed pipeline (a `PipelineDefinition`) runs the same way: its events are its `hello`,
/// its `value`s (or its lookup's `activity` and `result`/`search`); a definition the server
/// refuses fails the publisher with `.badPipeline`, naming the offending stage.
public struct RemotePipeline: Sendable {
    /// The catalog name of the pipeline (`github-user`, `github-search`, `form`), or `composed`
    /// for a definition.
    public let pipeline: String
    /// The definition of a composed pipeline; nil for a catalog one.
    public let definition: PipelineDefinition?
    private let source: Source

    private enum Source: Sendable {
        /// A socket of its own per subscription.
        case url(URL, WebSocketClientConfiguration, EventLoopGroup?)
        /// A shared socket.
        case connection(RemotePipelineConnection)
    }

    /// `pipeline` at `url` (`ws://host:port/ws/pipelines`); each subscription opens its own
    /// socket and closes it when it ends.
    public init(url: URL, pipeline: String, configuration: WebSocketClientConfiguration = .init(), group: EventLoopGroup? = nil) {
        self.pipeline = pipeline
        definition = nil
        source = .url(url, configuration, group)
    }

    /// `pipeline` over a shared `connection`: its subscriptions share one socket with every
    /// other pipeline using it, each under its own id.
    public init(connection: RemotePipelineConnection, pipeline: String) {
        self.pipeline = pipeline
        definition = nil
        source = .connection(connection)
    }

    /// The composed pipeline `definition` at `url`; each subscription opens its own socket. The
    /// server checks the definition against its own limits (`GET /api/operators`).
    public init(url: URL, definition: PipelineDefinition, configuration: WebSocketClientConfiguration = .init(), group: EventLoopGroup? = nil) {
        pipeline = "composed"
        self.definition = definition
        source = .url(url, configuration, group)
    }

    /// The composed pipeline `definition` over a shared `connection`.
    public init(connection: RemotePipelineConnection, definition: PipelineDefinition) {
        pipeline = "composed"
        self.definition = definition
        source = .connection(connection)
    }

    /// What a `subscribe` frame names.
    fileprivate var name: MuxPipelineName {
        definition.map(MuxPipelineName.composed) ?? .catalog(pipeline)
    }

    /// The events of one new instance of the pipeline, fed by `input`: each value of `input`
    /// is sent to it as one message (a `String` as the text field's current value). A new
    /// instance per subscription.
    public func events<Input: Publisher>(for input: Input) -> Events<Input>
    where Input.Output: RemotePipelineMessageConvertible, Input.Failure == Never {
        Events(pipeline: self, input: input)
    }

    /// The connection a new subscription uses.
    fileprivate func connectionForSubscription() -> RemotePipelineConnection {
        switch source {
        case .url(let url, let configuration, let group):
            RemotePipelineConnection(url: url, configuration: configuration, group: group, closesWhenIdle: true)
        case .connection(let connection):
            connection
        }
    }

    /// The publisher of `events(for:)`.
    public struct Events<Input: Publisher>: Publisher
    where Input.Output: RemotePipelineMessageConvertible, Input.Failure == Never {
        public typealias Output = RemoteEvent
        public typealias Failure = RemotePipelineError

        let pipeline: RemotePipeline
        let input: Input

        public func receive<S: Subscriber>(subscriber: S) where S.Input == RemoteEvent, S.Failure == RemotePipelineError {
            let connection = pipeline.connectionForSubscription()
            switch connection.loop {
            case .failure(let error):
                subscriber.receive(subscription: Subscriptions.empty)
                subscriber.receive(completion: .failure(.connectFailed(.connectFailed(error))))
            case .success(let loop):
                let input = self.input
                let subscription = RemoteSubscription(
                    connection: connection, loop: loop, pipeline: pipeline.name,
                    input: { remote in input.map(\.remotePipelineMessage).subscribe(InputForwarder(remote, loop: loop)) },
                    downstream: AnySubscriber(subscriber))
                subscription.attach()
                subscriber.receive(subscription: subscription)
            }
        }
    }
}
