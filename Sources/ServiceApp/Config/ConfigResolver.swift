import Foundation
import HTTPServer
import Logging

/// Builds the `ServiceConfig` from flags, environment variables, the config file and built-in
/// defaults — in that order of precedence — and validates every value. Each source is read
/// through a swift-configuration provider (`ConfigLayer`); the ranges, formats and error messages
/// are the service's own, here and in `ConfigResolver+Groups.swift`.
///
/// The file is the one named by `--config`, else by `CONFIG_FILE`, else `config/service.json`
/// (relative paths are relative to the working directory). A missing default file is fine: the
/// defaults apply. A missing named file is an error. `GITHUB_TOKEN` comes from the environment only.
struct ConfigResolver: Sendable {
    /// The config file used when neither `--config` nor `CONFIG_FILE` names one.
    static let defaultConfigPath = "config/service.json"
    /// The environment variable naming the config file.
    static let configFileVariable = "CONFIG_FILE"
    /// The environment variable holding the GitHub token.
    static let tokenVariable = "GITHUB_TOKEN"

    /// Values of `--host`, `--port`, `--github-api-url`, `--throttle-ms` as typed.
    var flags: [ConfigKey: String] = [:]
    /// The value of `--config`.
    var configFlag: String?
    /// The process environment.
    var environment: [String: String] = ProcessInfo.processInfo.environment
    /// Reads a file; `nil` when it does not exist. Replaced in tests.
    var readFile: @Sendable (String) throws(ConfigError) -> Data? = { path throws(ConfigError) in
        try ConfigFile.readFromDisk(path)
    }

    /// The resolved, validated configuration.
    func resolve() throws(ConfigError) -> ServiceConfig {
        let environmentLayer = ConfigLayer.environment(environment)
        let file = try loadFile(environment: environmentLayer)
        let reader = SettingReader(layers: [.commandLine(flags), environmentLayer] + (file.map { [.file($0)] } ?? []))
        let defaults = ServiceConfig()
        var config = ServiceConfig()
        config.configFile = file?.path
        config.host = try reader.string(
            .host, default: defaults.host, reason: Self.hostReason, Self.host)
        config.port = try reader.integer(.port, default: defaults.port, in: 0...65_535)
        config.githubAPIURL = try reader.string(
            .githubApiUrl, default: defaults.githubAPIURL,
            reason: "must be an absolute http or https URL without query or fragment", Self.baseURL)
        config.githubToken = try token(environment: environmentLayer)
        config.throttle = try reader.milliseconds(.throttleMs, default: defaults.throttle, in: 0...60_000)
        config.minLength = try reader.integer(.minLength, default: defaults.minLength, in: 1...39)
        config.logLevel = try reader.string(
            .logLevel, default: defaults.logLevel,
            reason: "must be one of \(Logger.Level.allCases.map(\.rawValue).joined(separator: ", "))"
        ) { Logger.Level(rawValue: $0.lowercased()) }
        config.drainGracePeriod = try reader.seconds(
            .drainGracePeriodSeconds, default: defaults.drainGracePeriod, in: 0...600)
        config.drainTimeout = try reader.seconds(.drainTimeoutSeconds, default: defaults.drainTimeout, in: 0...600)
        config.maxConnections = try reader.integer(.maxConnections, default: defaults.maxConnections, in: 1...1_000_000)
        config.timerSlack = .microseconds(try reader.integer(
            .timerSlackMicroseconds, default: Int(defaults.timerSlack / .microseconds(1)), in: 0...100_000))
        config.http = try Self.httpLimits(reader, defaults.http)
        config.webSocket = try Self.webSocketLimits(reader, defaults.webSocket)
        config.upstream = try Self.upstreamTimeouts(reader, defaults.upstream)
        config.retry = try Self.retryPolicy(reader, defaults.retry)
        config.cache = try Self.cacheSettings(reader, defaults.cache)
        config.search = try Self.searchSettings(reader, defaults.search)
        config.mux = try Self.muxSettings(reader, defaults.mux)
        config.fairUse = try Self.fairUseSettings(reader, defaults.fairUse)
        config.redis = try Self.redisSettings(reader)
        return config
    }

    /// The file named by `--config`, else `CONFIG_FILE`, else the default file if it exists.
    private func loadFile(environment: ConfigLayer) throws(ConfigError) -> ConfigFile? {
        let named: (path: String, source: ConfigSource)?
        if let flag = configFlag {
            named = (flag, .flag("--config"))
        } else if let variable = environment.text("configFile") {
            named = (variable, .environment(Self.configFileVariable))
        } else {
            named = nil
        }
        if let named, named.path.isEmpty {
            throw .invalidValue(value: "\"\"", source: named.source, reason: "must name a file")
        }
        let path = named?.path ?? Self.defaultConfigPath
        guard let data = try readFile(path) else {
            if let named { throw .fileNotFound(path: path, namedBy: named.source) }
            return nil
        }
        return try ConfigFile.parse(data, path: path)
    }

    /// The token from `GITHUB_TOKEN`; the error never shows the value.
    private func token(environment: ConfigLayer) throws(ConfigError) -> GitHubToken? {
        guard let value = environment.text("githubToken"), let token = GitHubToken(environmentValue: value) else {
            return nil
        }
        guard token.isHeaderSafe else {
            throw .invalidValue(
                value: "(redacted)", source: .environment(Self.tokenVariable),
                reason: "must contain only visible ASCII characters")
        }
        return token
    }

    /// What `host` accepts, as the error message says it.
    static let hostReason = "must be a numeric IPv4 or IPv6 address, or localhost"

    /// Accepts what the server can bind: a numeric IPv4 or IPv6 address (`0.0.0.0`, `::1`,
    /// `[::]`) or `localhost` — the check `HTTPServer.start` makes, made here so that a bad
    /// host is refused with the other settings (exit 2) instead of after start-up.
    private static func host(_ text: String) -> String? {
        (try? SocketAddress(host: text, port: 0)) == nil ? nil : text
    }

    /// Accepts an absolute http(s) URL with a host and no query or fragment; drops trailing slashes.
    private static func baseURL(_ text: String) -> URL? {
        var trimmed = text.trimmingCharacters(in: .whitespaces)
        while trimmed.hasSuffix("/") { trimmed.removeLast() }
        guard let components = URLComponents(string: trimmed),
            let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = components.host, !host.isEmpty,
            components.query == nil, components.fragment == nil
        else { return nil }
        return components.url
    }
}
