import FakeGithub
import Foundation
import XCTest

@testable import ServiceApp

/// The README's `websocat ws://localhost:8080/ws` session, run as written against `make demo`'s
/// GitHub (`FakeGithubDemo`): every input line is typed, and the frames the README shows after
/// it are the frames that come, in order (`…` stands for any text). Where the README says what
/// to type under `make demo` instead (`type ghost there`), that login is typed and expected.
/// Issue #31: `no-such-user-here` gave `found` under `make demo`.
final class READMEWalkthroughTests: EndToEndTestCase {
    /// One typed line and the frames the README shows after it (empty: it shows none, or `# …`).
    private struct Step {
        var input: String
        var expected: [String]
    }

    /// The `/ws` session of the README's "Try it" block.
    private func steps() throws -> [Step] {
        let readme = try String(contentsOf: ChildProcess.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let block = try XCTUnwrap(readme.components(separatedBy: "websocat ws://localhost:8080/ws                # one username per line\n")
            .dropFirst().first?.components(separatedBy: "\nwebsocat ").first)
        var steps: [Step] = []
        for line in block.split(separator: "\n").map(String.init) {
            if line.hasPrefix("# {") {
                // The frame, without the README's note after it.
                let frame = String(line.dropFirst(2)).components(separatedBy: "   ").first ?? ""
                if steps.isEmpty { continue }  // the hello, read on connecting
                steps[steps.count - 1].expected.append(frame.trimmingCharacters(in: .whitespaces))
            } else if line.hasPrefix("#") || line.hasPrefix(" ") {
                if let demo = line.range(of: #"type (\S+) there"#, options: .regularExpression), var last = steps.popLast() {
                    let login = String(line[demo].dropFirst("type ".count).dropLast(" there".count))
                    last.expected = last.expected.map { $0.replacingOccurrences(of: #""query":"\#(last.input)""#, with: #""query":"\#(login)""#) }
                    last.input = login
                    steps.append(last)
                }
            } else if !line.isEmpty {
                steps.append(Step(input: line, expected: []))
            }
        }
        return steps
    }

    /// `pattern` with `…` matching any text, anchored.
    private func matches(_ frame: String, _ pattern: String) -> Bool {
        let regex = "^" + pattern.components(separatedBy: "…").map(NSRegularExpression.escapedPattern).joined(separator: ".*") + "$"
        return frame.range(of: regex, options: .regularExpression) != nil
    }

    func testTheUsernameSessionAnswersAsTheREADMEShowsUnderMakeDemo() throws {
        FakeGithubDemo.install(on: fake)
        try startVirtualService()
        let client = try connect()
        let steps = try steps()
        XCTAssertEqual(steps.map(\.input), ["heckj", "hec", "heckj", "ghost"])
        for step in steps {
            let before = client.pipelineEvents.count
            try type(step.input, on: client)
            _ = try pump(client) { $0.isResult && $0.query == step.input }
            try client.drain(for: 0.2)
            let frames = client.pipelineEvents.dropFirst(before).map(\.raw)
            guard !step.expected.isEmpty else { continue }
            XCTAssertEqual(frames.count, step.expected.count, "\(step.input): \(frames)")
            for (frame, pattern) in zip(frames, step.expected) {
                XCTAssertTrue(matches(frame, pattern), "\(step.input): \(frame)\ndoes not match the README's\n\(pattern)")
            }
        }
    }
}
