/// The OpenAPI 3.0.3 document served at `GET /openapi.json`: every HTTP endpoint of the
/// contract (the pages `/`, `/search`, `/form` and their scripts `/pipelines.js`, `/pages.js`, `/api/pipelines`, `/api/operators`,
/// `/healthz`, `/readyz`, `/metrics`, `/api/users/{login}`, `/openapi.json`, and the WebSocket
/// upgrades) with the `User` and `Error` schemas.
///
/// Kept as JSON text, split in parts that are assembled once; a test decodes it, and it
/// validates with `openapi-spec-validator`.
enum OpenAPIDocument {
    /// The `Content-Type` to serve the document with.
    static let contentType = "application/json"

    /// The login pattern of the contract: 1–39 ASCII letters, digits and single hyphens, not
    /// starting or ending with a hyphen (with `maxLength` 39 bounding the length).
    static let loginPattern = #"^[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}$"#

    /// The whole document as JSON text.
    static let json: String = """
        {
          "openapi": "3.0.3",
          "info": \(info),
          "paths": {
        \(pagePaths),
        \(apiPaths),
        \(webSocketPaths)
          },
          "components": \(components)
        }
        """

    private static let info = #"""
        {
            "title": "Combine pipelines over WebSockets",
            "version": "1.0.0",
            "description": "The \"Using Combine\" GitHub-username pipeline, served over HTTP and WebSockets. Unknown paths answer 404 and other methods than the ones listed 405 with an Allow header, both with an Error body. Responses honour Accept-Encoding: gzip; HTTP/1.1 keep-alive and pipelining work. The WebSocket protocol of /ws (input frames, hello/activity/result/error events) is described in /asyncapi.json and in the repository's docs/protocol.md."
          }
        """#

    private static let pagePaths = #"""
            "/": {
              "get": {
                "operationId": "getBrowserPage",
                "summary": "The browser page: a username field driving the github-user pipeline over /ws/pipelines",
                "responses": {
                  "200": {
                    "description": "A self-contained HTML page",
                    "content": { "text/html": { "schema": { "type": "string" } } }
                  }
                }
              }
            },
            "/search": {
              "get": {
                "operationId": "getSearchPage",
                "summary": "The search page: a search field and a refresh button driving the github-search pipeline over /ws/pipelines",
                "responses": {
                  "200": {
                    "description": "A self-contained HTML page",
                    "content": { "text/html": { "schema": { "type": "string" } } }
                  }
                }
              }
            },
            "/form": {
              "get": {
                "operationId": "getFormPage",
                "summary": "The sign-up form page, driving the form pipeline over /ws/pipelines",
                "responses": {
                  "200": {
                    "description": "A self-contained HTML page",
                    "content": { "text/html": { "schema": { "type": "string" } } }
                  }
                }
              }
            },
            "/pipelines.js": {
              "get": {
                "operationId": "getPipelinesClientScript",
                "summary": "The pages' shared client of /ws/pipelines (one socket per page, a demand window, reconnect and resubscribe)",
                "description": "The pages load it as /pipelines.js?v=<version of the running service's script>; that URL is cached for good (Cache-Control: public, max-age=31536000, immutable), any other answer is no-cache.",
                "parameters": [
                  { "name": "v", "in": "query", "required": false, "schema": { "type": "string" },
                    "description": "The script's version, as the pages name it" }
                ],
                "responses": {
                  "200": {
                    "description": "The script",
                    "headers": { "Cache-Control": { "schema": { "type": "string" } } },
                    "content": { "text/javascript": { "schema": { "type": "string" } } }
                  }
                }
              }
            },
            "/pages.js": {
              "get": {
                "operationId": "getPagesScript",
                "summary": "The pages' own code (the marble diagram and each page's script), so that the pages run no inline script",
                "description": "The pages load it as /pages.js?v=<version of the running service's script>, after /pipelines.js; cached as /pipelines.js is.",
                "parameters": [
                  { "name": "v", "in": "query", "required": false, "schema": { "type": "string" },
                    "description": "The script's version, as the pages name it" }
                ],
                "responses": {
                  "200": {
                    "description": "The script",
                    "headers": { "Cache-Control": { "schema": { "type": "string" } } },
                    "content": { "text/javascript": { "schema": { "type": "string" } } }
                  }
                }
              }
            },
            "/api/pipelines": {
              "get": {
                "operationId": "getPipelines",
                "summary": "The pipeline catalog: every WebSocket pipeline with its page and its stages in flow order",
                "responses": {
                  "200": {
                    "description": "One entry per pipeline",
                    "content": { "application/json": { "schema": { "type": "array", "items": {
                      "type": "object", "required": ["name", "path", "page", "stages"], "additionalProperties": false,
                      "properties": {
                        "name": { "type": "string" }, "path": { "type": "string" }, "page": { "type": "string" },
                        "stages": { "type": "array", "items": { "type": "string" }, "minItems": 1 }
                      }
                    } } } }
                  }
                }
              }
            },
            "/healthz": {
              "get": {
                "operationId": "getHealth",
                "summary": "Liveness: 200 while the process serves",
                "responses": {
                  "200": {
                    "description": "The process serves",
                    "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Status" },
                                                       "example": { "status": "ok" } } }
                  }
                }
              }
            },
            "/readyz": {
              "get": {
                "operationId": "getReadiness",
                "summary": "Readiness: 200 when ready to take traffic, 503 while draining",
                "responses": {
                  "200": {
                    "description": "Ready to take traffic",
                    "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Status" } } }
                  },
                  "503": {
                    "description": "Draining: shutting down, take this instance out of rotation",
                    "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Status" } } }
                  }
                }
              }
            },
            "/metrics": {
              "get": {
                "operationId": "getMetrics",
                "summary": "Prometheus text exposition: connections, WebSocket sessions, messages, upstream requests by outcome, cache hits, retries, latency histograms",
                "responses": {
                  "200": {
                    "description": "Prometheus text format 0.0.4",
                    "content": { "text/plain": { "schema": { "type": "string" } } }
                  }
                }
              }
            },
            "/openapi.json": {
              "get": {
                "operationId": "getOpenAPIDocument",
                "summary": "This document",
                "responses": {
                  "200": {
                    "description": "The OpenAPI document",
                    "content": { "application/json": { "schema": { "type": "object" } } }
                  }
                }
              }
            },
            "/asyncapi.json": {
              "get": {
                "operationId": "getAsyncAPIDocument",
                "summary": "An AsyncAPI 3.0 document of every WebSocket endpoint and message, in both directions",
                "responses": {
                  "200": {
                    "description": "The AsyncAPI document",
                    "content": { "application/json": { "schema": { "type": "object" } } }
                  }
                }
              }
            }
        """#
}
