extension StringProtocol {
    /// The text without HTTP's optional whitespace (RFC 9110 §5.6.3: spaces and horizontal tabs)
    /// at either end; the header values' counterpart of the byte buffers' version.
    func trimmingOptionalWhitespace() -> SubSequence {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !blank($0) }), let last = lastIndex(where: { !blank($0) }) else {
            return self[endIndex...]
        }
        return self[first...last]
    }
}
