import PipelineWire

/// What a client's text frame on `/ws/form` means.
enum FormFrame: Equatable {
    /// The form's fields, as the seed's `@Published` properties.
    enum Field: String, CaseIterable, Sendable {
        case value1
        case value2
        case value2Repeat = "value2_repeat"
    }

    /// `{"type":"field","name":…,"value":…}`: a field's current text.
    case field(Field, String)
    /// `{"type":"submit"}`: the submit button was pressed.
    case submit
    case unreadable(String)

    init(text: String) {
        guard let object = JSONObjectStrings(text) else {
            self = .unreadable("a frame must be a JSON object")
            return
        }
        switch object["type"] {
        case "submit":
            self = .submit
        case "field":
            guard let name = object["name"], let field = Field(rawValue: name) else {
                self = .unreadable("unknown field; expected one of \(Field.allCases.map(\.rawValue).joined(separator: ", "))")
                return
            }
            guard let value = object["value"] else {
                self = .unreadable("a field message needs a string \"value\"")
                return
            }
            self = .field(field, value)
        case let type?:
            self = .unreadable("unknown message type \"\(type)\"")
        case nil:
            self = .unreadable("the JSON object has no \"type\"")
        }
    }
}
