import Foundation

extension OpenAPIDocument {
    /// The WebSocket upgrades (RFC 6455, permessage-deflate RFC 7692): one per pipeline of the
    /// catalog (`PipelineDescriptor.all`, each described by its descriptor), `/ws/pipelines` and
    /// `/ws/echo`. Members of the document's `paths` object, as JSON text.
    static let webSocketPaths: String = {
        let pipelines = PipelineDescriptor.all.map { pipeline in
            upgrade(pipeline.path, pipeline.upgrade.operationId, pipeline.upgrade.summary, pipeline.upgrade.description)
        }
        let multiplexer = upgrade(
            "/ws/pipelines", "openPipelines",
            "WebSocket upgrade: any number of pipeline subscriptions over one socket, with demand",
            "Client text frames are subscribe, send, request and cancel; the server sends subscribed, event (one per unit of demand), trace, completion and error frames (see /asyncapi.json). Each subscription counts as a session for limits.sessionsPerClient; a subscription past it gets an error frame too_many_sessions. Every bad frame, binary ones included, gets an error frame and the connection goes on.")
        let echo = upgrade(
            "/ws/echo", "openEchoPipeline",
            "WebSocket upgrade: the identity pipeline, every text or binary message echoed as it came",
            nil, refusals: ["400": "BadHandshake", "426": "UpgradeRequired", "503": "ShuttingDown"])
        return (pipelines + [multiplexer, echo]).joined(separator: ",\n")
    }()

    /// What a pipeline's upgrade can answer besides 101 (fair use: 403 and 429).
    private static let pipelineRefusals = [
        "400": "BadHandshake", "403": "OriginNotAllowed", "426": "UpgradeRequired", "429": "TooManySessions",
        "503": "ShuttingDown",
    ]

    /// `"path": {"get": …}` for one upgrade.
    private static func upgrade(
        _ path: String, _ operationId: String, _ summary: String, _ description: String?,
        refusals: [String: String] = pipelineRefusals
    ) -> String {
        var operation: [String: Any] = [
            "operationId": operationId,
            "summary": summary,
            "parameters": ["Upgrade", "Connection", "SecWebSocketKey", "SecWebSocketVersion", "SecWebSocketExtensions"]
                .map { ["$ref": "#/components/parameters/\($0)"] },
            "responses": refusals.merging(["101": "SwitchingProtocols"]) { first, _ in first }
                .mapValues { ["$ref": "#/components/responses/\($0)"] },
        ]
        operation["description"] = description
        let member = [path: ["get": operation]]
        // Plain strings and arrays of them: JSONSerialization cannot fail on these.
        let data = (try? JSONSerialization.data(withJSONObject: member, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        // The member without the enclosing braces, to sit among the document's other paths.
        return String(decoding: data.dropFirst().dropLast(), as: UTF8.self)
    }
}
