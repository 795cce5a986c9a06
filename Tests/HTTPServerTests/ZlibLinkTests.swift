import HTTPServer
import XCTest

final class ZlibLinkTests: XCTestCase {
    func testLinksAgainstZlib() {
        XCTAssertTrue(zlibVersionString.hasPrefix("1."))
    }
}
