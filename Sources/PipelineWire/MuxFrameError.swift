/// Why a frame of `/ws/pipelines` could not be read.
///
/// For a client frame it is exactly what the server answers in its `error` frame: `id` is the
/// frame's own id when it had a valid one (nil otherwise), `code` and `message` the error's. For
/// a server frame read by a client, `code` is `bad_message` and `id` nil.
public struct MuxFrameError: Error, Equatable, Hashable, Sendable, CustomStringConvertible {
    /// The frame's id, when it had a valid one.
    public var id: String?
    /// The error frame's `code`.
    public var code: MuxErrorCode
    /// Why, for people (the error frame's `message`).
    public var message: String

    /// An error about the frame with `id` (nil: none valid).
    public init(id: String?, code: MuxErrorCode, message: String) {
        self.id = id
        self.code = code
        self.message = message
    }

    /// `code: message`.
    public var description: String { "\(code): \(message)" }
}
