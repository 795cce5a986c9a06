/// Why a frame of `/ws/pipelines` could not be read.
///
/// For a client frame it is exactly what the server answers in its `error` frame: `id` is the
/// frame's own id when it had a valid one (nil otherwise), `code` and `message` the error's. For
/// a server frame read by a client, `code` is `bad_message` and `id` nil.
public struct MuxFrameError: Error, Equatable, Hashable, Sendable, CustomStringConvertible {
    public var id: String?
    public var code: MuxErrorCode
    public var message: String

    public init(id: String?, code: MuxErrorCode, message: String) {
        self.id = id
        self.code = code
        self.message = message
    }

    public var description: String { "\(code): \(message)" }
}
