import Foundation

/// A server → client event of `/ws/form`: one JSON object, one line, one text frame.
enum FormEvent: Equatable {
    case hello
    /// A field group's validity changed (`field` is `value1` or `value2`); `message` is `""` when valid.
    case validation(field: String, valid: Bool, message: String)
    /// Whether the submit button is enabled.
    case submit(allowed: Bool)
    case submitted(value1: String, value2: String)
    case error(code: String, message: String)

    var json: String {
        let data: Data
        switch self {
        case .hello:
            data = EventJSON.encode(Hello(type: "hello", pipeline: PipelineDescriptor.form.name))
        case .validation(let field, let valid, let message):
            data = EventJSON.encode(Validation(type: "validation", field: field, valid: valid, message: message))
        case .submit(let allowed):
            data = EventJSON.encode(Submit(type: "submit", allowed: allowed))
        case .submitted(let value1, let value2):
            data = EventJSON.encode(Submitted(type: "submitted", value1: value1, value2: value2))
        case .error(let code, let message):
            return GithubUserEvent.error(code: code, message: message).json
        }
        return String(decoding: data, as: UTF8.self)
    }

    private struct Hello: Encodable { let type: String, pipeline: String }
    private struct Validation: Encodable { let type: String, field: String, valid: Bool, message: String }
    private struct Submit: Encodable { let type: String, allowed: Bool }
    private struct Submitted: Encodable { let type: String, value1: String, value2: String }
}
