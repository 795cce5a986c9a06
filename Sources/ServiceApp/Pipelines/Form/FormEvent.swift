import PipelineWire

/// A server → client event of `/ws/form`: one JSON object, one line, one text frame.
enum FormEvent: Equatable {
    case hello
    /// A field group's validity changed (`field` is `value1` or `value2`); `message` is `""` when valid.
    case validation(field: String, valid: Bool, message: String)
    /// Whether the submit button is enabled.
    case submit(allowed: Bool)
    case submitted(value1: String, value2: String)
    case error(code: String, message: String)

    /// The event as the single-line JSON text the contract defines (keys sorted).
    var json: String {
        var writer = JSONWriter()
        writer.beginObject()
        switch self {
        case .hello:
            writer.member("pipeline", string: PipelineDescriptor.form.name)
            writer.member("type", string: "hello")
        case .validation(let field, let valid, let message):
            writer.member("field", string: field)
            writer.member("message", string: message)
            writer.member("type", string: "validation")
            writer.member("valid", bool: valid)
        case .submit(let allowed):
            writer.member("allowed", bool: allowed)
            writer.member("type", string: "submit")
        case .submitted(let value1, let value2):
            writer.member("type", string: "submitted")
            writer.member("value1", string: value1)
            writer.member("value2", string: value2)
        case .error(let code, let message):
            return GithubUserEvent.error(code: code, message: message).json
        }
        writer.endObject()
        return writer.text
    }
}
