/// Checks a definition's stages one after the other against the limits and the value kinds,
/// refusing at the first that does not fit. The one set of rules, for definitions read from
/// JSON and for those built in Swift.
struct DefinitionChecker {
    let limits: ComposerLimits
    /// The kind of the values the stages so far output (the input is a string).
    private(set) var kind = ValueKind.string
    private var index = 0
    private var lookups = 0
    /// How many input values one value may hold by now (nested `collect`s multiply): at most
    /// `limits.maxCount`, so no value grows past what one collect of the largest count holds.
    private var held = 1
    private var previous: ComposedStage?

    init(limits: ComposerLimits) {
        self.limits = limits
    }

    /// Refuses a definition of `count` stages when there are none or too many.
    static func check(count: Int, limits: ComposerLimits) throws(BadPipeline) {
        guard count > 0 else { throw BadPipeline(stage: nil, message: "a pipeline needs at least one stage") }
        guard count <= limits.maxStages else { throw tooManyStages(limits) }
    }

    static func tooManyStages(_ limits: ComposerLimits) -> BadPipeline {
        BadPipeline(stage: nil, message: "too many stages: at most \(limits.maxStages)")
    }

    /// What a parameter that is not an integer in `range` is told.
    static func integerMessage(_ name: String, _ lower: Int, _ upper: Int) -> String {
        "\"\(name)\" must be an integer from \(lower) to \(upper)"
    }

    /// Checks the next stage; throws at its index.
    mutating func check(_ stage: ComposedStage) throws(BadPipeline) {
        if let message = problem(with: stage) {
            throw BadPipeline(stage: index, message: "\(stage.op): \(message)")
        }
        guard let output = stage.output(for: kind) else {
            let accepted = stage.acceptedKinds.map(\.rawValue)
            throw BadPipeline(
                stage: index,
                message: "\(stage.op) does not accept \(kind.described) (it accepts \(accepted.isEmpty ? "nothing here" : accepted.joined(separator: ", ")))")
        }
        if case .lookup = stage { lookups += 1 }
        if case .collect(let trigger) = stage { held *= Self.groupSize(trigger, limits) }
        kind = output
        previous = stage
        index += 1
    }

    /// What is wrong with the stage's parameters or its place; nil when nothing is.
    private func problem(with stage: ComposedStage) -> String? {
        switch stage {
        case .throttle(let ms, _), .debounce(let ms), .delay(let ms):
            return integer("ms", ms, 0, limits.maxMs)
        case .removeDuplicates, .map, .scan(.count):
            return nil
        case .filter(let minLength, let maxLength, let prefix):
            guard minLength != nil || maxLength != nil || prefix != nil else {
                return "needs at least one of \"minLength\", \"maxLength\" and \"prefix\""
            }
            if let minLength, let message = integer("minLength", minLength, 0, limits.maxStringLength) { return message }
            if let maxLength, let message = integer("maxLength", maxLength, 0, limits.maxStringLength) { return message }
            if let minLength, let maxLength, minLength > maxLength { return "\"minLength\" is greater than \"maxLength\": nothing would pass" }
            return prefix.flatMap { string("prefix", $0) }
        case .scan(.joined(let separator)):
            return string("separator", separator)
        case .collect(let trigger):
            let message = switch trigger {
            case .count(let count): integer("count", count, 1, limits.maxCount)
            case .ms(let ms): integer("ms", ms, 1, limits.maxMs)
            }
            if let message { return message }
            let total = held * Self.groupSize(trigger, limits)
            guard total <= limits.maxCount else {
                return "its values would hold up to \(total) input values; nested collects multiply, and a value may hold at most \(limits.maxCount) (a collect by time holds up to \(limits.maxCount) per group)"
            }
            return nil
        case .prepend(.string(let text)):
            return string("value", text)
        case .prepend(.number(let number)):
            return number.isFinite ? nil : "\"value\" must be a finite number"
        case .prepend(.boolean):
            return nil
        case .lookup(_, let flatten):
            guard lookups < limits.maxLookups else { return "too many lookups: at most \(limits.maxLookups)" }
            guard case .flatMap(let maxPublishers) = flatten else { return nil }
            return integer("maxPublishers", maxPublishers, 1, limits.maxPublishers)
        case .retry(let times):
            guard case .lookup? = previous else { return "must come directly after a lookup (it retries that lookup's request)" }
            return integer("times", times, 1, limits.maxCount)
        }
    }

    /// The most values one group of `trigger` holds: its count, or `maxCount` for a group by time.
    private static func groupSize(_ trigger: CollectTrigger, _ limits: ComposerLimits) -> Int {
        if case .count(let count) = trigger { count } else { limits.maxCount }
    }

    /// Nil when `value` is from `lower` to `upper` (never, when the limits leave no room).
    private func integer(_ name: String, _ value: Int, _ lower: Int, _ upper: Int) -> String? {
        value >= lower && value <= upper ? nil : Self.integerMessage(name, lower, upper)
    }

    private func string(_ name: String, _ value: String) -> String? {
        let limit = limits.maxStringLength
        // prefix: counts at most one past the limit, however long the string.
        let fits = limit >= 0 && (limit == Int.max || value.unicodeScalars.prefix(limit + 1).count <= limit)
        return fits ? nil : "\"\(name)\" must be at most \(limit) characters (Unicode scalars)"
    }
}
