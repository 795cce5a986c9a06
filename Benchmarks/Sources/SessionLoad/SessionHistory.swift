/// Everything one session sent and received, with times, across names (bounded): printed whole
/// for any violation, so a report can be read without rerunning the load.
///
/// Lines look like `+12034 >orta` (sent), `+12090 <{"active":true,…}` (received), `+12500 #name
/// orta` (a new name begins), `+22034 !missing final orta` (what the checker concluded). Times are
/// milliseconds since the session connected.
struct SessionHistory {
    private var lines: [String] = []
    private var head = 0
    private var dropped = 0
    private let capacity: Int
    private let start: UInt64

    init(capacity: Int = 400, start: UInt64) {
        self.capacity = max(1, capacity)
        self.start = start
    }

    mutating func sent(_ value: String, at time: UInt64) { append(time, ">\(value)") }

    mutating func received(_ bytes: [UInt8], at time: UInt64) {
        append(time, "<" + String(decoding: bytes.prefix(160), as: UTF8.self))
    }

    mutating func note(_ text: String, at time: UInt64) { append(time, text) }

    /// The lines in order, oldest first, with a note of how many older ones were dropped.
    var text: String {
        let ordered = Array(lines[head...] + lines[..<head])
        let prefix = dropped > 0 ? ["(\(dropped) earlier lines dropped)"] : []
        return (prefix + ordered).joined(separator: "\n    ")
    }

    private mutating func append(_ time: UInt64, _ text: String) {
        let line = "+\(time >= start ? (time - start) / 1_000_000 : 0) \(text)"
        if lines.count < capacity {
            lines.append(line)
        } else {
            lines[head] = line
            head = (head + 1) % capacity
            dropped += 1
        }
    }
}
