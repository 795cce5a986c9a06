extension OpenAPIDocument {
    /// `GET /ws`, `/ws/search`, `/ws/form`, `/ws/pipelines` and `/ws/echo`: WebSocket upgrades (RFC 6455, permessage-deflate RFC 7692).
    static let webSocketPaths = #"""
            "/ws": {
              "get": {
                "operationId": "openGithubUserPipeline",
                "summary": "WebSocket upgrade: the GitHub-user keystroke pipeline",
                "description": "Client text frames carry the current value of the username field, as {\"type\":\"input\",\"value\":\"hec\"} or as plain text (one trailing newline removed). The server sends one JSON object per text frame: hello, activity, result and error events. Binary frames close the connection with 1003.",
                "parameters": [
                  { "$ref": "#/components/parameters/Upgrade" },
                  { "$ref": "#/components/parameters/Connection" },
                  { "$ref": "#/components/parameters/SecWebSocketKey" },
                  { "$ref": "#/components/parameters/SecWebSocketVersion" },
                  { "$ref": "#/components/parameters/SecWebSocketExtensions" }
                ],
                "responses": {
                  "101": { "$ref": "#/components/responses/SwitchingProtocols" },
                  "400": { "$ref": "#/components/responses/BadHandshake" },
                  "403": { "$ref": "#/components/responses/OriginNotAllowed" },
                  "426": { "$ref": "#/components/responses/UpgradeRequired" },
                  "429": { "$ref": "#/components/responses/TooManySessions" },
                  "503": { "$ref": "#/components/responses/ShuttingDown" }
                }
              }
            },
            "/ws/search": {
              "get": {
                "operationId": "openSearchPipeline",
                "summary": "WebSocket upgrade: the search pipeline with pull-to-refresh",
                "description": "Client text frames carry the search field's text, as {\"type\":\"input\",\"value\":\"swift\"} or as plain text, or the refresh gesture {\"type\":\"refresh\"}. The server sends hello, activity, refreshing, search and error events (see /asyncapi.json). Binary frames close the connection with 1003.",
                "parameters": [
                  { "$ref": "#/components/parameters/Upgrade" },
                  { "$ref": "#/components/parameters/Connection" },
                  { "$ref": "#/components/parameters/SecWebSocketKey" },
                  { "$ref": "#/components/parameters/SecWebSocketVersion" },
                  { "$ref": "#/components/parameters/SecWebSocketExtensions" }
                ],
                "responses": {
                  "101": { "$ref": "#/components/responses/SwitchingProtocols" },
                  "400": { "$ref": "#/components/responses/BadHandshake" },
                  "403": { "$ref": "#/components/responses/OriginNotAllowed" },
                  "426": { "$ref": "#/components/responses/UpgradeRequired" },
                  "429": { "$ref": "#/components/responses/TooManySessions" },
                  "503": { "$ref": "#/components/responses/ShuttingDown" }
                }
              }
            },
            "/ws/form": {
              "get": {
                "operationId": "openFormPipeline",
                "summary": "WebSocket upgrade: the sign-up form pipeline",
                "description": "Client text frames are {\"type\":\"field\",\"name\":\"value1|value2|value2_repeat\",\"value\":\"…\"} and {\"type\":\"submit\"}. The server sends hello, validation, submit, submitted and error events. Binary frames close the connection with 1003.",
                "parameters": [
                  { "$ref": "#/components/parameters/Upgrade" },
                  { "$ref": "#/components/parameters/Connection" },
                  { "$ref": "#/components/parameters/SecWebSocketKey" },
                  { "$ref": "#/components/parameters/SecWebSocketVersion" },
                  { "$ref": "#/components/parameters/SecWebSocketExtensions" }
                ],
                "responses": {
                  "101": { "$ref": "#/components/responses/SwitchingProtocols" },
                  "400": { "$ref": "#/components/responses/BadHandshake" },
                  "403": { "$ref": "#/components/responses/OriginNotAllowed" },
                  "426": { "$ref": "#/components/responses/UpgradeRequired" },
                  "429": { "$ref": "#/components/responses/TooManySessions" },
                  "503": { "$ref": "#/components/responses/ShuttingDown" }
                }
              }
            },
            "/ws/pipelines": {
              "get": {
                "operationId": "openPipelines",
                "summary": "WebSocket upgrade: any number of pipeline subscriptions over one socket, with demand",
                "description": "Client text frames are subscribe, send, request and cancel; the server sends subscribed, event (one per unit of demand), trace, completion and error frames (see /asyncapi.json). Each subscription counts as a session for limits.sessionsPerClient; a subscription past it gets an error frame too_many_sessions. Every bad frame, binary ones included, gets an error frame and the connection goes on.",
                "parameters": [
                  { "$ref": "#/components/parameters/Upgrade" },
                  { "$ref": "#/components/parameters/Connection" },
                  { "$ref": "#/components/parameters/SecWebSocketKey" },
                  { "$ref": "#/components/parameters/SecWebSocketVersion" },
                  { "$ref": "#/components/parameters/SecWebSocketExtensions" }
                ],
                "responses": {
                  "101": { "$ref": "#/components/responses/SwitchingProtocols" },
                  "400": { "$ref": "#/components/responses/BadHandshake" },
                  "403": { "$ref": "#/components/responses/OriginNotAllowed" },
                  "426": { "$ref": "#/components/responses/UpgradeRequired" },
                  "429": { "$ref": "#/components/responses/TooManySessions" },
                  "503": { "$ref": "#/components/responses/ShuttingDown" }
                }
              }
            },
            "/ws/echo": {
              "get": {
                "operationId": "openEchoPipeline",
                "summary": "WebSocket upgrade: the identity pipeline, every text or binary message echoed as it came",
                "parameters": [
                  { "$ref": "#/components/parameters/Upgrade" },
                  { "$ref": "#/components/parameters/Connection" },
                  { "$ref": "#/components/parameters/SecWebSocketKey" },
                  { "$ref": "#/components/parameters/SecWebSocketVersion" },
                  { "$ref": "#/components/parameters/SecWebSocketExtensions" }
                ],
                "responses": {
                  "101": { "$ref": "#/components/responses/SwitchingProtocols" },
                  "400": { "$ref": "#/components/responses/BadHandshake" },
                  "426": { "$ref": "#/components/responses/UpgradeRequired" },
                  "503": { "$ref": "#/components/responses/ShuttingDown" }
                }
              }
            }
        """#
}
