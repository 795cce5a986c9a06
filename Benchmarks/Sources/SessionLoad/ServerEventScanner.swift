/// Reads the few fields the load client needs from the server's one-line JSON events without a
/// JSON parser (the server writes them with sorted keys and no spaces; logins need no escapes).
enum ServerEventScanner {
    enum Event: Equatable {
        case hello(throttleMs: Int, minLength: Int)
        case activity(Bool)
        case result(query: String, status: String)
        case error
        case unknown
    }

    static func scan(_ bytes: [UInt8]) -> Event {
        guard let type = string(after: typeKey, in: bytes) else { return .unknown }
        switch type {
        case "result":
            guard let query = string(after: queryKey, in: bytes), let status = string(after: statusKey, in: bytes) else { return .unknown }
            return .result(query: query, status: status)
        case "activity":
            if find(activeTrue, in: bytes) != nil { return .activity(true) }
            if find(activeFalse, in: bytes) != nil { return .activity(false) }
            return .unknown
        case "hello":
            guard let throttle = number(after: throttleKey, in: bytes), let minLength = number(after: minLengthKey, in: bytes) else { return .unknown }
            return .hello(throttleMs: throttle, minLength: minLength)
        case "error":
            return .error
        default:
            return .unknown
        }
    }

    private static let typeKey = Array(#""type":""#.utf8)
    private static let queryKey = Array(#""query":""#.utf8)
    private static let statusKey = Array(#""status":""#.utf8)
    private static let throttleKey = Array(#""throttleMs":"#.utf8)
    private static let minLengthKey = Array(#""minLength":"#.utf8)
    private static let activeTrue = Array(#""active":true"#.utf8)
    private static let activeFalse = Array(#""active":false"#.utf8)

    private static func string(after key: [UInt8], in bytes: [UInt8]) -> String? {
        guard let start = find(key, in: bytes) else { return nil }
        var end = start
        while end < bytes.count, bytes[end] != UInt8(ascii: "\"") {
            if bytes[end] == UInt8(ascii: "\\") { return nil }
            end += 1
        }
        guard end < bytes.count else { return nil }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }

    private static func number(after key: [UInt8], in bytes: [UInt8]) -> Int? {
        guard let start = find(key, in: bytes) else { return nil }
        var value = 0, end = start
        while end < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[end]) {
            value = value * 10 + Int(bytes[end] - UInt8(ascii: "0"))
            end += 1
        }
        return end > start ? value : nil
    }

    /// The index just past the first occurrence of `needle`.
    private static func find(_ needle: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= needle.count, let first = needle.first else { return nil }
        var index = 0
        while index <= bytes.count - needle.count {
            if bytes[index] == first {
                var matched = 1
                while matched < needle.count, bytes[index + matched] == needle[matched] { matched += 1 }
                if matched == needle.count { return index + needle.count }
            }
            index += 1
        }
        return nil
    }
}
