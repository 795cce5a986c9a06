import FakeGithub
import Foundation
import HTTPTestSupport
import SharedState
import XCTest

/// Two `ServiceApp` processes (the built binary) sharing one `redis-server`, behind the real nginx
/// with the deploy configuration, with the fake GitHub upstream — all on loopback, all the test's
/// own. What `make cluster-test` runs. With `sentinels`, the Redis is a master, a replica and
/// three sentinels (`RedisSentinelGroup`), and the replicas find the master through
/// `REDIS_SENTINELS`.
final class Cluster {
    let fake = FakeGithub()
    /// The Redis (with sentinels: the first master).
    let redis: RedisServerProcess
    /// The master, its replica and the sentinels, with `sentinels`.
    let sentinelGroup: RedisSentinelGroup?
    private(set) var replicas: [Replica] = []
    private(set) var nginx: NginxProcess!
    private let directory: URL

    /// One replica process and its port.
    final class Replica {
        let process: ChildProcess
        let port: UInt16

        init(binary: URL, arguments: [String], variables: [String: String], directory: URL) throws {
            var environment = ProcessInfo.processInfo.environment
            for name in ["HOST", "PORT", "GITHUB_API_URL", "THROTTLE_MS", "CONFIG_FILE", "REDIS_URL", "GITHUB_TOKEN",
                         "REDIS_PASSWORD", "REDIS_SENTINELS", "REDIS_MASTER_NAME", "REDIS_SENTINEL_PASSWORD"] {
                environment[name] = nil
            }
            environment.merge(variables) { _, new in new }
            process = try ChildProcess(binary, arguments, environment: environment, directory: directory)
            let text = process.waitForMatch(#"listening on http://127\.0\.0\.1:(\d+)"#, timeout: 20)
            guard let text, let port = UInt16(text) else {
                throw ClusterError(message: "a replica did not start: \(process.output.suffix(2_000))")
            }
            self.port = port
        }

        /// Killed as a crash kills it (SIGKILL), and gone.
        func kill() {
            process.send(SIGKILL)
            _ = process.waitForExit(timeout: 5)
        }

        /// A sample of `/metrics` (the first line that starts with `name`), nil when absent.
        func metric(_ name: String) -> Double? {
            guard let response = try? Cluster.get("/metrics", port: port) else { return nil }
            let line = response.text.split(separator: "\n").first { $0.hasPrefix(name + " ") || $0.hasPrefix(name + "{") }
            return line.flatMap { $0.split(separator: " ").last }.flatMap { Double($0) }
        }
    }

    init(sentinels: Bool = false) throws {
        let binary = try ChildProcess.requiredProduct("ServiceApp")
        _ = try NginxProcess.requireNginx()
        sentinelGroup = sentinels ? try RedisSentinelGroup() : nil
        redis = try sentinelGroup?.master ?? RedisServerProcess()
        let fakeURL = try fake.start()
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("cluster-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        // nginx (127.0.0.1) is trusted for X-Forwarded-For; a killed replica's sessions reconnect
        // through nginx to the other.
        let configFile = directory.appendingPathComponent("service.json")
        try Data(#"{"drainTimeoutSeconds": 2, "trustedProxies": ["127.0.0.1"], "limits": {"lookupsPerClientPerMinute": 100000}}"#.utf8)
            .write(to: configFile)
        let arguments = [
            "--port", "0", "--host", "127.0.0.1", "--github-api-url", fakeURL.absoluteString, "--throttle-ms", "50",
            "--config", configFile.path,
        ] + (sentinelGroup == nil ? ["--redis-url", "redis://127.0.0.1:\(redis.port)/0"] : [])
        let variables = sentinelGroup.map { ["REDIS_SENTINELS": $0.sentinelAddresses.joined(separator: ",")] } ?? [:]
        for _ in 0..<2 {
            replicas.append(try Replica(binary: binary, arguments: arguments, variables: variables, directory: directory))
        }
        nginx = try NginxProcess(replicaPorts: replicas.map(\.port))
    }

    deinit {
        nginx = nil
        for replica in replicas where replica.process.process.isRunning {
            replica.process.send(SIGTERM)
            _ = replica.process.waitForExit(timeout: 5)
        }
        fake.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// `GET path` on `port` (a replica's or nginx's).
    static func get(_ path: String, port: UInt16) throws -> TestResponse {
        try TestHTTPClient(port: port, timeout: 15)
            .request("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n")
    }

    /// Whether every running replica's `/readyz` says Redis is available.
    var redisAvailableEverywhere: Bool {
        replicas.filter { $0.process.process.isRunning }.allSatisfy { replica in
            (try? Self.get("/readyz", port: replica.port).text.contains(#""redis":"available""#)) == true
        }
    }

    /// A client of the cluster's Redis, to look at what the replicas share (with sentinels: of
    /// the master they name now).
    func redisClient() -> RedisClient {
        var configuration = RedisClient.Configuration(port: Int(redis.port), poolSize: 1, timeout: .seconds(1))
        if let sentinelGroup {
            configuration.sentinels = RedisSentinels(
                addresses: sentinelGroup.sentinelAddresses.compactMap(RedisAddress.init), masterName: sentinelGroup.masterName)
        }
        return RedisClient(configuration: configuration)
    }
}

struct ClusterError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
