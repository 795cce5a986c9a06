@testable import HTTPServer
import Dispatch
import XCTest

final class DeadlineTests: XCTestCase {
    func testADeadlineLiesTheDurationAhead() {
        let before = DispatchTime.now().uptimeNanoseconds
        let deadline = Deadline.after(.milliseconds(250))
        let after = DispatchTime.now().uptimeNanoseconds
        XCTAssertGreaterThanOrEqual(deadline.uptimeNanoseconds, before + 250_000_000)
        XCTAssertLessThanOrEqual(deadline.uptimeNanoseconds, after + 250_000_000)
        XCTAssertLessThan(Deadline.after(.zero), Deadline.after(.seconds(1)))
        let past = Deadline.after(.seconds(-5))
        XCTAssertGreaterThanOrEqual(past.uptimeNanoseconds, before, "negative counts as now")
        XCTAssertLessThanOrEqual(past.uptimeNanoseconds, DispatchTime.now().uptimeNanoseconds)
    }
}
