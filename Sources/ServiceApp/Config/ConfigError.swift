/// Why the configuration could not be resolved. Each message names the file, key, flag or
/// variable at fault; the command reports it and exits with status 2. Messages never contain
/// the GitHub token.
enum ConfigError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A config file named by `--config` or `CONFIG_FILE` does not exist.
    case fileNotFound(path: String, namedBy: ConfigSource)
    /// The config file exists but cannot be read.
    case unreadableFile(path: String, reason: String)
    /// The config file is not valid JSON, or its top level is not an object.
    case invalidJSON(path: String, reason: String)
    /// The config file has keys the service does not know (dotted, sorted).
    case unknownKeys([String], path: String)
    /// A value is of the wrong type or out of range.
    case invalidValue(value: String, source: ConfigSource, reason: String)

    var description: String {
        switch self {
        case .fileNotFound(let path, let source):
            return "config file \(path) (named by \(source)) does not exist"
        case .unreadableFile(let path, let reason):
            return "config file \(path) cannot be read: \(reason)"
        case .invalidJSON(let path, let reason):
            return "config file \(path) is not a valid JSON object: \(reason)"
        case .unknownKeys(let keys, let path):
            let list = keys.map { "\"\($0)\"" }.joined(separator: ", ")
            let noun = keys.count == 1 ? "key" : "keys"
            var hints: [String] = []
            if keys.contains(where: { $0.lowercased().contains("token") }) {
                hints.append("the GitHub token is read from the GITHUB_TOKEN environment variable only")
            }
            // A known setting is reported unknown only when written at the top level, dotted.
            if let misplaced = keys.first(where: { ConfigKey(rawValue: $0) != nil }),
                let dot = misplaced.firstIndex(of: ".") {
                let group = misplaced[..<dot], member = misplaced[misplaced.index(after: dot)...]
                hints.append(#"a group's setting goes inside its object: "\#(group)": {"\#(member)": …}"#)
            }
            let hint = hints.isEmpty ? "" : " (" + hints.joined(separator: "; ") + ")"
            return "config file \(path) has unknown \(noun) \(list)\(hint)"
        case .invalidValue(let value, let source, let reason):
            return "invalid value \(value) for \(source): \(reason)"
        }
    }
}
