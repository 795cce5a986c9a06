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
                             "upstream_timeout", "method_not_allowed", "bad_request", "request_timeout",
                             "upgrade_required", "shutting_down", "client_rate_limited",
                             "too_many_sessions", "origin_not_allowed"]
                  },
                  "message": { "type": "string" }
                }
              },
              "Status": {
                "type": "object",
                "required": ["status"],
                "properties": {
                  "status": { "type": "string", "example": "ok" },
                  "redis": { "type": "string", "enum": ["available", "unavailable"],
                             "description": "/readyz with redis.url set: whether Redis is reachable (unreachable is still ready)" },
                  "redisMaster": { "type": "string", "enum": ["known", "unknown"],
                                   "description": "/readyz with redis.sentinels set: whether the sentinels named a master (unknown is still ready)" }
                }
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
                "description": "GitHub's rate limit is exhausted (rate_limited), or this client's own lookups per minute (client_rate_limited)",
                "headers": {
                  "Retry-After": { "description": "Seconds until the limit resets", "schema": { "type": "integer", "minimum": 0 } }
                },
                "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" },
                             "example": { "error": "rate_limited" } } }
              },
              "TooManySessions": {
                "description": "This client already has limits.sessionsPerClient WebSocket sessions open",
                "headers": {
                  "Retry-After": { "description": "Seconds to wait", "schema": { "type": "integer", "minimum": 0 } }
                },
                "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" },
                             "example": { "error": "too_many_sessions" } } }
              },
              "OriginNotAllowed": {
                "description": "The Origin is neither the service's own nor in allowedOrigins",
                "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" },
                             "example": { "error": "origin_not_allowed" } } }
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
                             "example": { "error": "upgrade_required", "message": "this endpoint requires a WebSocket upgrade" } } }
              },
              "ShuttingDown": {
                "description": "The service is draining and takes no new WebSocket sessions",
                "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" },
                             "example": { "error": "shutting_down", "message": "shutting down" } } }
              }
            }
        """#

    /// The handshake fields, required and constrained to values the server accepts (a client
    /// may send other spellings RFC 6455 allows, such as `Connection: keep-alive, Upgrade`).
    private static let handshakeParameters = #"""
        {
              "Upgrade": { "name": "Upgrade", "in": "header", "required": true,
                           "schema": { "type": "string", "enum": ["websocket"] } },
              "Connection": { "name": "Connection", "in": "header", "required": true,
                              "description": "A token list that includes Upgrade",
                              "schema": { "type": "string", "enum": ["Upgrade", "upgrade", "keep-alive, Upgrade"] } },
              "SecWebSocketKey": { "name": "Sec-WebSocket-Key", "in": "header", "required": true,
                                   "description": "Base64 of 16 random bytes",
                                   "schema": { "type": "string", "pattern": "^[A-Za-z0-9+/]{21}[AQgw]==$",
                                               "example": "dGhlIHNhbXBsZSBub25jZQ==" } },
              "SecWebSocketVersion": { "name": "Sec-WebSocket-Version", "in": "header", "required": true,
                                       "schema": { "type": "string", "enum": ["13"] } },
              "SecWebSocketExtensions": { "name": "Sec-WebSocket-Extensions", "in": "header", "required": false,
                                          "description": "permessage-deflate is negotiated when offered; other extensions are ignored",
                                          "schema": { "type": "string", "example": "permessage-deflate; client_max_window_bits" } }
            }
        """#
}
