import Configuration

/// One source of settings, read through its swift-configuration provider: the command line
/// (`CommandLineArgumentsProvider`), the environment (`EnvironmentVariablesProvider`) or the
/// config file (`ConfigFile`'s own snapshot). `ConfigResolver` asks them in precedence order.
struct ConfigLayer: Sendable {
    private enum Kind: Sendable {
        /// The flags as typed.
        case commandLine([ConfigKey: String])
        /// The variables the service reads, those set to a non-empty value.
        case environment([String: String])
        /// The parsed config file.
        case file(ConfigFile)
    }

    private let kind: Kind
    /// The provider's values, which it converts to the type a setting asks for.
    let snapshot: any ConfigSnapshot

    /// `--port`, `--host` … as typed (keys without a flag are ignored).
    static func commandLine(_ flags: [ConfigKey: String]) -> ConfigLayer {
        let typed = flags.filter { $0.key.flag != nil }
        // `--flag=value`, so that a value starting with `-` stays a value.
        let arguments = typed.compactMap { key, value in key.flag.map { "\($0)=\(value)" } }
        let secrets = Set(ConfigKey.allCases.filter(\.isSecret).compactMap(\.flag))
        let provider = CommandLineArgumentsProvider(arguments: ["ServiceApp"] + arguments, secretsSpecifier: .specific(secrets))
        return ConfigLayer(kind: .commandLine(typed), snapshot: provider.snapshot())
    }

    /// The variables of `environment` that the service reads (each key's, `CONFIG_FILE` and
    /// `GITHUB_TOKEN`); an empty one counts as unset. No other variable becomes a setting.
    static func environment(_ environment: [String: String]) -> ConfigLayer {
        let names = Set(ConfigKey.allCases.compactMap(\.environmentVariable))
            .union([ConfigResolver.configFileVariable, ConfigResolver.tokenVariable])
        let read = environment.filter { names.contains($0.key) && !$0.value.isEmpty }
        let secrets = Set(ConfigKey.allCases.filter(\.isSecret).compactMap(\.environmentVariable))
            .union([ConfigResolver.tokenVariable])
        let provider = EnvironmentVariablesProvider(environmentVariables: read, secretsSpecifier: .specific(secrets))
        return ConfigLayer(kind: .environment(read), snapshot: provider.snapshot())
    }

    /// The values of a parsed config file.
    static func file(_ file: ConfigFile) -> ConfigLayer {
        ConfigLayer(kind: .file(file), snapshot: file)
    }

    /// Where `key`'s value comes from, as error messages name it: `--port`, `environment variable
    /// PORT`, `key "port" in config file config/service.json`.
    func source(of key: ConfigKey) -> ConfigSource {
        switch kind {
        case .commandLine: .flag(key.flag ?? key.rawValue)
        case .environment: .environment(key.environmentVariable ?? key.rawValue)
        case .file(let file): .file(path: file.path, key: key.rawValue)
        }
    }

    /// `key`'s value as given, as error messages show it: `"8080"` typed, `8080` in the file.
    func shown(_ key: ConfigKey) -> String {
        guard !key.isSecret else { return "(not shown: it may hold a password)" }
        switch kind {
        case .commandLine(let flags): return "\"\(flags[key] ?? "")\""
        case .environment(let variables): return "\"\(key.environmentVariable.flatMap { variables[$0] } ?? "")\""
        case .file(let file): return file.values[key]?.description ?? "null"
        }
    }

    /// A text setting of this layer with no `ConfigKey` (`CONFIG_FILE`, `GITHUB_TOKEN`), by its
    /// configuration key (`configFile`, `githubToken`).
    func text(_ key: String) -> String? {
        guard case .string(let text)? = try? snapshot.value(forKey: AbsoluteConfigKey([key]), type: .string).value?.content
        else { return nil }
        return text
    }
}
