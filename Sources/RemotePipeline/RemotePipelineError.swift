import HTTPServer
import PipelineWire

/// Why a remote pipeline's publisher failed.
public enum RemotePipelineError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The connection to `/ws/pipelines` could not be made (refused, rejected with a status,
    /// a bad handshake, an invalid URL).
    case connectFailed(WebSocketClientError)
    /// The connection dropped (or the server closed it) while the subscription was live.
    case connectionLost
    /// The server ended the subscription with a failure (`completion` frame), e.g. `overflow`.
    case failed(code: String, message: String)
    /// The server refused a frame of this subscription (`error` frame), e.g.
    /// `unknown_pipeline`, `too_many_subscriptions`, `too_many_sessions`.
    case refused(code: String, message: String)
    /// The server refused the definition of a composed pipeline (`bad_pipeline`): where
    /// (`stage`, nil for the whole) and why.
    case badPipeline(BadPipeline)
    /// The server sent something the contract does not allow (unreadable JSON, an event
    /// beyond the demand requested); the connection is closed.
    case invalidFrame(String)

    public var description: String {
        switch self {
        case .connectFailed(let error): "cannot connect: \(error)"
        case .connectionLost: "connection lost"
        case .failed(let code, let message): "failed (\(code)): \(message)"
        case .refused(let code, let message): "refused (\(code)): \(message)"
        case .badPipeline(let refusal): "refused (bad_pipeline): \(refusal)"
        case .invalidFrame(let reason): "invalid frame: \(reason)"
        }
    }
}
