import Foundation
@testable import GithubProxy
import XCTest

final class IMFFixdateTests: XCTestCase {
    func testReadsTheRFCsExample() {
        XCTAssertEqual(IMFFixdate.date("Sun, 06 Nov 1994 08:49:37 GMT"), Date(timeIntervalSince1970: 784_111_777))
        XCTAssertEqual(IMFFixdate.date(" \tSun, 06 Nov 1994 08:49:37 GMT  "), Date(timeIntervalSince1970: 784_111_777))
    }

    /// Foundation's `DateFormatter` (the reference) writes dates from 1970 to 2100, leap days and
    /// year ends included; each reads back as the same second.
    func testAgreesWithDateFormatterOnRandomDates() {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        var generator = SystemRandomNumberGenerator()
        let chosen = [0, 68_169_599, 951_782_400, 951_868_799, 4_107_542_399, 1_709_164_800]
        for seconds in chosen + (0..<2_000).map({ _ in Int.random(in: 0..<4_102_444_800, using: &generator) }) {
            let date = Date(timeIntervalSince1970: TimeInterval(seconds))
            let text = formatter.string(from: date)
            XCTAssertEqual(IMFFixdate.date(text), date, text)
            XCTAssertEqual(formatter.date(from: text), date, "the reference reads its own \(text)")
        }
    }

    func testRefusesWhatIsNotAnIMFFixdate() {
        for text in [
            "", "Sun, 06 Nov 1994 08:49:37", "Sun, 06 Nov 1994 08:49:37 UTC", "Sunday, 06-Nov-94 08:49:37 GMT",
            "Sun Nov  6 08:49:37 1994", "Sun, 6 Nov 1994 08:49:37 GMT", "Sun, 06 nov 1994 08:49:37 GMT",
            "Sun, 30 Feb 1996 08:49:37 GMT", "Sun, 29 Feb 1900 08:49:37 GMT", "Sun, 00 Nov 1994 08:49:37 GMT",
            "Sun, 06 Nov 1994 24:00:00 GMT", "Sun, 06 Nov 1994 08:60:37 GMT", "Sun, 06 Nov 199x 08:49:37 GMT",
            "Xyz, 06 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 08:49:37 GMTX", "Sun; 06 Nov 1994 08:49:37 GMT",
        ] {
            XCTAssertNil(IMFFixdate.date(text), text)
        }
        XCTAssertNotNil(IMFFixdate.date("Tue, 29 Feb 2000 00:00:00 GMT"), "2000 is a leap year")
    }
}
