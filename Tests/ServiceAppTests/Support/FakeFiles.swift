import Foundation

@testable import ServiceApp

/// An in-memory file system for `ConfigResolver.readFile`, and resolver shortcuts.
struct FakeFiles: Sendable {
    var files: [String: String] = [:]

    /// A resolver reading from these files.
    func resolver(
        flags: [ConfigKey: String] = [:], configFlag: String? = nil, environment: [String: String] = [:]
    ) -> ConfigResolver {
        let files = self.files
        return ConfigResolver(
            flags: flags, configFlag: configFlag, environment: environment,
            readFile: { path throws(ConfigError) in files[path].map { Data($0.utf8) } })
    }

    /// Resolves with the default config file holding `json`.
    static func resolve(
        file json: String? = nil, flags: [ConfigKey: String] = [:], environment: [String: String] = [:]
    ) throws(ConfigError) -> ServiceConfig {
        var fake = FakeFiles()
        fake.files[ConfigResolver.defaultConfigPath] = json
        return try fake.resolver(flags: flags, environment: environment).resolve()
    }

    /// The error resolving throws, or `nil` when it succeeds.
    static func error(
        file json: String? = nil, flags: [ConfigKey: String] = [:], environment: [String: String] = [:]
    ) -> ConfigError? {
        do {
            _ = try resolve(file: json, flags: flags, environment: environment)
            return nil
        } catch {
            return error
        }
    }
}
