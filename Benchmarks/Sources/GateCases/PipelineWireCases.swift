import PipelineWire

/// The `/ws/pipelines` codec's cases: what the multiplexer does per keystroke and per event.
enum PipelineWireCases {
    /// A typical `send`, as the pages write it (one keystroke of the `github-user` field).
    static let send = #"{"type":"send","id":"s1","message":{"type":"input","value":"heckj"}}"#

    /// A typical event, as the `github-user` pipeline writes it (a found user).
    static let event = #"{"query":"heckj","status":"found","type":"result","users":[{"avatar_url":"https://avatars.githubusercontent.com/u/43388?v=4","html_url":"https://github.com/heckj","id":43388,"login":"heckj","name":"Joe Heck","public_repos":69}]}"#

    /// The multiplexer's read of one client frame; an operation is one `send` decoded, its
    /// message handed on as text.
    final class DecodeSend: BatchOperation {
        func run(_ count: Int) -> Int {
            var checksum = 0
            for _ in 0..<count {
                guard case .send(_, let message)? = try? MuxClientFrame(decoding: PipelineWireCases.send) else {
                    preconditionFailure("the benchmark's frame does not decode")
                }
                checksum &+= message.frameText.utf8.count
            }
            return checksum
        }
    }

    /// The multiplexer's write of one event frame; an operation is one frame's JSON.
    final class EncodeEvent: BatchOperation {
        func run(_ count: Int) -> Int {
            var checksum = 0
            for _ in 0..<count {
                checksum &+= MuxServerFrame.event(id: "s1", event: PipelineWireCases.event).json.utf8.count
            }
            return checksum
        }
    }
}
