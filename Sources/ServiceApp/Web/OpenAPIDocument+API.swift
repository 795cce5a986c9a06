extension OpenAPIDocument {
    /// `GET /api/users/{login}`.
    static let apiPaths = #"""
            "/api/users/{login}": {
              "get": {
                "operationId": "getUser",
                "summary": "The GitHub user, through the same client, retry policy and cache as the WebSocket pipeline",
                "parameters": [
                  {
                    "name": "login",
                    "in": "path",
                    "required": true,
                    "description": "A GitHub login: 1-39 ASCII letters, digits and single hyphens, not starting or ending with a hyphen. Other values are answered 400 and never sent upstream.",
                    "schema": { "type": "string", "minLength": 1, "maxLength": 39,
                                "pattern": "^[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}$" },
                    "example": "heckj"
                  }
                ],
                "responses": {
                  "200": {
                    "description": "The user: fetched, from the cache while fresh, or — when GitHub fails — a stale copy",
                    "headers": {
                      "Cache-Status": { "description": "RFC 9211: where the answer came from (hit, fwd=uri-miss, fwd=stale; detail=stale-if-error for a stale copy)", "schema": { "type": "string" } },
                      "Age": { "description": "Seconds since the copy was fetched or confirmed (answers from the cache)", "schema": { "type": "integer", "minimum": 0 } }
                    },
                    "content": { "application/json": { "schema": { "$ref": "#/components/schemas/User" } } }
                  },
                  "400": { "$ref": "#/components/responses/InvalidLogin" },
                  "404": { "$ref": "#/components/responses/NotFound" },
                  "429": { "$ref": "#/components/responses/RateLimited" },
                  "502": { "$ref": "#/components/responses/UpstreamUnavailable" },
                  "504": { "$ref": "#/components/responses/UpstreamTimeout" }
                }
              }
            }
        """#
}
