import PipelineWire

/// The frames of `/ws/pipelines` for `AsyncAPIDocument`: the subscriber's calls (client → server)
/// and the publisher's answers (server → client). An `event` frame's `event` is any message its
/// pipeline's own endpoint receives, validated against the same schemas.
extension AsyncAPIMessages {
    static let muxSend = ["muxSubscribe", "muxSend", "muxRequest", "muxCancel"]
    static let muxReceive = ["muxSubscribed", "muxEvent", "muxTrace", "muxCompletion", "muxError"]

    static var mux: [String: Any] { [
        "muxSubscribe": message("Subscribe", "Starts a new instance of a catalog pipeline, as opening its endpoint would, or of a composed one", object("subscribe", [
            "id": id,
            "pipeline": ["oneOf": [
                ["type": "string", "enum": PipelineDescriptor.all.map(\.name), "description": "a catalog pipeline (GET /api/pipelines)"],
                definition,
            ]],
            "demand": demand(minimum: 0, "the first request (default unlimited)"),
            "trace": ["type": "boolean", "description": "also send the instance's trace frames"],
        ], optional: ["demand", "trace"])),
        "muxSend": message("Send", "One client frame of the pipeline's own endpoint, handled exactly as there", object("send", [
            "id": id,
            "message": ["type": ["object", "string"], "description": "a frame of the endpoint as JSON, or (a string) a text frame as it would come"],
        ])),
        "muxRequest": message("Request", "More demand, adding up as Subscribers.Demand does", object("request", [
            "id": id, "n": demand(minimum: 1, "how many more events may be sent"),
        ])),
        "muxCancel": message("Cancel", "Tears the instance down; nothing more is sent for the id, which may be used again", object("cancel", ["id": id])),
        "muxSubscribed": message("Subscribed", "The subscription exists (outside demand)", object("subscribed", [
            "id": id, "pipeline": ["type": "string", "enum": PipelineDescriptor.all.map(\.name) + ["composed"]],
        ])),
        "muxEvent": message("Event", "One event of the instance, exactly as its endpoint sends it (one unit of demand)", object("event", [
            "id": id, "event": ["anyOf": pipelineEventPayloads + composedEventPayloads],
        ])),
        "muxTrace": message("MuxTrace", "With trace: one trace event of the instance (outside demand)", muxTracePayload),
        "muxCompletion": message("Completion", "The subscription ended by itself (never after a cancel)", muxCompletionPayload),
        "muxError": message("MuxError", "A client frame was refused; the connection and every other subscription go on", muxErrorPayload),
    ] }

    private static var id: [String: Any] {
        ["type": "string", "minLength": 1, "maxLength": MuxClientFrame.maxIDLength, "description": "names one subscription of this connection"]
    }

    private static func demand(minimum: Int, _ description: String) -> [String: Any] {
        ["oneOf": [["type": "integer", "minimum": minimum, "maximum": Int.max], ["const": "unlimited"]], "description": description]
    }

    /// The payload of every message any pipeline's endpoint receives (each once).
    private static var pipelineEventPayloads: [Any] {
        let messages = pipelineMessages
        let names = Set(PipelineDescriptor.all.flatMap(\.messages.receive)).subtracting(["trace"])
        return names.sorted().compactMap { (messages[$0] as? [String: Any])?["payload"] }
    }

    /// The endpoints' trace schema with the subscription's id.
    private static var muxTracePayload: [String: Any] {
        guard var payload = (pipelineMessages["trace"] as? [String: Any])?["payload"] as? [String: Any],
              var properties = payload["properties"] as? [String: Any], let required = payload["required"] as? [String] else { return [:] }
        properties["id"] = id
        payload["properties"] = properties
        payload["required"] = (required + ["id"]).sorted()
        return payload
    }

    /// `stage` on bad_pipeline errors only, always there: the first offending stage, or null.
    private static var muxErrorPayload: [String: Any] {
        var payload = object("error", [
            "id": ["type": ["string", "null"], "minLength": 1, "maxLength": MuxClientFrame.maxIDLength],
            "code": ["type": "string", "enum": MuxErrorCode.allCases.map(\.rawValue)],
            "message": string,
            "stage": [
                "type": ["integer", "null"], "minimum": 0,
                "description": "bad_pipeline only: the index of the first offending stage, null when the definition as a whole is wrong",
            ],
        ], optional: ["stage"])
        payload["if"] = ["properties": ["code": ["const": MuxErrorCode.badPipeline.rawValue]]]
        payload["then"] = ["required": ["stage"]]
        payload["else"] = ["not": ["required": ["stage"]]]
        return payload
    }

    private static var muxCompletionPayload: [String: Any] {
        var payload = object("completion", [
            "id": id,
            "finished": ["const": true],
            "failure": [
                "type": "object", "additionalProperties": false, "required": ["code", "message"],
                "properties": ["code": ["type": "string", "enum": MuxFailure.Code.allCases.map(\.rawValue)], "message": string],
            ],
        ], optional: ["finished", "failure"])
        payload["oneOf"] = [["required": ["finished"]], ["required": ["failure"]]]
        return payload
    }
}
