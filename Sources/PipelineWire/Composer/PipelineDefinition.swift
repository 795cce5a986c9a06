/// A composed pipeline: the stages a client chose, in order, from the operator catalog; the
/// input (a string, as the username field sends it) flows through them. On the wire it is the
/// object `{"stages":[…]}` of a `subscribe` frame's `pipeline`.
///
/// ```swift
/// let definition = try PipelineDefinition(decoding: #"{"stages":[{"op":"debounce","ms":300},{"op":"removeDuplicates"}]}"#)
/// definition.json // {"stages":[{"ms":300,"op":"debounce"},{"op":"removeDuplicates"}]}
/// ```
public struct PipelineDefinition: Equatable, Hashable, Sendable {
    /// The stages, first to last.
    public var stages: [ComposedStage]

    /// A definition of `stages` (not checked: see `validate(limits:)`).
    public init(stages: [ComposedStage]) {
        self.stages = stages
    }

    /// Reads and checks a definition object (its exact JSON text) against `limits` and the value
    /// kinds; the result is normalised. The whole is checked first (an object with only
    /// `stages`, an array of 1 to `maxStages`), then each stage in order; the refusal names the
    /// first offending stage. The work is linear in the text and bounded by the limits.
    public init(decoding json: String, limits: ComposerLimits = ComposerLimits()) throws(BadPipeline) {
        var text = json
        let stages: Result<[ComposedStage], BadPipeline> = text.withUTF8 { bytes in
            do throws(BadPipeline) {
                return .success(try Self.read(bytes, limits: limits))
            } catch {
                return .failure(error)
            }
        }
        self.init(stages: try stages.get())
    }

    /// Checks a definition built in Swift against `limits` and the value kinds, as decoding does.
    public func validate(limits: ComposerLimits = ComposerLimits()) throws(BadPipeline) {
        try DefinitionChecker.check(count: stages.count, limits: limits)
        var checker = DefinitionChecker(limits: limits)
        for stage in stages { try checker.check(stage) }
    }

    /// The normalised object `{"stages":[…]}`: each stage's normalised object, keys sorted, one
    /// line.
    public var json: String {
        var writer = JSONWriter(capacity: 32 + 48 * stages.count)
        writer.beginObject()
        writer.member("stages", json: "[" + stages.map(\.json).joined(separator: ",") + "]")
        writer.endObject()
        return writer.text
    }

    /// The kind of the values it outputs, after the last stage (meaningful when it is valid).
    public var outputKind: ValueKind {
        stages.reduce(ValueKind.string) { kind, stage in stage.output(for: kind) ?? kind }
    }

    /// Whether it has a lookup (its events then include the lookups' `activity` frames).
    public var hasLookup: Bool {
        stages.contains { if case .lookup = $0 { true } else { false } }
    }

    // MARK: Reading

    private static func read(_ bytes: UnsafeBufferPointer<UInt8>, limits: ComposerLimits) throws(BadPipeline) -> [ComposedStage] {
        func refuse(_ message: String) -> BadPipeline { BadPipeline(stage: nil, message: message) }
        guard let members = try? JSONScanner.members(of: bytes) else {
            throw refuse("a pipeline definition must be a JSON object: {\"stages\":[…]}")
        }
        var stagesValue: JSONScanner.Value?
        for member in members {
            guard member.key == "stages" else {
                throw refuse("unknown member \"\(member.key.prefix(64))\"; a pipeline definition has only \"stages\"")
            }
            guard stagesValue == nil else { throw refuse("\"stages\" is given twice") }
            stagesValue = member.value
        }
        guard case .array(let range)? = stagesValue else {
            throw refuse("a pipeline definition needs \"stages\": an array of stage objects")
        }
        // At most maxStages elements are read; the text was checked whole already.
        let array = UnsafeBufferPointer(rebasing: bytes[range])
        let read: [JSONScanner.Value]?
        do {
            read = try JSONScanner.elements(of: array, limit: max(0, limits.maxStages))
        } catch {
            throw refuse("\"stages\" must be a JSON array")
        }
        guard let elements = read else { throw DefinitionChecker.tooManyStages(limits) }
        try DefinitionChecker.check(count: elements.count, limits: limits)
        var checker = DefinitionChecker(limits: limits)
        var stages: [ComposedStage] = []
        stages.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            let stage = try StageReader.stage(element, at: index, in: array, limits: limits)
            try checker.check(stage)
            stages.append(stage)
        }
        return stages
    }
}
