import ArgumentParser
import Foundation
import Logging

/// The `ServiceApp` command: resolves the configuration, bootstraps logging and runs the service.
///
/// Configuration errors (a missing named config file, invalid JSON, unknown keys, values out of
/// range) and usage errors (an unknown flag, a flag without its value) are reported on standard
/// error and exit with status 2; `runAsExecutable` is the entry point that makes it so.
public struct ServiceCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "ServiceApp",
        abstract: "Runs the \"Using Combine\" GitHub-username pipeline over WebSockets.",
        discussion: """
            Each setting comes from its flag, else its environment variable, else the config \
            file, else the built-in default. GITHUB_TOKEN (sent upstream as a bearer token) is \
            read from the environment only and never logged. TRUSTED_PROXIES and \
            ALLOWED_ORIGINS (comma-separated) and DRAIN_GRACE_PERIOD_SECONDS are environment \
            variables too, besides their keys trustedProxies, allowedOrigins and \
            drainGracePeriodSeconds in the file; so are REDIS_PASSWORD and \
            REDIS_SENTINEL_PASSWORD (redis.password, redis.sentinelPassword), never logged. \
            Every other setting lives in the config \
            file only (see config/service.json for the keys and their defaults, \
            docs/configuration.md for their ranges).

            Exit status: 0 after a graceful stop (SIGTERM, SIGINT) and for --help; 1 when the \
            service fails after its configuration was accepted (the port is taken, say); 2 for \
            bad configuration or usage (an unknown flag, a missing value), before it listens.
            """)

    /// The exit status of configuration and usage errors.
    static let configErrorExitCode = ExitCode(2)

    /// Runs the command as the `ServiceApp` executable does and exits: as
    /// `AsyncParsableCommand.main`, except that a usage error (an unknown flag, a flag without
    /// its value) exits with status 2, as bad configuration does, instead of
    /// ArgumentParser's 64.
    public static func runAsExecutable(_ arguments: [String]? = nil) async -> Never {
        do {
            let command = try parse(arguments)
            try await command.run()
            exit()
        } catch {
            guard exitStatus(for: error) == configErrorExitCode else { exit(withError: error) }
            FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
            Foundation.exit(configErrorExitCode.rawValue)
        }
    }

    /// The status the executable exits with for `error`: ArgumentParser's, except that a usage
    /// error (its `validationFailure`, 64) is 2.
    static func exitStatus(for error: any Error) -> ExitCode {
        let code = exitCode(for: error)
        return code == .validationFailure ? configErrorExitCode : code
    }

    @Option(name: .customLong("host"), help: "Address to bind (env HOST, default 0.0.0.0).")
    var host: String?

    @Option(name: .customLong("port"), help: "Port to bind; 0 picks a free port (env PORT, default 8080).")
    var port: String?

    @Option(
        name: .customLong("github-api-url"),
        help: "Upstream base URL (env GITHUB_API_URL, default https://api.github.com).")
    var githubAPIURL: String?

    @Option(
        name: .customLong("throttle-ms"),
        help: "Throttle window of the keystroke pipeline in ms (env THROTTLE_MS, default 500).")
    var throttleMs: String?

    @Option(
        name: .customLong("redis-url"),
        help: "Redis shared by replicas, redis://[[user]:password@]host[:port][/db] (env REDIS_URL, default none: this replica's state only).")
    var redisURL: String?

    @Option(
        name: .customLong("config"),
        help: "Config file (env CONFIG_FILE, default config/service.json; a missing default file is fine).")
    var configFile: String?

    /// The resolver for these flags and `environment`.
    func resolver(environment: [String: String] = ProcessInfo.processInfo.environment) -> ConfigResolver {
        var flags: [ConfigKey: String] = [:]
        flags[.host] = host
        flags[.port] = port
        flags[.githubApiUrl] = githubAPIURL
        flags[.throttleMs] = throttleMs
        flags[.redisUrl] = redisURL
        return ConfigResolver(flags: flags, configFlag: configFile, environment: environment)
    }

    /// The configuration; a `ConfigError` is reported on standard error and becomes exit status 2.
    func resolvedConfig(resolver: ConfigResolver) throws -> ServiceConfig {
        do {
            return try resolver.resolve()
        } catch {
            FileHandle.standardError.write(Data("Error: \(error)\n".utf8))
            throw Self.configErrorExitCode
        }
    }

    public init() {}

    public func run() async throws {
        let config = try resolvedConfig(resolver: resolver())
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardOutput(label: label)
            handler.logLevel = config.logLevel
            return handler
        }
        try await ServiceRunner.run(config: config)
    }
}
