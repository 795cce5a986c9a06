/// Where a setting's value came from, as error messages name it.
enum ConfigSource: Sendable, Equatable, CustomStringConvertible {
    /// A command-line flag such as `--port`.
    case flag(String)
    /// An environment variable such as `PORT`.
    case environment(String)
    /// A key of a config file.
    case file(path: String, key: String)

    /// `--port`, `environment variable PORT` or `key "port" in config file config/service.json`.
    var description: String {
        switch self {
        case .flag(let flag): flag
        case .environment(let name): "environment variable \(name)"
        case .file(let path, let key): "key \"\(key)\" in config file \(path)"
        }
    }
}
