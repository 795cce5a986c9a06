import Foundation
import HTTPTestSupport
import RemotePipeline
import StreamCore
import XCTest

/// The README's "A remote pipeline is a Publisher" example, line for line but for the URL and
/// the scheduler (a serial queue instead of the main queue, which XCTest does not run here).
final class READMEExampleTests: RemotePipelineTestCase {
    func testTheREADMEExampleRuns() throws {
        try startService()
        let printed = Box<[String]>([])
        func print(_ items: Any...) { printed.mutate { $0.append(items.map { "\($0)" }.joined(separator: " ")) } }
        let main = DispatchQueue(label: "readme.main")

        let keystrokes = PassthroughSubject<String, Never>()             // the username field's values
        let githubUser = RemotePipeline(url: URL(string: "ws://localhost:\(port)/ws/pipelines")!, pipeline: "github-user")
        let results = githubUser
            .events(for: keystrokes.throttle(for: .milliseconds(500), scheduler: main, latest: true).removeDuplicates())
            .filter { $0.type == "result" }                               // map(lookup) + switchToLatest ran on the server
            .sink(receiveCompletion: { print("ended:", $0) },             // .failure(.connectionLost) if the server goes away
                  receiveValue: { print($0.query ?? "", $0.users.first?.login ?? "unknown") })
        keystrokes.send("heckj")                                          // prints: heckj heckj

        XCTAssertTrue(waitUntil(timeout: 10) { printed.value == ["heckj heckj"] }, "\(printed.value)")
        stopService()
        XCTAssertTrue(waitUntil(timeout: 10) { printed.value.last == "ended: failure(connection lost)" }, "\(printed.value)")
        results.cancel()
    }
}
