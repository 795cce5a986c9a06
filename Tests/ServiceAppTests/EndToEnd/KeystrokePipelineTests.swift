import HTTPTestSupport
import FakeGithub
import Foundation
import XCTest

/// The seed's keystroke pipeline over a real WebSocket, with the throttle on virtual time and
/// real lookups to FakeGithub.
final class KeystrokePipelineTests: EndToEndTestCase {
    func testHelloIsTheFirstEvent() throws {
        try startVirtualService()
        let client = try connect()
        XCTAssertEqual(client.hello?.raw, #"{"minLength":3,"pipeline":"github-user","throttleMs":500,"type":"hello"}"#)
    }

    /// The book's trace: `h`, `he`, `hec`, `heck`, `heckj` typed with pauses longer than the
    /// throttle window.
    func testSeedTraceWithPauses() throws {
        try startVirtualService()
        let client = try connect()
        let expected: [(String, String, Int?)] = [
            ("h", "too_short", nil), ("he", "too_short", nil), ("hec", "found", 3), ("heck", "found", 6),
            ("heckj", "found", 69),
        ]
        for (value, status, repos) in expected {
            try type(value, on: client)
            let result = try client.result(for: value)
            XCTAssertEqual(result.status, status, "\(value): \(result)")
            XCTAssertEqual(result.repos, repos, "\(value): \(result)")
            XCTAssertEqual(result.users?.count, repos == nil ? 0 : 1, "\(value): \(result)")
        }
        try client.drain(for: 0.2)
        XCTAssertEqual(client.results.map(\.query), ["h", "he", "hec", "heck", "heckj"])
        XCTAssertEqual(upstreamLogins, ["hec", "heck", "heckj"])
        let heckj = try XCTUnwrap(client.results.last?.users?.first)
        XCTAssertEqual(heckj, WireEvent.User(
            login: "heckj", id: 43388, name: "Joe Heck", public_repos: 69,
            avatar_url: "\(fakeURL.absoluteString)/avatars/u/43388?v=4", html_url: "https://github.com/heckj"
        ))
        XCTAssertEqual(client.results[2].users?.first?.name, nil, "hec has a null name")
        XCTAssertEqual(client.activity, [true, false, true, false, true, false], "one activity per upstream lookup")
        assertActivityBalanced(client.activity)
    }

    /// All five keystrokes inside one window: throttle(latest: true) emits the first at once (the
    /// window was quiet) and, when the window ends, only the latest; intermediate values never
    /// reach the pipeline, let alone GitHub.
    func testFastTypingSendsOnlyTheLatestValueUpstream() throws {
        try startVirtualService()
        let client = try connect()
        try client.input("h")
        try client.barrier()
        scheduler.advance()  // the first value of a quiet window is emitted at once
        XCTAssertEqual(try client.result(for: "h").status, "too_short")

        for value in ["he", "hec", "heck", "heckj"] { try client.input(value) }
        try client.barrier()
        scheduler.advance(by: .milliseconds(499))
        XCTAssertEqual(fake.requestCount, 0, "nothing leaves before the window ends")
        scheduler.advance(by: .milliseconds(1))
        XCTAssertEqual(try client.result(for: "heckj").repos, 69)
        try client.drain(for: 0.3)
        XCTAssertEqual(client.results.map(\.query), ["h", "heckj"])
        XCTAssertEqual(upstreamLogins, ["heckj"])
        assertActivityBalanced(client.activity)
    }

    /// Fast typing that starts with a lookup-worthy value: the first goes upstream at once, the
    /// last at the end of the window, the one between never.
    func testFastTypingFirstAndLatestGoUpstream() throws {
        try startVirtualService()
        let client = try connect()
        try client.input("hec")
        try client.barrier()
        scheduler.advance()
        XCTAssertEqual(try client.result(for: "hec").repos, 3)
        try client.input("heck")
        try client.input("heckj")
        try client.barrier()
        scheduler.advance(by: .milliseconds(500))
        XCTAssertEqual(try client.result(for: "heckj").repos, 69)
        try client.drain(for: 0.3)
        XCTAssertEqual(client.results.map(\.query), ["hec", "heckj"])
        XCTAssertEqual(upstreamLogins, ["hec", "heckj"])
    }

    /// Removing duplicates: the same value typed again after a pause is not looked up again.
    func testRepeatedValueIsNotLookedUpAgain() throws {
        try startVirtualService()
        let client = try connect()
        try type("heckj", on: client)
        try client.result(for: "heckj")
        try type("heckj", on: client)
        try client.drain(for: 0.3)
        XCTAssertEqual(client.results.count, 1)
        XCTAssertEqual(upstreamLogins, ["heckj"])
    }

    /// A slow lookup superseded by newer input is cancelled upstream (the fake sees its
    /// connection close long before its answer was due) and never reported.
    func testSupersededSlowLookupIsCancelledAndNeverReported() throws {
        try startVirtualService()
        fake.setFault(.delay(.milliseconds(2_500)), for: "heck")
        let client = try connect()
        let started = Date()
        try type("heck", on: client)
        try client.waitFor { $0.isActivity && $0.active == true }
        XCTAssertTrue(waitUntil { self.fake.requestCount(for: "heck") == 1 })
        let closedBefore = fake.connectionsClosed

        try type("heckj", on: client)
        XCTAssertEqual(try client.result(for: "heckj").repos, 69)
        XCTAssertTrue(waitUntil(timeout: 2) { self.fake.connectionsClosed > closedBefore }, "the slow request was not closed")
        XCTAssertLessThan(Date().timeIntervalSince(started), 2.5, "cancelled only when the slow answer came")

        // Past the slow answer's due time: still nothing about "heck".
        try client.drain(for: max(0.5, 3.2 - Date().timeIntervalSince(started)))
        XCTAssertEqual(client.results.map(\.query), ["heckj"])
        XCTAssertEqual(client.activity, [true, false, true, false])
        assertActivityBalanced(client.activity)
    }

    /// Activity across a whole session with cancellations, failures and local answers: balanced
    /// and never overlapping.
    func testActivityBalancedAcrossASession() throws {
        try startVirtualService()
        fake.setFault(.delay(.milliseconds(1_500)), for: "heck")
        let client = try connect()
        for value in ["h", "hec", "nobody", "heck", "heckj", "he", "-bad", "heck"] {
            try type(value, on: client)
            if value != "heck" {
                try client.result(for: value)
            } else {
                try client.waitFor { $0.isActivity && $0.active == true }
            }
        }
        // The last "heck" is slow but not superseded: its result arrives.
        XCTAssertEqual(try client.result(for: "heck", timeout: 10).repos, 6)
        try client.drain(for: 0.2)
        XCTAssertEqual(client.results.map(\.query), ["h", "hec", "nobody", "heckj", "he", "-bad", "heck"])
        XCTAssertEqual(client.activity.count, 10, "\(client.activity)")
        assertActivityBalanced(client.activity)
    }
}
