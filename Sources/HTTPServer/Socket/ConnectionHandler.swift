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
}

extension ConnectionHandler {
    func connectionDidDrainOutput(_ connection: Connection) {}
    func connectionDidReachEndOfInput(_ connection: Connection) { connection.close() }
    func connectionPeerDidHangUp(_ connection: Connection) {}
    func connectionDeadlinePassed(_ connection: Connection) { connection.close() }
}
