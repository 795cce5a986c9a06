/// The protocol layer above a `Connection` (HTTP/1.1, then WebSocket after an upgrade).
/// Every call arrives on the connection's loop.
protocol ConnectionHandler: AnyObject {
    /// Bytes arrived. They are only valid during the call: copy what you keep.
    func connection(_ connection: Connection, didRead bytes: UnsafeRawBufferPointer)
    /// Everything written so far has gone to the socket.
    func connectionDidDrainOutput(_ connection: Connection)
    /// The peer closed its sending side. The default closes the connection.
    func connectionDidReachEndOfInput(_ connection: Connection)
    /// While reading was paused, the peer shut down its sending side: it half-closed, or it is
    /// gone (the two look alike until a write fails). Called at most once. The default does
    /// nothing: reading resumes later and meets the end of input as usual.
    func connectionPeerDidHangUp(_ connection: Connection)
    /// The connection's deadline passed.
    func connectionDeadlinePassed(_ connection: Connection)
    /// The connection is closed; called once.
    func connectionDidClose(_ connection: Connection)
    /// Graceful shutdown began (the one event a server's shutdown sends each connection, like
    /// SwiftNIO's `ChannelShouldQuiesceEvent`): finish what is in flight, then close. Called at
    /// most once per shutdown. The default closes the connection at once.
    func connectionShouldQuiesce(_ connection: Connection)
    /// Bytes received and held for the application (diagnostics). The default is 0.
    var queuedInboundBytes: Int { get }
}

extension ConnectionHandler {
    func connectionDidDrainOutput(_ connection: Connection) {}
    func connectionDidReachEndOfInput(_ connection: Connection) { connection.close() }
    func connectionPeerDidHangUp(_ connection: Connection) {}
    func connectionDeadlinePassed(_ connection: Connection) { connection.close() }
    func connectionShouldQuiesce(_ connection: Connection) { connection.close() }
    var queuedInboundBytes: Int { 0 }
}
