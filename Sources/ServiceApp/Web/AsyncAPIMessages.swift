/// The messages of `AsyncAPIDocument`, each with the JSON Schema of its payload.
enum AsyncAPIMessages {
    static var all: [String: Any] { pipelineMessages.merging(mux) { first, _ in first }.merging(composedEvents) { first, _ in first } }

    /// The messages of the pipelines' own endpoints and `/ws/echo`.
    static var pipelineMessages: [String: Any] { [
        // Client → server.
        "input": message("Input", "The field's current value", object("input", ["value": string])),
        "plainText": message("PlainText", "Any other text: the frame itself is the value (one trailing \\n or \\r\\n removed)",
                             ["type": "string"], contentType: "text/plain"),
        "refresh": message("Refresh", "The pull-to-refresh gesture", object("refresh", [:])),
        "field": message("Field", "A form field's current text", object("field", [
            "name": ["type": "string", "enum": ["value1", "value2", "value2_repeat"]], "value": string,
        ])),
        "submit": message("Submit", "The submit button was pressed", object("submit", [:])),
        // Server → client.
        "hello": message("Hello", "First frame on /ws", object("hello", [
            "pipeline": ["const": "github-user"], "throttleMs": integer, "minLength": integer,
        ])),
        "searchHello": message("SearchHello", "First frame on /ws/search", object("hello", [
            "pipeline": ["const": "github-search"], "debounceMs": integer, "refreshDelayMs": integer,
        ])),
        "formHello": message("FormHello", "First frame on /ws/form", object("hello", ["pipeline": ["const": "form"]])),
        "activity": message("Activity", "An upstream request of this session starts (true) or ends (false)",
                            object("activity", ["active": boolean])),
        "refreshing": message("Refreshing", "A refresh began (true); its search was sent (false)", object("refreshing", ["active": boolean])),
        "result": message("Result", "The lookup pipeline produced a value for query", object("result", [
            "query": string,
            "status": ["type": "string", "enum": ["found", "not_found", "too_short", "invalid", "rate_limited", "unavailable"]],
            "users": ["type": "array", "maxItems": 1, "items": user],
            "stale": boolean, "scope": ["type": "string", "enum": ["client"]],
        ], optional: ["stale", "scope"])),
        "search": message("Search", "A search result", object("search", [
            "query": string,
            "status": ["type": "string", "enum": ["ok", "empty", "invalid", "rate_limited", "unavailable"]],
            "total_count": ["type": "integer", "minimum": 0],
            "items": ["type": "array", "items": searchItem],
            "stale": boolean, "scope": ["type": "string", "enum": ["client"]],
        ], optional: ["stale", "scope"])),
        "validation": message("Validation", "A field group's validity changed", object("validation", [
            "field": ["type": "string", "enum": ["value1", "value2"]], "valid": boolean, "message": string,
        ])),
        "submitState": message("SubmitState", "Whether submit is allowed (sent at start and on change)", object("submit", ["allowed": boolean])),
        "submitted": message("Submitted", "A submit while allowed", object("submitted", ["value1": string, "value2": string])),
        "error": message("Error", "The client sent something unreadable, or submitted too early", object("error", [
            "code": ["type": "string", "enum": ["bad_message", "not_ready"]], "message": string,
        ])),
        "trace": message("Trace", "With ?trace=1: one event at one stage of this session's pipeline", object("trace", [
            "stage": ["type": "string", "description": "one of the pipeline's stages (GET /api/pipelines)"],
            "event": ["type": "string", "enum": ["subscription", "value", "completion", "cancel"]],
            "value": ["description": "the value, with event value"],
            "failure": ["type": "string", "description": "why the stage failed, with a failed completion"],
            "t": ["type": "number", "minimum": 0,
                  "description": "milliseconds since the session opened, on the pipeline's clock; never less than the previous trace's"],
        ], optional: ["value", "failure"])),
        "echo": message("Echo", "Any text or binary message", [:], contentType: "application/octet-stream"),
    ] }

    static var string: [String: Any] { ["type": "string"] }
    private static var integer: [String: Any] { ["type": "integer"] }
    private static var boolean: [String: Any] { ["type": "boolean"] }

    private static var user: [String: Any] { [
        "type": "object", "required": ["login", "id", "name", "public_repos", "avatar_url", "html_url"],
        "properties": [
            "login": string, "id": integer, "name": ["type": ["string", "null"]], "public_repos": ["type": ["integer", "null"]],
            "avatar_url": ["type": ["string", "null"]], "html_url": ["type": ["string", "null"]],
        ],
    ] }

    private static var searchItem: [String: Any] { [
        "type": "object", "required": ["login", "id"], "additionalProperties": false,
        "properties": ["login": string, "id": integer, "avatar_url": string, "html_url": string],
    ] }

    /// A closed object schema whose `type` is `type`; every property is required but `optional`.
    static func object(_ type: String, _ properties: [String: Any], optional: Set<String> = []) -> [String: Any] {
        var all = properties
        all["type"] = ["const": type]
        return [
            "type": "object", "additionalProperties": false,
            "required": all.keys.filter { !optional.contains($0) }.sorted(),
            "properties": all,
        ]
    }

    static func message(_ name: String, _ summary: String, _ payload: [String: Any], contentType: String? = nil) -> [String: Any] {
        var message: [String: Any] = ["name": name, "summary": summary, "payload": payload]
        if let contentType { message["contentType"] = contentType }
        return message
    }
}
