#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The `Date` header value (IMF-fixdate, RFC 9110 §5.6.7), formatted at most once per second.
public struct HTTPDateCache: Sendable {
    private var second = Int.min
    private var cached: [UInt8] = []

    public init() {}

    /// The current date as `Sun, 06 Nov 1994 08:49:37 GMT` bytes; `now` is seconds since 1970.
    public mutating func bytes(now: Int = Int(time(nil))) -> [UInt8] {
        if now != second {
            second = now
            cached = Array(Self.imfFixdate(now).utf8)
        }
        return cached
    }

    private static let weekdays = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// Formats seconds since 1970 (UTC) as IMF-fixdate.
    public static func imfFixdate(_ secondsSince1970: Int) -> String {
        let days = floorDiv(secondsSince1970, 86_400)
        let secondOfDay = secondsSince1970 - days * 86_400
        // Civil date from days (H. Hinnant's algorithm).
        let z = days + 719_468
        let era = floorDiv(z, 146_097)
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        let weekday = weekdays[days - floorDiv(days, 7) * 7]
        return "\(weekday), \(pad(day, 2)) \(months[month - 1]) \(pad(year, 4)) "
            + "\(pad(secondOfDay / 3600, 2)):\(pad(secondOfDay / 60 % 60, 2)):\(pad(secondOfDay % 60, 2)) GMT"
    }

    private static func floorDiv(_ a: Int, _ b: Int) -> Int {
        let q = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
    }

    private static func pad(_ n: Int, _ width: Int) -> String {
        let s = String(n)
        return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
    }
}
