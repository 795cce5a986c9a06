import Foundation

/// `GET /asyncapi.json`: an AsyncAPI 3.0 document of every WebSocket endpoint and message of the
/// contract: one channel per pipeline (generated from `PipelineDescriptor.all`), `/ws/pipelines`
/// and `/ws/echo`,
/// a send and a receive operation per pipeline, and a JSON Schema per message (closed objects,
/// so a test that validates every event it receives also catches unexpected fields).
enum AsyncAPIDocument {
    static let json: String = {
        let data = (try? JSONSerialization.data(withJSONObject: document, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }()

    private static var document: [String: Any] {
        var channels: [String: Any] = [:]
        var operations: [String: Any] = [:]
        for pipeline in PipelineDescriptor.all {
            let id = channelID(pipeline.name)
            let (send, receive) = pipeline.messages
            var channelMessages: [String: Any] = [:]
            for name in send + receive { channelMessages[name] = ["$ref": "#/components/messages/\(name)"] }
            channels[id] = [
                "address": pipeline.path,
                "title": pipeline.name,
                "description": "The \(pipeline.name) pipeline (page \(pipeline.page); stages \(pipeline.stages.joined(separator: " → "))). "
                    + "Open with ?trace=1 to also receive trace events.",
                "messages": channelMessages,
                "bindings": traceBinding,
            ]
            operations["send" + id.prefix(1).uppercased() + id.dropFirst()] = [
                "action": "send", "channel": ["$ref": "#/channels/\(id)"],
                "messages": send.map { ["$ref": "#/channels/\(id)/messages/\($0)"] },
            ]
            operations["receive" + id.prefix(1).uppercased() + id.dropFirst()] = [
                "action": "receive", "channel": ["$ref": "#/channels/\(id)"],
                "messages": receive.map { ["$ref": "#/channels/\(id)/messages/\($0)"] },
            ]
        }
        channels["pipelines"] = [
            "address": "/ws/pipelines", "title": "pipelines",
            "description": "Any number of pipeline subscriptions over one socket, with Combine's protocol on the wire: the client "
                + "subscribes (with a first demand), sends each instance its endpoint's frames, requests more demand and cancels; "
                + "the server sends each instance's events within demand, its traces, completions and errors.",
            "messages": Dictionary(uniqueKeysWithValues: (AsyncAPIMessages.muxSend + AsyncAPIMessages.muxReceive).map {
                ($0, ["$ref": "#/components/messages/\($0)"])
            }),
        ]
        operations["sendPipelines"] = [
            "action": "send", "channel": ["$ref": "#/channels/pipelines"],
            "messages": AsyncAPIMessages.muxSend.map { ["$ref": "#/channels/pipelines/messages/\($0)"] },
        ]
        operations["receivePipelines"] = [
            "action": "receive", "channel": ["$ref": "#/channels/pipelines"],
            "messages": AsyncAPIMessages.muxReceive.map { ["$ref": "#/channels/pipelines/messages/\($0)"] },
        ]
        channels["echo"] = [
            "address": "/ws/echo", "title": "echo",
            "description": "The identity pipeline: every text or binary message echoed as it came.",
            "messages": ["any": ["$ref": "#/components/messages/echo"]],
        ]
        operations["sendEcho"] = ["action": "send", "channel": ["$ref": "#/channels/echo"], "messages": [["$ref": "#/channels/echo/messages/any"]]]
        operations["receiveEcho"] = ["action": "receive", "channel": ["$ref": "#/channels/echo"], "messages": [["$ref": "#/channels/echo/messages/any"]]]
        return [
            "asyncapi": "3.0.0",
            "info": [
                "title": "Combine pipelines over WebSockets", "version": "1.0.0",
                "description": "Each text frame carries one JSON object on one line. Frames starting with { that are not valid JSON, "
                    + "or JSON of an unknown type, get an error event and the session goes on; binary frames on a pipeline close it with 1003.",
            ],
            "defaultContentType": "application/json",
            "servers": ["local": ["host": "localhost:8080", "protocol": "ws", "description": "make run"]],
            "channels": channels,
            "operations": operations,
            "components": ["messages": AsyncAPIMessages.all],
        ]
    }

    /// The WebSocket binding of a pipeline channel: the upgrade's `trace` query parameter.
    private static var traceBinding: [String: Any] { [
        "ws": [
            "bindingVersion": "0.1.0",
            "query": [
                "type": "object",
                "properties": [
                    "trace": ["type": "string", "enum": ["1", "true"], "description": "also send trace events"],
                ],
            ],
        ],
    ] }

    private static func channelID(_ name: String) -> String {
        let parts = name.split(separator: "-")
        return parts.enumerated().map { $0.offset == 0 ? String($0.element) : $0.element.prefix(1).uppercased() + $0.element.dropFirst() }.joined()
    }
}
