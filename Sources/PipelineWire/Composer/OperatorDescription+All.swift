extension OperatorDescription {
    private typealias P = Parameter

    private static func ms(_ fallback: Int, _ summary: String) -> Parameter {
        P("ms", .integer, minimum: 0, maximum: .maxMs, default: .number(Double(fallback)), summary)
    }

    private static let results = [ValueKind.githubUser.rawValue, ValueKind.githubSearch.rawValue]

    /// Every operator, in the catalog's order (`ComposedStage.ops`).
    public static let all: [OperatorDescription] = [
        OperatorDescription(
            op: "throttle", combine: "throttle(for:scheduler:latest:)",
            summary: "At most one value per window of ms: the window's latest (latest true) or its first.",
            parameters: [
                ms(500, "the window, in milliseconds"),
                P("latest", .boolean, default: .boolean(true), "send the window's latest value (true) or its first (false)"),
            ],
            accepts: ["any"], produces: "same"),
        OperatorDescription(
            op: "debounce", combine: "debounce(for:scheduler:)",
            summary: "A value once no other has come for ms.",
            parameters: [ms(300, "the quiet time, in milliseconds")], accepts: ["any"], produces: "same"),
        OperatorDescription(
            op: "delay", combine: "delay(for:scheduler:)",
            summary: "Every value, ms later (at most maxCount on their way: more are dropped while it is full).",
            parameters: [ms(200, "the delay, in milliseconds")], accepts: ["any"], produces: "same"),
        OperatorDescription(
            op: "removeDuplicates", combine: "removeDuplicates()",
            summary: "Drops a value equal to the one before it.",
            parameters: [], accepts: ["any"], produces: "same"),
        OperatorDescription(
            op: "filter", combine: "filter(_:)",
            summary: "Keeps the values that meet every condition given (at least one): a length (characters or elements) and, for strings, a prefix.",
            parameters: [
                P("minLength", .integer, minimum: 0, maximum: .maxStringLength, "the fewest characters (or elements)"),
                P("maxLength", .integer, minimum: 0, maximum: .maxStringLength, "the most characters (or elements)"),
                P("prefix", .string, "what a string must start with (strings only)"),
            ],
            accepts: [ValueKind.string.rawValue, ValueKind.array.rawValue], produces: "same"),
        OperatorDescription(
            op: "map", combine: "map(_:)",
            summary: "Transforms each value: lowercased, uppercased, trimmed (string → string), count (string or array → number), login (a lookup's result → the user's login, the query when none was found, the first match's login or \"\" for a search).",
            parameters: [
                P("fn", .enum, values: MapFunction.allCases.map(\.rawValue), required: true, "the function"),
            ],
            accepts: [ValueKind.string.rawValue, ValueKind.array.rawValue] + results, produces: "by fn"),
        OperatorDescription(
            op: "scan", combine: "scan(_:_:)",
            summary: "Accumulates: count (any → the number of values so far) or joined (string → the last maxCount values, joined by separator).",
            parameters: [
                P("fn", .enum, values: ScanFunction.names, required: true, "the accumulation"),
                P("separator", .string, default: .string(","), "joined only: what goes between the values"),
            ],
            accepts: ["any"], produces: "by fn"),
        OperatorDescription(
            op: "collect", combine: "collect(_:) or collect(.byTime(_:_:))",
            summary: "Gathers values into arrays: every count values, or every ms (exactly one of the two; at most maxCount values a group). Nested collects multiply: a value may hold at most maxCount input values.",
            parameters: [
                P("count", .integer, minimum: 1, maximum: .maxCount, "values per array"),
                P("ms", .integer, minimum: 1, maximum: .maxMs, "the time per array, in milliseconds"),
            ],
            accepts: ["any"], produces: ValueKind.array.rawValue),
        OperatorDescription(
            op: "prepend", combine: "prepend(_:)",
            summary: "Sends value first, then the values that come.",
            parameters: [P("value", .value, required: true, "a string, number or boolean, of the kind flowing into the stage")],
            accepts: [ValueKind.string.rawValue, ValueKind.number.rawValue, ValueKind.boolean.rawValue], produces: "same"),
        OperatorDescription(
            op: "lookup", combine: "map(_:) + switchToLatest(), or flatMap(maxPublishers:_:)",
            summary: "Looks each value up on GitHub (as /ws or /ws/search does, counted by fair use); flatten decides what happens to a request still running when the next value comes.",
            parameters: [
                P("source", .enum, values: LookupSource.allCases.map(\.rawValue), required: true,
                  "github-user (the user with this login) or github-search (users matching it)"),
                P("flatten", .enum, default: .string("switchToLatest"), values: Flatten.names,
                  "switchToLatest (cancel it), flatMap (run up to maxPublishers at once) or concat (one after the other)"),
                P("maxPublishers", .integer, minimum: 1, maximum: .maxPublishers, default: .number(1), "flatMap only: requests at once"),
            ],
            accepts: [ValueKind.string.rawValue], produces: "by source"),
        OperatorDescription(
            op: "retry", combine: "retry(_:)",
            summary: "Directly after a lookup: its request is tried again, up to times more, when it fails.",
            parameters: [P("times", .integer, minimum: 1, maximum: .maxCount, required: true, "how many more tries")],
            accepts: results, produces: "same"),
    ]
}
