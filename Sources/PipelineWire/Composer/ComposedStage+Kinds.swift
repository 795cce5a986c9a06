extension ComposedStage {
    /// The kind of value the stage produces from values of kind `input`; nil when it does not
    /// accept them. (Where it may stand is checked too: `retry` only directly after a lookup.)
    public func output(for input: ValueKind) -> ValueKind? {
        switch self {
        case .throttle, .debounce, .delay, .removeDuplicates:
            return input
        case .filter(_, _, let prefix):
            if prefix != nil { return input == .string ? input : nil }
            return input == .string || input == .array ? input : nil
        case .map(let function):
            switch function {
            case .lowercased, .uppercased, .trimmed: return input == .string ? .string : nil
            case .count: return input == .string || input == .array ? .number : nil
            case .login: return input.isLookupResult ? .string : nil
            }
        case .scan(.count):
            return .number
        case .scan(.joined):
            return input == .string ? .string : nil
        case .collect:
            return .array
        case .prepend(let value):
            return value.kind == input ? input : nil
        case .lookup(let source, _):
            return input == .string ? source.resultKind : nil
        case .retry:
            return input.isLookupResult ? input : nil
        }
    }

    /// The kinds of value it accepts.
    public var acceptedKinds: [ValueKind] {
        ValueKind.allCases.filter { output(for: $0) != nil }
    }
}
