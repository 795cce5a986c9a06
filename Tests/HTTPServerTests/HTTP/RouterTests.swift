@testable import HTTPServer
import XCTest

final class RouterTests: XCTestCase {
    private func router() -> Router {
        var router = Router()
        router.get("/") { _ in HTTPResponse(text: "root") }
        router.get("/api/users/{login}") { r in HTTPResponse(text: "user \(r.pathParameters["login"] ?? "?")") }
        router.delete("/api/users/{login}") { _ in HTTPResponse(text: "deleted") }
        router.get("/api/users/me") { _ in HTTPResponse(text: "me") }
        router.post("/api/users") { _ in HTTPResponse(text: "created") }
        router.get("/repos/{owner}/{name}/issues") { r in
            HTTPResponse(text: "\(r.pathParameters["owner"] ?? "")|\(r.pathParameters["name"] ?? "")")
        }
        return router
    }

    private func assertText(_ router: Router, _ method: HTTPMethod, _ target: String, _ expected: String,
                            line: UInt = #line) async {
        let response = await router.handle(HTTPRequest(method: method, target: target))
        XCTAssertEqual(text(response), expected, line: line)
    }

    private func text(_ response: HTTPResponse) -> String {
        guard case .bytes(let bytes) = response.body else { return "<stream>" }
        return String(decoding: bytes, as: UTF8.self)
    }

    private func parameters(_ method: HTTPMethod, _ target: String) -> [String: String]? {
        if case .matched(_, let parameters) = router().match(method: method, target: target) { return parameters }
        return nil
    }

    func testMatchesLiteralAndParameters() async {
        let r = router()
        await assertText(r, .get, "/", "root")
        await assertText(r, .get, "/api/users/heckj?tab=repos", "user heckj")
        await assertText(r, .post, "/api/users", "created")
        await assertText(r, .get, "/repos/apple/swift-nio/issues", "apple|swift-nio")
        XCTAssertEqual(parameters(.get, "/repos/a/b/issues"), ["owner": "a", "name": "b"])
    }

    func testParametersArePercentDecoded() {
        XCTAssertEqual(parameters(.get, "/api/users/h%C3%A9ckj"), ["login": "héckj"])
        XCTAssertEqual(parameters(.get, "/api/users/a%2Fb"), ["login": "a/b"])
        XCTAssertEqual(parameters(.get, "/api/users/a%20b"), ["login": "a b"])
        XCTAssertEqual(parameters(.get, "/api/%75sers/x"), ["login": "x"])  // literal compared decoded
    }

    func testMostSpecificPatternWins() async {
        await assertText(router(), .get, "/api/users/me", "me")
        // DELETE is only registered on the parameter pattern.
        await assertText(router(), .delete, "/api/users/me", "deleted")
    }

    func testNotFound() async {
        let r = router()
        for target in ["/nope", "/api/users/", "/api/users/a/b", "/api", "/api/users/%zz", "", "*", "/API/users/x"] {
            guard case .notFound = r.match(method: .get, target: target) else {
                return XCTFail("\(target) should be 404")
            }
        }
        let response = await r.handle(HTTPRequest(method: .get, target: "/nope"))
        XCTAssertEqual(response.status, .notFound)
    }

    func testMethodNotAllowedListsAllow() async {
        let r = router()
        guard case .methodNotAllowed(let allowed) = r.match(method: .put, target: "/api/users/x") else {
            return XCTFail("expected 405")
        }
        XCTAssertEqual(allowed, [.get, .head, .delete])
        let response = await r.handle(HTTPRequest(method: .post, target: "/api/users/x"))
        XCTAssertEqual(response.status, .methodNotAllowed)
        XCTAssertEqual(response.headers["Allow"], "GET, HEAD, DELETE")
        let postOnly = await r.handle(HTTPRequest(method: .get, target: "/api/users"))
        XCTAssertEqual(postOnly.headers["Allow"], "POST")
        let head = await r.handle(HTTPRequest(method: .head, target: "/api/users"))
        XCTAssertEqual(head.status, .methodNotAllowed)
    }

    func testHeadIsServedByGetUnlessRegistered() async {
        var r = router()
        await assertText(r, .head, "/api/users/x", "user x")
        r.add(.head, "/api/users/{login}") { _ in HTTPResponse(text: "head") }
        await assertText(r, .head, "/api/users/x", "head")
        guard case .methodNotAllowed(let allowed) = r.match(method: .put, target: "/api/users/x") else {
            return XCTFail("expected 405")
        }
        XCTAssertEqual(allowed, [.get, .delete, .head])
    }

    func testReRegisteringReplaces() async {
        var r = Router()
        r.get("/x/{a}") { _ in HTTPResponse(text: "1") }
        r.get("/x/{b}") { _ in HTTPResponse(text: "2") }
        await assertText(r, .get, "/x/y", "2")
    }

    func testAbsoluteFormTarget() {
        XCTAssertEqual(parameters(.get, "http://example.com/api/users/z?q=1"), ["login": "z"])
        XCTAssertEqual(parameters(.get, "http://example.com"), [:])
    }

    func testPatternSyntax() {
        XCTAssertEqual(RoutePattern("/a/{b}/c{d}/{}").segments, [.literal("a"), .parameter("b"), .literal("c{d}"), .literal("{}")])
        XCTAssertEqual(RoutePattern("/").segments, [.literal("")])
    }

    func testLiteralRoutesWinAndStillMatchEncodedPaths() async {
        var r = router()
        r.get("/healthz", static: HTTPResponse(text: "ok"))
        await assertText(r, .get, "/healthz", "ok")
        await assertText(r, .get, "/healthz?verbose=1", "ok")
        await assertText(r, .get, "/heal%74hz", "ok")
        await assertText(r, .get, "http://example.com/healthz", "ok")
        await assertText(r, .head, "/healthz", "ok")
        await assertText(r, .get, "/api/users/me", "me")
        guard case .methodNotAllowed(let allowed) = r.match(method: .post, target: "/healthz") else {
            return XCTFail("expected 405")
        }
        XCTAssertEqual(allowed, [.get, .head])
        for target in ["/healthz/", "//healthz", "/healthzz", "/HEALTHZ"] {
            guard case .notFound = r.match(method: .get, target: target) else { return XCTFail("\(target) should be 404") }
        }
    }

    func testALiteralRouteForAnotherMethodLeavesThePatternRoute() async {
        var r = Router()
        r.post("/items/new") { _ in HTTPResponse(text: "created") }
        r.get("/items/{id}") { request in HTTPResponse(text: "item \(request.pathParameters["id"] ?? "")") }
        await assertText(r, .get, "/items/new", "item new")
        await assertText(r, .post, "/items/new", "created")
        await assertText(r, .head, "/items/new", "item new")
    }
}

/// The router's first filter: a path's segment count, as `PathSegments` splits it.
final class RouteSegmentCountTests: XCTestCase {
    func testCountsTheSegmentsPathSegmentsYields() {
        for path in ["", "/", "/a", "/a/", "/a/b", "a/b", "//", "/api/users/heckj", "/a%2Fb/c"] {
            var segments = PathSegments(Substring(path))
            var yielded = 0
            while segments.next() != nil { yielded += 1 }
            XCTAssertEqual(RoutePattern.segmentCount(of: Substring(path)), yielded, path)
        }
    }

    /// Routes of other lengths are not tried, and the result is the same as trying them all.
    func testMatchesAcrossLengths() {
        var router = Router()
        let ok = HTTPResponse(status: .ok, text: "ok")
        router.get("/a", immediate: { _ in ok })
        router.get("/a/{b}", immediate: { _ in ok })
        router.get("/a/{b}/c", immediate: { _ in ok })
        router.add(.post, "/a/{b}/d", immediate: { _ in ok })
        guard case .matched(_, let parameters) = router.match(method: .get, target: "/a/x/c") else { return XCTFail() }
        XCTAssertEqual(parameters, ["b": "x"])
        guard case .matched(_, let one) = router.match(method: .get, target: "/a/y") else { return XCTFail() }
        XCTAssertEqual(one, ["b": "y"])
        guard case .methodNotAllowed(let allowed) = router.match(method: .get, target: "/a/x/d") else { return XCTFail() }
        XCTAssertEqual(allowed, [.post])
        guard case .notFound = router.match(method: .get, target: "/a/x/c/e") else { return XCTFail() }
    }
}
