import Foundation
import GithubProxy
import XCTest

/// Reading `Cache-Control`, `Age` and `Date` (RFC 9111) from a response's fields.
final class CacheDirectivesTests: XCTestCase {
    private func directives(_ fields: [String: String]) -> CacheDirectives {
        CacheDirectives(header: { name in fields.first { $0.key.lowercased() == name.lowercased() }?.value })
    }

    func testReadsEachDirectiveIgnoringCaseAndOptionalWhitespace() {
        XCTAssertEqual(directives(["Cache-Control": "private, max-age=60, s-maxage=60"]), CacheDirectives(maxAge: 60))
        XCTAssertEqual(directives(["Cache-Control": " No-Store ,\tMAX-AGE = 5 "]), CacheDirectives(noStore: true, maxAge: 5))
        XCTAssertEqual(directives(["Cache-Control": "no-cache"]), CacheDirectives(noCache: true))
    }

    func testQuotedMaxAgeIsRead() {
        XCTAssertEqual(directives(["Cache-Control": "max-age=\"120\""]).maxAge, 120)
    }

    func testMalformedMaxAgeCountsAsAbsent() {
        for value in ["max-age", "max-age=", "max-age=-1", "max-age=1.5", "max-age=ten", "=60"] {
            XCTAssertNil(directives(["Cache-Control": value]).maxAge, value)
        }
    }

    func testAbsentHeadersGiveNoDirectives() {
        XCTAssertEqual(directives([:]), CacheDirectives())
    }

    func testAgeIsNeverNegativeAndDateIsIMFFixdate() {
        XCTAssertEqual(directives(["Age": " 30 "]).age, 30)
        XCTAssertEqual(directives(["Age": "-3"]).age, 0)
        XCTAssertNil(directives(["Age": "soon"]).age)
        XCTAssertEqual(
            directives(["Date": "Sun, 06 Nov 1994 08:49:37 GMT"]).date, Date(timeIntervalSince1970: 784_111_777)
        )
        XCTAssertNil(directives(["Date": "yesterday"]).date)
    }
}
