import Foundation

/// A Redis master, one replica and three `redis-sentinel`s (quorum 2) on loopback, each a process
/// of the test's own: the setup of a failover test. `init` returns once every sentinel knows the
/// two others and the replica, so killing the master starts a failover at once.
public final class RedisSentinelGroup {
    public let masterName: String
    public let master: RedisServerProcess
    public let replica: RedisServerProcess
    public let sentinels: [RedisServerProcess]

    /// - Parameters:
    ///   - password: the data nodes' `requirepass` (the replica and the sentinels use it too).
    ///   - sentinelPassword: the sentinels' own `requirepass`.
    public init(
        masterName: String = "mymaster", password: String? = nil, sentinelPassword: String? = nil,
        downAfterMilliseconds: Int = 1_000, settleTimeout: TimeInterval = 30
    ) throws {
        self.masterName = masterName
        let auth = password.map { ["--requirepass", $0, "--masterauth", $0] } ?? []
        master = try RedisServerProcess(arguments: auth)
        replica = try RedisServerProcess(arguments: auth + ["--replicaof", "127.0.0.1", String(master.port)])
        var lines = password.map { ["sentinel auth-pass \(masterName) \($0)"] } ?? []
        lines += sentinelPassword.map { ["requirepass \($0)"] } ?? []
        let master = master
        sentinels = try (0..<3).map { _ in
            try RedisServerProcess.sentinel(
                masterName: masterName, masterPort: master.port, downAfterMilliseconds: downAfterMilliseconds, configuration: lines)
        }
        let deadline = Date().addingTimeInterval(settleTimeout)
        while !sentinels.allSatisfy({ settled($0.port, password: sentinelPassword) }) {
            guard Date() < deadline else { throw RedisServerMissing(message: "the sentinels did not find each other and the replica") }
            usleep(100_000)
        }
    }

    /// The sentinels' addresses as `host:port`.
    public var sentinelAddresses: [String] { sentinels.map { "127.0.0.1:\($0.port)" } }

    /// Whether the sentinel on `port` knows two other sentinels and one replica.
    private func settled(_ port: UInt16, password: String?) -> Bool {
        arrayCount(port, ["SENTINEL", "sentinels", masterName], password: password) == 2
            && arrayCount(port, ["SENTINEL", "replicas", masterName], password: password) == 1
    }

    /// The element count of the array `command` answers (after `AUTH` with `password`); nil on
    /// any other answer.
    private func arrayCount(_ port: UInt16, _ command: [String], password: String?) -> Int? {
        guard let client = try? TestHTTPClient(port: port, timeout: 2) else { return nil }
        let commands = (password.map { [["AUTH", $0]] } ?? []) + [command]
        let wire = commands.map { words in
            "*\(words.count)\r\n" + words.map { "$\($0.utf8.count)\r\n\($0)\r\n" }.joined()
        }.joined()
        guard (try? client.send(wire)) != nil else { return nil }
        var skipped = password == nil ? 1 : 0
        while true {
            guard let end = client.buffer.firstIndex(of: UInt8(ascii: "\n")) else {
                guard (try? client.fill()) == true else { return nil }
                continue
            }
            let line = String(decoding: client.buffer[..<end], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            client.buffer.removeFirst(end + 1)
            if skipped == 0 {
                guard line == "+OK" else { return nil }
                skipped = 1
                continue
            }
            guard line.hasPrefix("*") else { return nil }
            return Int(line.dropFirst())
        }
    }
}
