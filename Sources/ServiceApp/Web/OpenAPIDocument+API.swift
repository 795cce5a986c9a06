import PipelineWire

extension OpenAPIDocument {
    /// `GET /api/operators` and `GET /api/users/{login}`.
    static let apiPaths = operatorsPath + ",\n" + usersPath

    /// The composer's catalog; its operators, kinds and parameter types from `OperatorDescription`.
    private static let operatorsPath = #"""
            "/api/operators": {
              "get": {
                "operationId": "getOperators",
                "summary": "The composer's catalog: the limits a definition must keep, every operator a composed pipeline (a definition object subscribed on /ws/pipelines) may use, and the presets",
                "description": "Bounds (maximum) come from the running configuration (composer.*); a parameter left out takes its default. Only the presets that fit the limits are listed.",
                "responses": {
                  "200": {
                    "description": "The catalog, keys sorted",
                    "content": { "application/json": { "schema": {
                      "type": "object", "required": ["limits", "operators", "presets"], "additionalProperties": false,
                      "properties": {
                        "limits": {
                          "type": "object", "additionalProperties": false,
                          "required": ["maxCount", "maxLookups", "maxMs", "maxPublishers", "maxStages", "maxStringLength"],
                          "properties": {
                            "maxCount": { "type": "integer", "minimum": 1, "description": "the largest count (collect's count, retry's times)" },
                            "maxLookups": { "type": "integer", "minimum": 0, "description": "lookup stages per definition" },
                            "maxMs": { "type": "integer", "minimum": 0, "description": "the largest ms" },
                            "maxPublishers": { "type": "integer", "minimum": 1, "description": "the largest maxPublishers of a flatMap lookup" },
                            "maxStages": { "type": "integer", "minimum": 1, "description": "stages per definition" },
                            "maxStringLength": { "type": "integer", "minimum": 1, "description": "the longest string parameter, in Unicode scalars" }
                          }
                        },
                        "operators": { "type": "array", "items": {
                          "type": "object", "additionalProperties": false,
                          "required": ["accepts", "combine", "op", "parameters", "produces", "summary"],
                          "properties": {
                            "op": { "type": "string", "enum": \#(quotedList(ComposedStage.ops)) },
                            "combine": { "type": "string", "description": "the StreamCore (Combine) operator it runs", "example": "throttle(for:scheduler:latest:)" },
                            "summary": { "type": "string" },
                            "accepts": { "type": "array", "items": { "type": "string", "enum": \#(quotedList(["any"] + ValueKind.allCases.map(\.rawValue))) },
                                         "description": "the value kinds it accepts" },
                            "produces": { "type": "string", "description": "same (the kind it got), a value kind, or the parameter that decides (by fn, by source)" },
                            "parameters": { "type": "array", "items": {
                              "type": "object", "additionalProperties": false, "required": ["name", "required", "summary", "type"],
                              "properties": {
                                "name": { "type": "string" },
                                "type": { "type": "string", "enum": ["integer", "boolean", "string", "enum", "value"],
                                          "description": "value: a string, number or boolean of the kind flowing into the stage" },
                                "minimum": { "type": "integer" },
                                "maximum": { "type": "integer", "description": "from the running configuration" },
                                "default": { "description": "taken when the parameter is left out" },
                                "values": { "type": "array", "items": { "type": "string" }, "description": "an enum's values" },
                                "required": { "type": "boolean" },
                                "summary": { "type": "string" }
                              }
                            } }
                          }
                        } },
                        "presets": { "type": "array", "items": {
                          "type": "object", "additionalProperties": false, "required": ["definition", "name", "summary", "title"],
                          "properties": {
                            "name": { "type": "string", "enum": \#(quotedList(PipelineDefinition.presets.map(\.name))) },
                            "title": { "type": "string" },
                            "summary": { "type": "string" },
                            "definition": {
                              "type": "object", "required": ["stages"], "additionalProperties": false,
                              "properties": { "stages": { "type": "array", "minItems": 1, "items": {
                                "type": "object", "required": ["op"], "properties": { "op": { "type": "string" } }
                              } } }
                            }
                          }
                        } }
                      }
                    } } }
                  }
                }
              }
            }
        """#

    /// `["a","b"]`.
    private static func quotedList(_ items: [String]) -> String {
        "[" + items.map(JSONWriter.quoted).joined(separator: ", ") + "]"
    }

    /// `GET /api/users/{login}`.
    private static let usersPath = #"""
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
