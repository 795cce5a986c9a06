/// Why a pipeline definition was refused: what a `bad_pipeline` error frame carries.
public struct BadPipeline: Error, Equatable, Hashable, Sendable, CustomStringConvertible {
    /// The index (0-based) of the first offending stage; nil when the definition as a whole is
    /// wrong (not an object, no `stages`, not an array, empty, too many stages, an unknown member).
    public let stage: Int?
    /// Why, for people.
    public let message: String

    /// A refusal of stage `stage` (nil: of the whole definition).
    public init(stage: Int?, message: String) {
        self.stage = stage
        self.message = message
    }

    /// `stage N: message`, or the message alone.
    public var description: String {
        if let stage { "stage \(stage): \(message)" } else { message }
    }
}
