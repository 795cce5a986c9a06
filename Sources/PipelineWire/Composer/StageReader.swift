/// Reads one stage object of a definition's JSON into a `ComposedStage`: its `op`, which
/// parameters it may have, and their types (bounds and kinds are `DefinitionChecker`'s). Strict:
/// a member given twice, an unknown operator or parameter, a value of the wrong type are refused.
struct StageReader {
    private let fields: MuxFrameFields
    private let index: Int
    private let op: String
    private let limits: ComposerLimits

    /// The parameters each operator may have besides `op`: the catalog's.
    static let parameters: [String: [String]] = Dictionary(
        uniqueKeysWithValues: OperatorDescription.all.map { ($0.op, $0.parameters.map(\.name)) })

    /// The defaults of the parameters that have one.
    static let defaultThrottleMs = 500
    static let defaultDebounceMs = 300
    static let defaultDelayMs = 200
    static let defaultLatest = true
    static let defaultSeparator = ","
    static let defaultMaxPublishers = 1

    /// Reads stage `index`, `value` being its member of the stages array.
    static func stage(_ value: JSONScanner.Value, at index: Int, in bytes: UnsafeBufferPointer<UInt8>,
                      limits: ComposerLimits) throws(BadPipeline) -> ComposedStage {
        func refuse(_ message: String) -> BadPipeline { BadPipeline(stage: index, message: message) }
        guard case .object(let range) = value,
              let members = try? JSONScanner.members(of: UnsafeBufferPointer(rebasing: bytes[range])) else {
            throw refuse("a stage must be a JSON object with an \"op\"")
        }
        var seen = Set<String>()
        for member in members where !seen.insert(member.key).inserted {
            throw refuse("\"\(member.key.prefix(64))\" is given twice")
        }
        let fields = MuxFrameFields(members, in: UnsafeBufferPointer(rebasing: bytes[range]))
        guard case .string(let op)? = fields["op"] else { throw refuse("a stage needs a string \"op\"") }
        guard let allowed = parameters[op] else {
            throw refuse("unknown operator \"\(op.prefix(64))\"; expected one of \(ComposedStage.ops.joined(separator: ", "))")
        }
        if let unknown = members.first(where: { $0.key != "op" && !allowed.contains($0.key) }) {
            let expected = allowed.isEmpty ? "it has none" : "expected \(allowed.joined(separator: ", "))"
            throw refuse("\(op): unknown parameter \"\(unknown.key.prefix(64))\"; \(expected)")
        }
        return try StageReader(fields: fields, index: index, op: op, limits: limits).read()
    }

    private func read() throws(BadPipeline) -> ComposedStage {
        switch op {
        case "throttle":
            return .throttle(ms: try integer("ms", 0, limits.maxMs) ?? Self.defaultThrottleMs, latest: try bool("latest") ?? Self.defaultLatest)
        case "debounce":
            return .debounce(ms: try integer("ms", 0, limits.maxMs) ?? Self.defaultDebounceMs)
        case "delay":
            return .delay(ms: try integer("ms", 0, limits.maxMs) ?? Self.defaultDelayMs)
        case "removeDuplicates":
            return .removeDuplicates
        case "filter":
            return .filter(minLength: try integer("minLength", 0, limits.maxStringLength),
                           maxLength: try integer("maxLength", 0, limits.maxStringLength),
                           prefix: try string("prefix"))
        case "map":
            return .map(try choice("fn", MapFunction.allCases, \.rawValue))
        case "scan":
            let function = try choice("fn", ScanFunction.names, \.self)
            guard function == "joined" else {
                if fields["separator"] != nil { throw refuse("\(op): \"separator\" is only for \"fn\":\"joined\"") }
                return .scan(.count)
            }
            return .scan(.joined(separator: try string("separator") ?? Self.defaultSeparator))
        case "collect":
            let count = try integer("count", 1, limits.maxCount)
            let ms = try integer("ms", 1, limits.maxMs)
            switch (count, ms) {
            case (let count?, nil): return .collect(.count(count))
            case (nil, let ms?): return .collect(.ms(ms))
            default: throw refuse("\(op): needs exactly one of \"count\" and \"ms\"")
            }
        case "prepend":
            return .prepend(try constant("value"))
        case "lookup":
            let source = try choice("source", LookupSource.allCases, \.rawValue)
            let flatten = fields["flatten"] == nil ? "switchToLatest" : try choice("flatten", Flatten.names, \.self)
            let maxPublishers = try integer("maxPublishers", 1, limits.maxPublishers)
            switch flatten {
            case "flatMap": return .lookup(source, flatten: .flatMap(maxPublishers: maxPublishers ?? Self.defaultMaxPublishers))
            case _ where maxPublishers != nil: throw refuse("\(op): \"maxPublishers\" is only for \"flatten\":\"flatMap\"")
            case "concat": return .lookup(source, flatten: .concat)
            default: return .lookup(source, flatten: .switchToLatest)
            }
        default:
            guard let times = try integer("times", 1, limits.maxCount) else { throw refuse("\(op): needs \"times\"") }
            return .retry(times: times)
        }
    }

    // MARK: Parameters

    private func refuse(_ message: String) -> BadPipeline {
        BadPipeline(stage: index, message: message)
    }

    /// An integer parameter (absent: nil); `lower` and `upper` only say what is expected.
    private func integer(_ name: String, _ lower: Int, _ upper: Int) throws(BadPipeline) -> Int? {
        guard let value = fields[name] else { return nil }
        guard case .number(let range) = value, let integer = MuxFrameFields.integer(fields.bytes(range)) else {
            throw refuse("\(op): \(DefinitionChecker.integerMessage(name, lower, upper))")
        }
        return integer
    }

    private func bool(_ name: String) throws(BadPipeline) -> Bool? {
        switch fields[name] {
        case nil: return nil
        case .bool(let value)?: return value
        default: throw refuse("\(op): \"\(name)\" must be true or false")
        }
    }

    private func string(_ name: String) throws(BadPipeline) -> String? {
        switch fields[name] {
        case nil: return nil
        case .string(let value)?: return value
        default: throw refuse("\(op): \"\(name)\" must be a string")
        }
    }

    /// A string parameter, required, that must name one of `values`.
    private func choice<Value>(_ name: String, _ values: [Value], _ nameOf: (Value) -> String) throws(BadPipeline) -> Value {
        guard case .string(let text)? = fields[name], let value = values.first(where: { nameOf($0) == text }) else {
            throw refuse("\(op): \"\(name)\" must be one of \(values.map(nameOf).joined(separator: ", "))")
        }
        return value
    }

    /// A string, a finite number or a boolean.
    private func constant(_ name: String) throws(BadPipeline) -> ComposedValue {
        switch fields[name] {
        case .string(let text)?: return .string(text)
        case .bool(let value)?: return .boolean(value)
        case .number(let range)?:
            guard let number = Double(fields.text(range)), number.isFinite else {
                throw refuse("\(op): \"\(name)\" must be a finite number")
            }
            return .number(number)
        default: throw refuse("\(op): needs a \"\(name)\": a string, a number or a boolean")
        }
    }
}
