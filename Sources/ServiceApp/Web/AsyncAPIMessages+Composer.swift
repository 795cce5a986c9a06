import PipelineWire

/// A composed pipeline in `AsyncAPIDocument`: the definition object a `subscribe` carries and the
/// events only a composed subscription sends (its `hello` and its values), generated from
/// `OperatorDescription.all`. Bounds are the default limits; the running service's are at
/// `GET /api/operators`.
extension AsyncAPIMessages {
    /// The events of a composed subscription that no catalog endpoint sends. (Its lookups'
    /// `activity`, `result` and `search`, and `error`, are the endpoints' own.)
    static var composedEvents: [String: Any] { [
        "composedHello": message("ComposedHello", "First event of a composed subscription: its stages, normalised (every parameter present)", object("hello", [
            "pipeline": ["const": "composed"],
            "stages": ["type": "array", "minItems": 1, "items": stage],
        ])),
        "composedValue": message("ComposedValue", "One output value of a composed pipeline whose values are not a lookup's results", object("value", [
            "value": ["type": ["string", "number", "boolean", "array"]],
        ])),
    ] }

    /// The payloads of `composedEvents`.
    static var composedEventPayloads: [Any] {
        composedEvents.keys.sorted().compactMap { (composedEvents[$0] as? [String: Any])?["payload"] }
    }

    /// A definition object: `{"stages":[…]}`.
    static var definition: [String: Any] { [
        "type": "object", "additionalProperties": false, "required": ["stages"],
        "description": "A composed pipeline: the input (a string) flows through the stages in order. Bounds shown are the default "
            + "limits (composer.*); GET /api/operators has the running service's. A definition that does not fit is refused "
            + "with an error bad_pipeline naming its first offending stage.",
        "properties": [
            "stages": ["type": "array", "minItems": 1, "maxItems": ComposerLimits().maxStages, "items": stage],
        ],
    ] }

    /// One stage: one closed object per operator.
    private static var stage: [String: Any] {
        ["oneOf": OperatorDescription.all.map(stage)]
    }

    private static func stage(_ description: OperatorDescription) -> [String: Any] {
        var properties: [String: Any] = ["op": ["const": description.op]]
        for parameter in description.parameters { properties[parameter.name] = schema(parameter) }
        return [
            "type": "object", "additionalProperties": false, "description": "\(description.combine): \(description.summary)",
            "required": ["op"] + description.parameters.filter(\.required).map(\.name),
            "properties": properties,
        ]
    }

    private static func schema(_ parameter: OperatorDescription.Parameter) -> [String: Any] {
        let limits = ComposerLimits()
        var schema: [String: Any] = ["description": parameter.summary]
        switch parameter.type {
        case .integer:
            schema["type"] = "integer"
            if let minimum = parameter.minimum { schema["minimum"] = minimum }
            if let maximum = parameter.maximum { schema["maximum"] = maximum.value(in: limits) }
        case .boolean: schema["type"] = "boolean"
        case .string: schema["type"] = "string"; schema["maxLength"] = limits.maxStringLength
        case .enum: schema["type"] = "string"; schema["enum"] = parameter.values ?? []
        case .value: schema["type"] = ["string", "number", "boolean"]
        }
        switch parameter.default {
        case .string(let text)?: schema["default"] = text
        case .number(let number)?: schema["default"] = number.rounded() == number ? Int(number) as Any : number
        case .boolean(let value)?: schema["default"] = value
        case nil: break
        }
        return schema
    }
}
