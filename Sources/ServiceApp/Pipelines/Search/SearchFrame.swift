import PipelineWire

/// What a client's text frame on `/ws/search` means: the search field's current text (as on
/// `/ws`: `{"type":"input","value":…}` or plain text), the pull-to-refresh gesture
/// (`{"type":"refresh"}`), or something unreadable.
enum SearchFrame: Equatable {
    case input(String)
    case refresh
    case unreadable(String)

    init(text: String) {
        if text.utf8.first == UInt8(ascii: "{"),
           JSONObjectStrings(text)?["type"] == "refresh" {
            self = .refresh
            return
        }
        switch ClientFrame(text: text) {
        case .input(let value): self = .input(value)
        case .unreadable(let message): self = .unreadable(message)
        }
    }
}
