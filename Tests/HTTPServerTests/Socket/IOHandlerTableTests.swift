import XCTest

@testable import HTTPServer

final class IOHandlerTableTests: XCTestCase {
    private final class Handler: IOHandler {
        func ready(_ event: IOEvent) { XCTFail("a table never calls its handlers") }
    }

    func testATokenFindsItsHandlerUntilRemoved() {
        var table = IOHandlerTable()
        let first = Handler(), second = Handler()
        let firstToken = table.insert(first)
        let secondToken = table.insert(second)
        XCTAssertNotEqual(firstToken, secondToken)
        XCTAssertTrue(table[firstToken] === first)
        XCTAssertTrue(table[secondToken] === second)
        table.remove(firstToken)
        XCTAssertNil(table[firstToken])
        XCTAssertTrue(table[secondToken] === second)
    }

    func testAReusedSlotDoesNotAnswerTheOldToken() {
        var table = IOHandlerTable()
        let old = table.insert(Handler())
        table.remove(old)
        let replacement = Handler()
        let new = table.insert(replacement)
        XCTAssertNotEqual(old, new, "the slot is reused under a new generation")
        XCTAssertNil(table[old], "an event of the ended registration finds nothing")
        XCTAssertTrue(table[new] === replacement)
    }

    func testRemovingTwiceOrAnUnknownTokenChangesNothing() {
        var table = IOHandlerTable()
        let kept = Handler()
        let removed = table.insert(Handler())
        let keptToken = table.insert(kept)
        table.remove(removed)
        table.remove(removed)
        table.remove(Epoll.wakeToken)
        // One free slot, not two: the next two registrations get distinct tokens.
        let a = table.insert(Handler()), b = table.insert(Handler())
        XCTAssertEqual(Set([a, b, keptToken]).count, 3)
        XCTAssertTrue(table[keptToken] === kept)
        XCTAssertNil(table[Epoll.wakeToken])
    }
}
