import Foundation
import XCTest

#if canImport(FoundationXML)
import FoundationXML
#endif

@testable import ServiceApp

/// The browser page is well-formed, self-contained and has the ids browser tests rely on.
final class BrowserPageTests: XCTestCase {
    /// The page's elements in document order, from `XMLParser`.
    private final class Collector: NSObject, XMLParserDelegate {
        struct Element {
            let name: String
            let attributes: [String: String]
            var text = ""
        }
        var elements: [Element] = []
        private var open: [Int] = []

        func parser(
            _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            open.append(elements.count)
            elements.append(Element(name: name, attributes: attributes))
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            open.removeLast()
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if let index = open.last { elements[index].text += string }
        }

        func parser(_ parser: XMLParser, foundCDATA block: Data) {
            if let index = open.last { elements[index].text += String(decoding: block, as: UTF8.self) }
        }
    }

    private static let policy = PageSecurityPolicy.standard
    private static let userPage = BrowserPage.html(policy: policy)
    private static let searchPage = SearchPage.html(policy: policy)
    private static let formPage = FormPage.html(policy: policy)
    private static let playgroundPage = PlaygroundPage.html(policy: policy)

    private func parse(_ html: String = BrowserPageTests.userPage) throws -> [Collector.Element] {
        let parser = XMLParser(data: Data(html.utf8))
        let collector = Collector()
        parser.delegate = collector
        XCTAssertTrue(parser.parse(), "not well-formed: \(String(describing: parser.parserError))")
        return collector.elements
    }

    private func element(_ id: String, in elements: [Collector.Element]) throws -> Collector.Element {
        try XCTUnwrap(elements.first { $0.attributes["id"] == id }, "#\(id)")
    }

    func testPageIsWellFormedXHTML() throws {
        let elements = try parse()
        XCTAssertEqual(elements.first?.name, "html")
        XCTAssertTrue(Self.userPage.hasPrefix("<!DOCTYPE html>"))
    }

    func testStableIdsExistOnTheRightElements() throws {
        let elements = try parse()
        let expected = [
            "username": "input", "spinner": "span", "avatar": "img", "name": "dd", "login": "dd",
            "repos": "dd", "status": "p", "connection": "p",
        ]
        for (id, name) in expected {
            XCTAssertEqual(try element(id, in: elements).name, name, "#\(id)")
        }
        let ids = elements.compactMap { $0.attributes["id"] }
        XCTAssertEqual(ids.count, Set(ids).count, "ids are unique")
    }

    func testInitialStateMatchesAnEmptyResult() throws {
        let elements = try parse()
        XCTAssertNotNil(try element("spinner", in: elements).attributes["hidden"], "spinner starts hidden")
        XCTAssertEqual(try element("repos", in: elements).text, "unknown")
        XCTAssertEqual(try element("username", in: elements).attributes["type"], "text")
    }

    func testControlsHaveAccessibleLabels() throws {
        let elements = try parse()
        XCTAssertTrue(elements.contains { $0.name == "label" && $0.attributes["for"] == "username" })
        XCTAssertNotNil(try element("spinner", in: elements).attributes["aria-label"])
        XCTAssertNotNil(try element("avatar", in: elements).attributes["alt"])
        XCTAssertEqual(try element("status", in: elements).attributes["aria-live"], "polite")
        XCTAssertEqual(elements.first?.attributes["lang"], "en")
    }

    func testPageIsSelfContained() throws {
        try assertSelfContained(Self.userPage)
    }

    /// Nothing is loaded from elsewhere: the only `href`s are links to the service's own pages, the
    /// only scripts are the service's own client (`/pipelines.js`) and the pages' code
    /// (`/pages.js`), in that order, and there is no inline script (issue #31: the policy
    /// allowed `'unsafe-inline'` for it).
    private func assertSelfContained(_ html: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let elements = try parse(html)
        for element in elements where ["link", "iframe", "object", "embed"].contains(element.name) {
            XCTAssertNil(element.attributes["src"], "<\(element.name) src>", file: file, line: line)
            XCTAssertNil(element.attributes["href"], "<\(element.name) href>", file: file, line: line)
        }
        for element in elements {
            for (name, value) in element.attributes where ["src", "href"].contains(name) {
                let ownPage = element.name == "a" && name == "href" && BrowserPage.pagePaths.contains(value)
                let ownScript = element.name == "script" && name == "src"
                    && [PipelineClientScript.versionedPath, PageScript.served.versionedPath].contains(value)
                if !ownPage && !ownScript { XCTFail("external \(name)=\(value) on <\(element.name)>", file: file, line: line) }
            }
        }
        XCTAssertFalse(html.contains("@import"), file: file, line: line)
        XCTAssertFalse(html.contains("url("), "no CSS url(): fonts and images would be external", file: file, line: line)
        let scripts = elements.filter { $0.name == "script" }
        XCTAssertEqual(
            scripts.map { $0.attributes["src"] }, [PipelineClientScript.versionedPath, PageScript.served.versionedPath],
            file: file, line: line)
        XCTAssertEqual(scripts.map(\.text), ["", ""], "no inline script", file: file, line: line)
        XCTAssertFalse(html.contains(" on"), "no inline event handler attributes", file: file, line: line)
        XCTAssertEqual(elements.filter { $0.name == "style" }.count, 1, file: file, line: line)
    }

    /// `/search`, `/form` and `/playground`: well-formed, self-contained, linked to each other and
    /// to `/`, with the ids browser tests use.
    func testSearchFormAndPlaygroundPagesAreSelfContainedAndLinked() throws {
        for (html, ids) in [
            (Self.searchPage, ["query", "refresh", "spinner", "refreshing", "total", "results", "status", "connection"]),
            (Self.formPage, ["value1", "value2", "value2_repeat", "value1-hint", "value2-hint", "submit", "status", "connection"]),
            (Self.userPage, ["username"]),
            (Self.playgroundPage, PlaygroundPageTests.ids),
        ] {
            try assertSelfContained(html)
            let elements = try parse(html)
            for id in ids { _ = try element(id, in: elements) }
            let links = elements.filter { $0.name == "a" && $0.attributes["id"] == nil }.compactMap { $0.attributes["href"] }
            XCTAssertEqual(links, ["/", "/search", "/form", "/playground"])
        }
        XCTAssertTrue(SearchPage.script.contains(#"pipelines.subscribe("github-search""#))
        XCTAssertTrue(FormPage.script.contains(#"pipelines.subscribe("form""#))
        XCTAssertTrue(BrowserPage.script.contains(#"pipelines.subscribe("github-user""#))
        // Each page names its pipeline, and /pages.js runs that page's code only there.
        for (html, pipeline) in [
            (Self.userPage, "github-user"), (Self.searchPage, "github-search"), (Self.formPage, "form"), (Self.playgroundPage, "playground"),
        ] {
            XCTAssertTrue(html.contains(#"<body data-page="\#(pipeline)">"#), pipeline)
            XCTAssertTrue(PageScript.served.source.contains(#"if (document.body.getAttribute("data-page") === "\#(pipeline)") {"#))
        }
    }

    /// One socket implementation: the shared client constructs the one WebSocket, to
    /// `/ws/pipelines`; no page's inline script makes one of its own.
    func testOnlyTheSharedClientOpensASocket() throws {
        for script in [PageScript.served.source, BrowserPage.script, SearchPage.script, FormPage.script, PlaygroundPage.script] {
            XCTAssertFalse(script.contains("WebSocket"), "a page's own script opens no socket")
            XCTAssertFalse(script.contains("innerHTML"), "network data is only written as text")
        }
        let client = PipelineClientScript.script
        XCTAssertEqual(client.components(separatedBy: "new WebSocket(").count - 1, 1)
        XCTAssertTrue(client.contains(#"location.host + "/ws/pipelines""#), "same host, /ws/pipelines")
        XCTAssertTrue(client.contains(#""wss:" : "ws:""#), "ws: or wss: per page protocol")
        for frame in ["subscribe", "send", "request"] { XCTAssertTrue(client.contains(#"type: "\#(frame)""#), frame) }
        for frame in ["subscribed", "event", "trace", "completion", "error"] { XCTAssertTrue(client.contains(#"case "\#(frame)""#), frame) }
        XCTAssertTrue(client.contains("demand: WINDOW"))
        XCTAssertTrue(client.contains("WINDOW = \(PipelineClientScript.demandWindow),"))
        XCTAssertFalse(client.contains("innerHTML"), "network data is only written as text")
        XCTAssertFalse(client.contains("unlimited"), "demand is always a window")
    }

    func testScriptSpeaksTheContract() throws {
        let script = BrowserPage.script
        XCTAssertTrue(script.contains(#"send({ type: "input", value: field.value })"#))
        for event in [#"case "hello""#, #"case "activity""#, #"case "result""#, #"case "error""#] {
            XCTAssertTrue(script.contains(event), event)
        }
        for status in ["found", "not_found", "too_short", "invalid", "rate_limited", "unavailable"] {
            XCTAssertTrue(script.contains("\(status):"), status)
        }
        XCTAssertTrue(PipelineClientScript.script.contains("scheduleReconnect"))
        XCTAssertFalse(script.contains("innerHTML"), "network data is only written as text")
    }

    func testContentSecurityPolicyIsDeclared() throws {
        for html in [Self.userPage, Self.searchPage, Self.formPage, Self.playgroundPage] {
            let meta = try parse(html).first { $0.name == "meta" && $0.attributes["http-equiv"] == "Content-Security-Policy" }
            XCTAssertEqual(meta?.attributes["content"], Self.policy.text)
        }
        // As docs/protocol.md gives it (issue #31: it was looser than documented).
        XCTAssertEqual(
            Self.policy.text,
            "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; img-src 'self' https://avatars.githubusercontent.com; "
                + "connect-src 'self'; base-uri 'none'; form-action 'none'")
        let protocolDoc = try String(
            contentsOf: ChildProcess.packageRoot.appendingPathComponent("docs/protocol.md"), encoding: .utf8)
        XCTAssertTrue(protocolDoc.contains("`\(Self.policy.text)`"), "docs/protocol.md gives the policy")
    }

    /// Another GitHub API than GitHub's own (a GitHub Enterprise Server, the demo's fake) serves
    /// the avatars at its own origin: the policy allows exactly that origin besides GitHub's
    /// avatar host, and the page declares it; the pages' code reads the allowed origins back.
    func testImagesAreAllowedFromTheConfiguredAPIsOrigin() throws {
        func sources(_ url: String) throws -> [String] { PageSecurityPolicy(githubAPIURL: try XCTUnwrap(URL(string: url))).imageSources }
        let github = ["'self'", "https://avatars.githubusercontent.com"]
        XCTAssertEqual(try sources("https://api.github.com"), github)
        XCTAssertEqual(try sources("https://API.github.com:443/"), github)
        XCTAssertEqual(try sources("http://127.0.0.1:4711"), github + ["http://127.0.0.1:4711"])
        XCTAssertEqual(try sources("https://ghe.example.com/api/v3"), github + ["https://ghe.example.com"])
        XCTAssertEqual(try sources("https://ghe.example.com:8443/api/v3?x=1"), github + ["https://ghe.example.com:8443"])
        XCTAssertEqual(try sources("http://[::1]:8080"), github + ["http://[::1]:8080"])
        XCTAssertEqual(try sources("ftp://example.com"), github, "only http and https origins")
        let policy = PageSecurityPolicy(githubAPIURL: try XCTUnwrap(URL(string: "http://127.0.0.1:4711")))
        XCTAssertTrue(policy.text.contains("img-src 'self' https://avatars.githubusercontent.com http://127.0.0.1:4711; "), policy.text)
        let meta = try parse(PlaygroundPage.html(policy: policy)).first { $0.attributes["http-equiv"] == "Content-Security-Policy" }
        XCTAssertEqual(meta?.attributes["content"], policy.text)
        XCTAssertTrue(PageScript.imagesScript.contains(#"words[0] === "img-src""#))
        for script in [BrowserPage.script, SearchPage.script, PlaygroundPage.script] {
            XCTAssertTrue(script.contains("images.allows("), "avatars only from where the policy allows")
        }
    }
}
