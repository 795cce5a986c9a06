import Foundation
import XCTest

@testable import ServiceApp

/// The OpenAPI document is JSON describing exactly the contract's endpoints.
final class OpenAPIDocumentTests: XCTestCase {
    private typealias Object = [String: Any]

    private func document() throws -> Object {
        let value = try JSONSerialization.jsonObject(with: Data(OpenAPIDocument.json.utf8))
        return try XCTUnwrap(value as? Object)
    }

    private func object(_ value: Any?, _ path: [String], file: StaticString = #filePath, line: UInt = #line) throws
        -> Object
    {
        var current = value
        for key in path { current = (current as? Object)?[key] }
        return try XCTUnwrap(current as? Object, path.joined(separator: "."), file: file, line: line)
    }

    /// Resolves a local `$ref` such as `#/components/responses/NotFound`.
    private func resolve(_ value: Object, in root: Object) throws -> Object {
        guard let ref = value["$ref"] as? String else { return value }
        let path = ref.dropFirst(2).split(separator: "/").map(String.init)
        return try object(root, path)
    }

    /// Every endpoint of docs/protocol.md's "HTTP endpoints" table is in the document, and
    /// nothing else (issue #31: `/asyncapi.json` was missing).
    func testPathsAreTheProtocolTablesEndpoints() throws {
        let protocolDoc = try String(
            contentsOf: ChildProcess.packageRoot.appendingPathComponent("docs/protocol.md"), encoding: .utf8)
        let section = try XCTUnwrap(protocolDoc.components(separatedBy: "## HTTP endpoints").dropFirst().first)
        var documented: Set<String> = []
        for row in section.split(separator: "\n").prefix(while: { !$0.hasPrefix("Every route") }) where row.hasPrefix("| `") {
            let cell = row.dropFirst(2).prefix { $0 != "|" }
            let regex = try NSRegularExpression(pattern: #"`(?:GET )?(/[^`\s,]*)`"#)
            let text = String(cell)
            for match in regex.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                documented.insert(String(text[Range(match.range(at: 1), in: text)!]))
            }
        }
        XCTAssertTrue(documented.contains("/asyncapi.json"), "\(documented)")
        XCTAssertEqual(Set(try object(try document(), ["paths"]).keys), documented)
    }

    func testVersionAndPaths() throws {
        let root = try document()
        XCTAssertEqual(root["openapi"] as? String, "3.0.3")
        let paths = try object(root, ["paths"])
        XCTAssertEqual(
            Set(paths.keys),
            ["/", "/search", "/form", "/pipelines.js", "/pages.js", "/api/pipelines", "/api/operators", "/healthz", "/readyz", "/metrics", "/api/users/{login}",
             "/openapi.json", "/asyncapi.json", "/ws", "/ws/search", "/ws/form", "/ws/pipelines", "/ws/echo"])
        for (path, item) in paths {
            XCTAssertEqual(Array(try XCTUnwrap(item as? Object).keys), ["get"], path)
        }
    }

    func testUserEndpointResponses() throws {
        let root = try document()
        let get = try object(root, ["paths", "/api/users/{login}", "get"])
        let responses = try object(get, ["responses"])
        XCTAssertEqual(Set(responses.keys), ["200", "400", "404", "429", "502", "504"])
        let expectedErrors = ["400": "invalid_login", "404": "not_found", "429": "rate_limited",
                              "502": "upstream_unavailable", "504": "upstream_timeout"]
        for (code, error) in expectedErrors {
            let response = try resolve(try object(responses, [code]), in: root)
            let json = try object(response, ["content", "application/json"])
            XCTAssertEqual(try object(json, ["schema"])["$ref"] as? String, "#/components/schemas/Error", code)
            XCTAssertEqual(try object(json, ["example"])["error"] as? String, error, code)
        }
        let rateLimited = try resolve(try object(responses, ["429"]), in: root)
        XCTAssertNotNil(try object(rateLimited, ["headers"])["Retry-After"])
        let ok = try object(responses, ["200", "content", "application/json", "schema"])
        XCTAssertEqual(ok["$ref"] as? String, "#/components/schemas/User")
    }

    func testLoginParameter() throws {
        let get = try object(try document(), ["paths", "/api/users/{login}", "get"])
        let parameter = try XCTUnwrap((get["parameters"] as? [Object])?.first)
        XCTAssertEqual(parameter["name"] as? String, "login")
        XCTAssertEqual(parameter["in"] as? String, "path")
        XCTAssertEqual(parameter["required"] as? Bool, true)
        let schema = try object(parameter, ["schema"])
        XCTAssertEqual(schema["maxLength"] as? Int, 39)
        XCTAssertEqual(schema["pattern"] as? String, OpenAPIDocument.loginPattern)
    }

    func testLoginPatternFollowsTheContract() throws {
        let regex = try NSRegularExpression(pattern: OpenAPIDocument.loginPattern)
        func matches(_ login: String) -> Bool {
            regex.firstMatch(in: login, range: NSRange(login.startIndex..., in: login)) != nil
        }
        for valid in ["heckj", "a", "A1", "a-b", "a-b-c", "0", String(repeating: "x", count: 39)] {
            XCTAssertTrue(matches(valid), valid)
        }
        for invalid in ["", "-a", "a-", "a--b", "a_b", "a.b", "a b", "é", "a/b", String(repeating: "x", count: 40)] {
            XCTAssertFalse(matches(invalid), invalid)
        }
    }

    func testSchemas() throws {
        let schemas = try object(try document(), ["components", "schemas"])
        let user = try object(schemas, ["User"])
        XCTAssertEqual(
            Set(try XCTUnwrap(user["required"] as? [String])),
            ["login", "id", "name", "public_repos", "avatar_url", "html_url"])
        XCTAssertEqual(try object(user, ["properties", "name"])["nullable"] as? Bool, true)
        XCTAssertEqual(user["additionalProperties"] as? Bool, true)
        let codes = try XCTUnwrap(try object(schemas, ["Error", "properties", "error"])["enum"] as? [String])
        XCTAssertEqual(
            Set(codes),
            ["invalid_login", "not_found", "rate_limited", "upstream_unavailable", "upstream_timeout",
             "method_not_allowed", "bad_request", "request_timeout", "upgrade_required", "shutting_down",
             "client_rate_limited", "too_many_sessions", "origin_not_allowed"])
        XCTAssertEqual(codes.count, Set(codes).count, "no duplicates")
    }

    func testOperationalEndpoints() throws {
        let paths = try object(try document(), ["paths"])
        XCTAssertEqual(Set(try object(paths, ["/readyz", "get", "responses"]).keys), ["200", "503"])
        XCTAssertNotNil(try object(paths, ["/metrics", "get", "responses", "200", "content"])["text/plain"])
        XCTAssertNotNil(try object(paths, ["/", "get", "responses", "200", "content"])["text/html"])
        XCTAssertNotNil(try object(paths, ["/pipelines.js", "get", "responses", "200", "content"])["text/javascript"])
        XCTAssertNotNil(try object(paths, ["/healthz", "get", "responses", "200", "content"])["application/json"])
    }

    func testWebSocketUpgrades() throws {
        let paths = try object(try document(), ["paths"])
        for path in ["/ws", "/ws/search", "/ws/form", "/ws/pipelines"] {
            XCTAssertEqual(Set(try object(paths, [path, "get", "responses"]).keys), ["101", "400", "403", "426", "429", "503"], path)
        }
        XCTAssertEqual(Set(try object(paths, ["/ws/echo", "get", "responses"]).keys), ["101", "400", "426", "503"], "no fair use on echo")
    }

    func testOperationIdsAreUnique() throws {
        let paths = try object(try document(), ["paths"])
        let ids = try paths.keys.map { try object(paths, [$0, "get"])["operationId"] as? String }
        XCTAssertEqual(Set(ids.compactMap { $0 }).count, paths.count)
    }
}
