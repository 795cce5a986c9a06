import Foundation

/// Reads an IMF-fixdate (RFC 9110 §5.6.7: `Sun, 06 Nov 1994 08:49:37 GMT`), the only date form
/// origins send today, by hand: a `DateFormatter` costs a formatter (and ICU's calendar) per
/// parse, which under load was 5% of the service's CPU for the `Date` header of each upstream
/// answer. The day name is checked to be one of the seven, not against the date (as RFC 9110
/// allows a recipient to).
enum IMFFixdate {
    /// `text`'s date, or nil when it is not an IMF-fixdate (surrounding spaces and tabs allowed).
    static func date(_ text: String) -> Date? {
        var text = text
        return text.withUTF8 { parse($0.trimmingOptionalWhitespace()) }.map { Date(timeIntervalSince1970: TimeInterval($0)) }
    }

    /// Seconds since 1970 of the 29 bytes `Www, DD Mon YYYY HH:MM:SS GMT`.
    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard bytes.count == 29, bytes[3] == UInt8(ascii: ","), bytes[4] == space, bytes[7] == space,
              bytes[11] == space, bytes[16] == space, bytes[19] == colon, bytes[22] == colon,
              bytes[25] == space, bytes[26] == UInt8(ascii: "G"), bytes[27] == UInt8(ascii: "M"),
              bytes[28] == UInt8(ascii: "T"),
              weekdays.contains(where: { matches($0, bytes, at: 0) }),
              let monthIndex = months.firstIndex(where: { matches($0, bytes, at: 8) }),
              let day = number(bytes, 5, 2), let year = number(bytes, 12, 4),
              let hour = number(bytes, 17, 2), let minute = number(bytes, 20, 2), let second = number(bytes, 23, 2),
              hour < 24, minute < 60, second < 61, // 60: a leap second, read as the next minute's 0
              (1...daysIn(month: monthIndex + 1, year: year)).contains(day)
        else { return nil }
        return daysSince1970(year: year, month: monthIndex + 1, day: day) * 86_400 + hour * 3600 + minute * 60 + second
    }

    /// Days from 1970-01-01 to a civil date (H. Hinnant's `days_from_civil`).
    private static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = y / 400 // year ≥ 0: four digits
        let yoe = y - era * 400
        let doy = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    private static func number(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ count: Int) -> Int? {
        var value = 0
        for byte in bytes[start..<start + count] {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }

    private static func matches(_ name: [UInt8], _ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> Bool {
        name.indices.allSatisfy { bytes[start + $0] == name[$0] }
    }

    private static let space = UInt8(ascii: " ")
    private static let colon = UInt8(ascii: ":")
    private static let weekdays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"].map { Array($0.utf8) }
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"].map { Array($0.utf8) }
}
