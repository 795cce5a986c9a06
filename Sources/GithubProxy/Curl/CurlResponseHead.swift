import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A response's status and header fields as libcurl received them.
///
/// What a transfer completes with. `dataTaskPublisher(for:)` turns it into Foundation's
/// `HTTPURLResponse`, whose initialiser copies and parses every field again (about a tenth of
/// the driver thread's CPU per request, measured under session load); the GitHub client reads
/// the status and a few fields from it directly.
struct CurlResponseHead: Sendable {
    /// Where the transfer ended, after redirects.
    let url: URL
    let statusCode: Int
    let httpVersion: String
    /// In the order received, names as sent, values without optional whitespace at either end
    /// (`CurlTransfer` trims it as each line arrives).
    let fields: [(name: String, value: String)]

    /// The value of the field `name`, compared case-insensitively (ASCII, as field names are);
    /// a field sent more than once gives its values joined with ", " (RFC 9110 §5.3). Nil when
    /// absent.
    func value(forHTTPHeaderField name: String) -> String? {
        var found: String?
        for field in fields where Self.sameName(field.name, name) {
            found = found.map { "\($0), \(field.value)" } ?? field.value
        }
        return found
    }

    /// Foundation's response for this head (nil only when Foundation refuses it).
    var httpURLResponse: HTTPURLResponse? {
        HTTPURLResponse(
            url: url, statusCode: statusCode, httpVersion: httpVersion,
            headerFields: Dictionary(fields.map { ($0.name, $0.value) }, uniquingKeysWith: { "\($0), \($1)" })
        )
    }

    /// Whether two field names are equal ignoring ASCII case: only a letter may differ, and only
    /// in case (bit 0x20).
    private static func sameName(_ a: String, _ b: String) -> Bool {
        a.utf8.count == b.utf8.count && a.utf8.elementsEqual(b.utf8) { x, y in
            x == y || (x | 0x20 == y | 0x20 && (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(x | 0x20))
        }
    }
}
