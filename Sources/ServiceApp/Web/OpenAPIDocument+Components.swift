extension OpenAPIDocument {
    /// Schemas, shared responses and the WebSocket handshake headers.
    static let components = """
        {
            "schemas": \(schemas),
            "responses": \(responses),
            "parameters": \(handshakeParameters)
          }
        """

    private static let schemas = #"""
        {
              "User": {
                "type": "object",
                "description": "A subset of GitHub's /users/{login}, field names as GitHub spells them; more GitHub fields may be present.",
                "required": ["login", "id", "name", "public_repos", "avatar_url", "html_url"],
                "properties": {
                  "login": { "type": "string", "example": "heckj" },
                  "id": { "type": "integer", "format": "int64", "example": 43388 },
                  "name": { "type": "string", "nullable": true, "example": "Joe Heck" },
                  "public_repos": { "type": "integer", "minimum": 0, "example": 69 },
                  "avatar_url": { "type": "string", "format": "uri" },
                  "html_url": { "type": "string", "format": "uri", "example": "https://github.com/heckj" }
                },
                "additionalProperties": true
              },
              "Error": {
                "type": "object",
                "required": ["error"],
                "properties": {
                  "error": {
                    "type": "string",
                    "enum": ["invalid_login", "not_found", "rate_limited", "upstream_unavailable",
                             "upstream_timeout", "method_not_allowed", "bad_request"]
                  },
                  "message": { "type": "string" }
                }
              },
              "Status": {
                "type": "object",
                "required": ["status"],
                "properties": { "status": { "type": "string", "example": "ok" } }
              }
            }
        """#

    private static let responses = #"""
        {
              "InvalidLogin": {
                "description": "The login is not a valid GitHub login; it was not sent upstream",
                "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" },
                             "example": { "error": "invalid_login", "message": "not a valid GitHub login" } } }
              },
              "NotFound": {
                "description": "GitHub says the user does not exist",
                "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" },
                             "example": { "error": "not_found" } } }
              },
              "RateLimited": {
                "description": "GitHub's rate limit is exhausted",
                "headers": {
                  "Retry-After": { "description": "Seconds until the limit resets", "schema": { "type": "integer", "minimum": 0 } }
                },
                "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" },
                             "example": { "error": "rate_limited" } } }
              },
              "UpstreamUnavailable": {
                "description": "GitHub could not be reached or failed, after retries",
                "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" },
                             "example": { "error": "upstream_unavailable" } } }
              },
              "UpstreamTimeout": {
                "description": "GitHub did not answer in time, after retries",
                "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" },
                             "example": { "error": "upstream_timeout" } } }
              },
              "SwitchingProtocols": {
                "description": "The WebSocket handshake succeeded",
                "headers": {
                  "Upgrade": { "schema": { "type": "string", "enum": ["websocket"] } },
                  "Connection": { "schema": { "type": "string", "example": "Upgrade" } },
                  "Sec-WebSocket-Accept": { "schema": { "type": "string" } },
                  "Sec-WebSocket-Extensions": {
                    "description": "permessage-deflate parameters, when the client offered it and compression is on",
                    "schema": { "type": "string" }
                  }
                }
              },
              "BadHandshake": {
                "description": "A malformed WebSocket handshake (missing or invalid Sec-WebSocket-Key, for example)",
                "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" },
                             "example": { "error": "bad_request", "message": "missing Sec-WebSocket-Key" } } }
              },
              "UpgradeRequired": {
                "description": "Not a WebSocket upgrade, or an unsupported WebSocket version",
                "headers": {
                  "Upgrade": { "schema": { "type": "string", "enum": ["websocket"] } },
                  "Sec-WebSocket-Version": { "schema": { "type": "string", "enum": ["13"] } }
                },
                "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" },
                             "example": { "error": "bad_request", "message": "WebSocket upgrade required" } } }
              }
            }
        """#

    private static let handshakeParameters = #"""
        {
              "Upgrade": { "name": "Upgrade", "in": "header", "required": false, "schema": { "type": "string", "example": "websocket" } },
              "Connection": { "name": "Connection", "in": "header", "required": false, "schema": { "type": "string", "example": "Upgrade" } },
              "SecWebSocketKey": { "name": "Sec-WebSocket-Key", "in": "header", "required": false,
                                   "description": "Base64 of 16 random bytes; required for the upgrade",
                                   "schema": { "type": "string" } },
              "SecWebSocketVersion": { "name": "Sec-WebSocket-Version", "in": "header", "required": false,
                                       "schema": { "type": "string", "enum": ["13"] } },
              "SecWebSocketExtensions": { "name": "Sec-WebSocket-Extensions", "in": "header", "required": false,
                                          "description": "permessage-deflate is negotiated when offered",
                                          "schema": { "type": "string" } }
            }
        """#
}
