import Dispatch
import Foundation
import StreamCore
import XCTest

/// The stride API book-style code uses (`.timeInterval`, `init(_:)`), as Apple has it.
final class StrideTests: XCTestCase {
    func testDispatchStrideTimeIntervalAndInitialisers() {
        typealias Stride = DispatchQueue.SchedulerTimeType.Stride
        XCTAssertEqual(Stride.milliseconds(1_500).timeInterval, .nanoseconds(1_500_000_000))
        XCTAssertEqual(Stride(.milliseconds(2)).magnitude, 2_000_000)
        XCTAssertEqual(Stride(.seconds(3)).magnitude, 3_000_000_000)
        XCTAssertEqual(Stride(.microseconds(7)).magnitude, 7_000)
        XCTAssertEqual(Stride(.nanoseconds(9)).magnitude, 9)
        XCTAssertEqual(Stride(.never).magnitude, Int.max)
        XCTAssertEqual(Stride(.seconds(Int.max)).magnitude, Int.max, "saturates instead of overflowing")
        XCTAssertEqual(Stride(0.25).magnitude, 250_000_000)
        // A delay computed from a stride, as in the book's examples.
        let deadline = DispatchTime(uptimeNanoseconds: 1_000) + Stride.milliseconds(1).timeInterval
        XCTAssertEqual(deadline.uptimeNanoseconds, 1_001_000)
    }

    func testRunLoopAndOperationQueueStridesHaveTimeIntervalInSeconds() {
        XCTAssertEqual(RunLoop.SchedulerTimeType.Stride.milliseconds(250).timeInterval, 0.25, accuracy: 1e-12)
        XCTAssertEqual(OperationQueue.SchedulerTimeType.Stride(2).timeInterval, 2)
    }
}
