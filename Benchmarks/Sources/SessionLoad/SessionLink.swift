import HTTPServer

/// Where one simulated user's keystrokes go and where its pipeline's events come from: a
/// `/ws` connection of its own (`EndpointLink`), or one subscription on a `/ws/pipelines`
/// connection shared with other users (`MuxLink`). Confined to the user's shard queue.
protocol SessionLink: AnyObject {
    /// The pipeline is ready for keystrokes.
    var isOpen: Bool { get }
    /// The link has ended (`onClosed` was called).
    var isClosed: Bool { get }
    /// Starts the link: `onOpen` once the pipeline is ready, `onEvent` with each of its events
    /// (the JSON bytes `/ws` sends), `onClosed` once at the end (`expected`: this side ended it).
    func start(onOpen: @escaping () -> Void, onEvent: @escaping ([UInt8]) -> Void, onClosed: @escaping (_ expected: Bool, _ why: String) -> Void)
    /// Sends the field's new value (the client's `input` frame).
    func sendInput(_ value: String)
    /// Ends the link normally.
    func close()
    /// Ends the link now (a timeout, say): `onClosed` gets `why`.
    func abort(_ why: String)
}

/// A user's own `/ws` connection.
final class EndpointLink: SessionLink {
    private let connection: ClientConnection
    private let host: String
    private let port: UInt16
    private let path: String

    init(connection: ClientConnection, host: String, port: UInt16, path: String) {
        self.connection = connection
        self.host = host
        self.port = port
        self.path = path
    }

    var isOpen: Bool { connection.phase == .open }
    var isClosed: Bool { connection.phase == .closed }

    func start(onOpen: @escaping () -> Void, onEvent: @escaping ([UInt8]) -> Void, onClosed: @escaping (Bool, String) -> Void) {
        connection.onOpen = onOpen
        connection.onText = onEvent
        connection.onClosed = onClosed
        connection.connect(host: host, port: port, path: path)
    }

    func sendInput(_ value: String) { connection.sendText(Array(#"{"type":"input","value":"\#(value)"}"#.utf8)) }
    func close() { connection.close(code: .normalClosure) }
    func abort(_ why: String) { connection.abort(why) }
}
