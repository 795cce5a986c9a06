import Dispatch
import XCTest

/// Starts `count` callback calls at once (`start(index, answer)`) and waits up to ten seconds for
/// every answer; returns them in the order they came.
public func atOnce<Answer: Sendable>(_ count: Int, _ start: (Int, @escaping @Sendable (Answer) -> Void) -> Void) -> [Answer] {
    let answers = Box<[Answer]>([])
    let group = DispatchGroup()
    for index in 0..<count {
        group.enter()
        start(index) { answer in
            answers.mutate { $0.append(answer) }
            group.leave()
        }
    }
    XCTAssertEqual(group.wait(timeout: .now() + 10), .success, "\(count) answers within 10 s")
    return answers.value
}
