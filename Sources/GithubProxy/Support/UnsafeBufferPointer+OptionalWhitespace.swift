extension UnsafeBufferPointer<UInt8> {
    /// These bytes without HTTP's optional whitespace (RFC 9110 §5.6.3: spaces and horizontal
    /// tabs) at either end. The module's header readers share it: a header line from curl, a
    /// date value.
    func trimmingOptionalWhitespace() -> UnsafeBufferPointer<UInt8> {
        let blank: (UInt8) -> Bool = { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        let start = firstIndex(where: { !blank($0) }) ?? endIndex
        let end = lastIndex(where: { !blank($0) }).map { $0 + 1 } ?? start
        return UnsafeBufferPointer(rebasing: self[start..<Swift.max(start, end)])
    }
}
