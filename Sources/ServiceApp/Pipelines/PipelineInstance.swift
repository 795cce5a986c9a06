/// One running instance of a catalog pipeline, whoever carries it: the pipeline's own WebSocket
/// (`PipelineSession`) or one subscription of `/ws/pipelines` (`PipelineMultiplexer`). Both get
/// it from the same `PipelineDescriptor.start`, so an instance sends the same events either way.
struct PipelineInstance: Sendable {
    /// Where an instance's frames go.
    struct Output: Sendable {
        /// Each event, one JSON object as text, in order, starting with the `hello`.
        let event: @Sendable (String) -> Void
        /// Each trace event (`?trace=1`), or nil: the pipeline is built without tracing.
        let trace: (@Sendable (String) -> Void)?
        /// Runs its argument once every event handed to `event` so far has been written (on a
        /// session: handed to the socket on its connection's loop); at once by default.
        var afterWritten: @Sendable (@escaping @Sendable () -> Void) -> Void = { $0() }
    }

    /// Takes one client frame of the pipeline's own endpoint (its text), handled as there.
    let receive: @Sendable (String) -> Void
    /// Tears the instance down: a lookup or search in flight is cancelled upstream.
    let cancel: @Sendable () -> Void
}
