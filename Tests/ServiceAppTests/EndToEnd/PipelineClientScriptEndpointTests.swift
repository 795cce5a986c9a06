import Foundation
import HTTPTestSupport
import XCTest

@testable import ServiceApp

/// `GET /pipelines.js`, the pages' shared client, as the service serves it: JavaScript, cacheable
/// for good under the versioned URL the pages name and revalidated otherwise, and allowed by the
/// pages' Content-Security-Policy (header and `<meta>`).
final class PipelineClientScriptEndpointTests: EndToEndTestCase {
    func testTheVersionedScriptIsServedAsJavaScriptAndCachedForGood() throws {
        try startService()
        let response = try get(PipelineClientScript.versionedPath)
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.header("Content-Type"), "text/javascript; charset=utf-8")
        XCTAssertEqual(response.header("Cache-Control"), "public, max-age=31536000, immutable")
        XCTAssertEqual(response.header("X-Content-Type-Options"), "nosniff")
        XCTAssertEqual(response.text, PipelineClientScript.script)
        XCTAssertTrue(response.text.contains("var pipelines = "))

        let head = try TestHTTPClient(port: port, timeout: 15).request(
            "HEAD \(PipelineClientScript.versionedPath) HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n", head: true)
        XCTAssertEqual(head.status, 200)
        XCTAssertEqual(head.header("Content-Length"), String(PipelineClientScript.script.utf8.count))
        XCTAssertEqual(head.body, [])
    }

    /// Without the version, or with an older page's, the answer is the current script, to be
    /// revalidated: it must not stay cached under a URL that names another version.
    func testOtherVersionsAreRevalidated() throws {
        try startService()
        for path in ["/pipelines.js", "/pipelines.js?v=0000000000000000"] {
            let response = try get(path)
            XCTAssertEqual(response.status, 200, path)
            XCTAssertEqual(response.header("Cache-Control"), "no-cache", path)
            XCTAssertEqual(response.text, PipelineClientScript.script, path)
        }
        XCTAssertNotEqual(PipelineClientScript.version, "0000000000000000")
        XCTAssertEqual(try get("/pipelines.js", method: "POST").status, 405)
    }

    /// Each page names the current versions and sends the policy as a header too; the policy lets
    /// the page load scripts from the service itself ('self': /pipelines.js, /pages.js) and
    /// nothing else, no inline code; its sockets go to the service.
    func testEveryPageLoadsTheScriptUnderItsPolicy() throws {
        try startService()
        for page in BrowserPage.pagePaths {
            let response = try get(page)
            XCTAssertEqual(response.status, 200, page)
            XCTAssertEqual(response.header("Content-Type"), "text/html; charset=utf-8", page)
            XCTAssertEqual(response.header("Cache-Control"), "no-cache", page)
            let policy = try XCTUnwrap(response.header("Content-Security-Policy"), page)
            XCTAssertTrue(response.text.contains(#"<meta http-equiv="Content-Security-Policy" content="\#(policy)" />"#), page)
            XCTAssertTrue(response.text.contains(#"<script src="\#(PipelineClientScript.versionedPath)"></script>"#), page)
            XCTAssertTrue(response.text.contains(#"<script src="\#(PageScript.served.versionedPath)"></script>"#), page)
            let directives = Self.directives(policy)
            XCTAssertEqual(directives["default-src"], ["'none'"], page)
            // Issue #31: no 'unsafe-inline' scripts, no socket to any host, no image from anywhere.
            XCTAssertEqual(directives["script-src"], ["'self'"], page)
            XCTAssertEqual(directives["connect-src"], ["'self'"], page)
            // Avatars: GitHub's host, and the configured API's origin (the fake serves its own).
            XCTAssertEqual(directives["img-src"], ["'self'", "https://avatars.githubusercontent.com", fakeURL.absoluteString], page)
            XCTAssertTrue(PipelineClientScript.path.hasPrefix("/"), "same origin, so 'self' covers it")
        }
    }

    /// The pages' own code is served like the client: versioned, cached for good under that URL.
    func testThePagesCodeIsServedAsAScript() throws {
        try startService()
        let response = try get(PageScript.served.versionedPath)
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.header("Content-Type"), "text/javascript; charset=utf-8")
        XCTAssertEqual(response.header("Cache-Control"), "public, max-age=31536000, immutable")
        XCTAssertEqual(response.text, PageScript.served.source)
        XCTAssertEqual(try get(PageScript.path).header("Cache-Control"), "no-cache")
    }

    /// `name → values` of a Content-Security-Policy.
    private static func directives(_ policy: String) -> [String: [String]] {
        var result: [String: [String]] = [:]
        for directive in policy.split(separator: ";") {
            let words = directive.split(separator: " ").map(String.init)
            if let name = words.first { result[name] = Array(words.dropFirst()) }
        }
        return result
    }
}
