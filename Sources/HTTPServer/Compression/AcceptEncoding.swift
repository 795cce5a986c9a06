/// `Accept-Encoding` negotiation (RFC 9110 §12.5.3) for the one coding the server offers: gzip.
public enum AcceptEncoding {
    /// Whether to send gzip to a client that sent `header` (`nil`: no `Accept-Encoding` field).
    ///
    /// gzip is chosen when `gzip` (or `x-gzip`) is listed with q > 0 — or, if not listed, `*` is —
    /// and `identity` is not explicitly preferred with a higher q. A missing or empty field,
    /// `gzip;q=0`, or `*;q=0` without `gzip` give identity. Malformed q-values make the entry
    /// count as not acceptable.
    public static func prefersGzip(_ header: String?) -> Bool {
        guard let header else { return false }
        var gzip: Double?
        var star: Double?
        var identity: Double?
        for element in header.utf8.split(separator: 0x2C) {
            let parts = element.split(separator: 0x3B)
            guard let first = parts.first else { continue }
            let coding = String(decoding: first, as: UTF8.self).trimmingWhitespace().lowercased()
            var q: Double? = 1
            for param in parts.dropFirst() {
                let text = String(decoding: param, as: UTF8.self).trimmingWhitespace()
                if text.hasPrefix("q=") || text.hasPrefix("Q=") {
                    q = qValue(text.dropFirst(2))
                }
            }
            let weight = q ?? 0
            switch coding {
            case "gzip", "x-gzip": gzip = Swift.max(gzip ?? 0, weight)
            case "*": star = weight
            case "identity": identity = weight
            default: break
            }
        }
        guard let chosen = gzip ?? star, chosen > 0 else { return false }
        return chosen >= (identity ?? 0)
    }

    /// `qvalue = ( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] )`, or `nil` if malformed.
    static func qValue(_ text: Substring) -> Double? {
        let bytes = Array(text.utf8)
        guard let lead = bytes.first, lead == 0x30 || lead == 0x31 else { return nil }
        if bytes.count == 1 { return lead == 0x31 ? 1 : 0 }
        guard bytes[1] == 0x2E, bytes.count <= 5 else { return nil }
        var fraction = 0.0
        var scale = 0.1
        for d in bytes[2...] {
            guard d >= 0x30 && d <= 0x39 else { return nil }
            fraction += Double(d - 0x30) * scale
            scale /= 10
        }
        if lead == 0x31 { return fraction == 0 ? 1 : nil }
        return fraction
    }
}

extension String {
    /// Without leading and trailing spaces and tabs.
    func trimmingWhitespace() -> String {
        let u = utf8
        guard let start = u.firstIndex(where: { $0 != 0x20 && $0 != 0x09 }),
              let end = u.lastIndex(where: { $0 != 0x20 && $0 != 0x09 })
        else { return "" }
        return String(decoding: u[start...end], as: UTF8.self)
    }
}
