extension OpenAPIDocument {
    /// `GET /ws` and `GET /ws/echo`: WebSocket upgrades (RFC 6455, permessage-deflate RFC 7692).
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
                  "426": { "$ref": "#/components/responses/UpgradeRequired" },
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
