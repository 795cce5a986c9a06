/// GitHub's rules for a login: 1 to 39 ASCII letters, digits and single hyphens, neither
/// starting nor ending with a hyphen. Only a valid login is ever put into an upstream URL.
public enum GithubLogin {
    /// The longest login GitHub allows.
    public static let maxLength = 39

    /// Whether `candidate` is a valid GitHub login.
    public static func isValid(_ candidate: String) -> Bool {
        var candidate = candidate
        return candidate.withUTF8 { bytes in
            guard (1...maxLength).contains(bytes.count), bytes.first != hyphen, bytes.last != hyphen else { return false }
            var previous: UInt8 = 0
            for byte in bytes {
                let alphanumeric = (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                guard alphanumeric || (byte == hyphen && previous != hyphen) else { return false }
                previous = byte
            }
            return true
        }
    }

    private static let hyphen = UInt8(ascii: "-")
}
