import FakeGithub
import Foundation
import HTTPTestSupport
import XCTest

/// Issue #33: every credential the service is given — the Redis password (in `REDIS_URL` or in
/// `REDIS_PASSWORD`), the sentinels' password (`REDIS_SENTINEL_PASSWORD`), the GitHub token — is
/// looked for in everything the built binary says: its log at `trace` (the resolved
/// configuration it logs at start included), `/readyz`, `/metrics` and other responses (headers
/// and bodies), the warnings of a refused `AUTH`, and the error of a configuration it rejects.
final class RedisSecrecyProcessTests: XCTestCase {
    private let secrets = [
        "pw-env-7Qx9", "pw-url-4Mz2", "pw-wrong-8Kd1", "pw-sentinel-2Hv6", "ghp_redisSecrecyToken99",
    ]
    private var fake: FakeGithub!
    private var fakeURL: URL!
    private var redis: RedisServerProcess!
    private var directory: URL!
    /// Everything the binary said, with where it was said.
    private var seen: [(place: String, text: String)] = []

    override func setUpWithError() throws {
        try super.setUpWithError()
        fake = FakeGithub()
        fakeURL = try fake.start()
        redis = try RedisServerProcess(arguments: ["--requirepass", "pw-env-7Qx9"])
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("secrecy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data(#"{"logLevel": "trace", "drainTimeoutSeconds": 2}"#.utf8).write(to: directory.appendingPathComponent("service.json"))
    }

    override func tearDown() {
        fake.stop()
        redis = nil
        try? FileManager.default.removeItem(at: directory)
        super.tearDown()
    }

    func testNoCredentialAppearsInAnyOutput() throws {
        // REDIS_PASSWORD, right: Redis is shared; the sentinels' password is set (and unused).
        let shared = try run(["REDIS_URL": "redis://127.0.0.1:\(redis.port)/0", "REDIS_PASSWORD": "pw-env-7Qx9"]) { port in
            XCTAssertTrue(waitUntil(timeout: 10) { self.readyz(port).contains(#""redis":"available""#) }, "AUTH with REDIS_PASSWORD")
        }
        XCTAssertTrue(shared.contains("redis://:***@127.0.0.1"), "the configuration line shows the URL redacted: \(shared)")
        XCTAssertTrue(shared.contains("redis.sentinelPassword=set"), shared)

        // A wrong password, in REDIS_PASSWORD: Redis refuses AUTH, the service says so and carries on.
        let refused = try run(["REDIS_URL": "redis://127.0.0.1:\(redis.port)", "REDIS_PASSWORD": "pw-wrong-8Kd1"]) { port in
            XCTAssertTrue(waitUntil(timeout: 10) { self.readyz(port).contains(#""redis":"unavailable""#) })
        }
        XCTAssertTrue(refused.contains("Redis unavailable"), refused)
        XCTAssertTrue(refused.contains("AUTH"), "the warning says AUTH was refused: \(refused)")

        // The password in the URL, wrong as well (the server's is pw-env-…).
        let inURL = try run(["REDIS_URL": "redis://:pw-url-4Mz2@127.0.0.1:\(redis.port)"]) { port in
            XCTAssertTrue(waitUntil(timeout: 10) { self.readyz(port).contains(#""redis":"unavailable""#) })
        }
        XCTAssertTrue(inURL.contains("AUTH"), inURL)

        // Configurations refused at start (exit 2): a password in both places; an unreadable URL
        // holding one; a password of the wrong type in the file.
        for environment in [
            ["REDIS_URL": "redis://:pw-url-4Mz2@127.0.0.1:1", "REDIS_PASSWORD": "pw-env-7Qx9"],
            ["REDIS_URL": "redis://:pw-url-4Mz2@127.0.0.1:1/notanumber"],
            ["REDIS_URL": "rediss://:pw-url-4Mz2@127.0.0.1:1"],
        ] {
            let child = try start(environment, arguments: [])
            XCTAssertEqual(child.waitForExit(timeout: 20), 2, child.output)
            XCTAssertTrue(child.output.contains("REDIS_"), child.output)
            seen.append(("refused configuration \(environment.keys.sorted())", child.output))
        }

        XCTAssertGreaterThan(seen.count, 10)
        for (place, text) in seen {
            for secret in secrets + secrets.map(Self.percentEncoded) {
                XCTAssertFalse(text.contains(secret), "\(secret) in \(place): \(text.prefix(2_000))")
            }
        }
    }

    func testNoSentinelCredentialAppearsInAnyOutput() throws {
        let group = try RedisSentinelGroup(password: "pw-env-7Qx9", sentinelPassword: "pw-sentinel-2Hv6")
        let sentinels = group.sentinelAddresses.joined(separator: ",")
        let followed = try run(["REDIS_SENTINELS": sentinels, "REDIS_PASSWORD": "pw-env-7Qx9"]) { port in
            XCTAssertTrue(waitUntil(timeout: 10) {
                let ready = self.readyz(port)
                return ready.contains(#""redis":"available""#) && ready.contains(#""redisMaster":"known""#)
            }, "AUTH to the sentinels and to the master they named")
        }
        XCTAssertTrue(followed.contains("Redis master named by the sentinels"), followed)
        // A wrong sentinel password: no sentinel names the master, and the log says why.
        let refusedBySentinels = try run([
            "REDIS_SENTINELS": sentinels, "REDIS_PASSWORD": "pw-env-7Qx9", "REDIS_SENTINEL_PASSWORD": "pw-wrong-8Kd1",
        ]) { port in
            XCTAssertTrue(waitUntil(timeout: 10) { self.readyz(port).contains(#""redisMaster":"unknown""#) })
            XCTAssertTrue(waitUntil(timeout: 10) {
                (try? Cluster.get("/metrics", port: port).text.contains(#"redis_errors_total{kind="sentinel"}"#)) == true
            })
        }
        XCTAssertTrue(refusedBySentinels.contains("a Redis sentinel could not be asked"), refusedBySentinels)
        XCTAssertTrue(refusedBySentinels.contains("WRONGPASS"), "the sentinel's reason: \(refusedBySentinels)")
        let refused = try start(["REDIS_SENTINELS": sentinels, "REDIS_URL": "redis://:pw-url-4Mz2@127.0.0.1:1"], arguments: [])
        XCTAssertEqual(refused.waitForExit(timeout: 20), 2, refused.output)
        seen.append(("refused configuration", refused.output))
        for (place, text) in seen {
            for secret in secrets + secrets.map(Self.percentEncoded) {
                XCTAssertFalse(text.contains(secret), "\(secret) in \(place): \(text.prefix(2_000))")
            }
        }
    }

    /// Starts the binary with `environment` (and the sentinels' password and the token), lets
    /// `body` check it, fetches every page a client or a monitor would, stops it with SIGTERM and
    /// returns its log.
    private func run(_ environment: [String: String], _ body: (UInt16) throws -> Void) throws -> String {
        let child = try start(environment, arguments: ["--port", "0", "--host", "127.0.0.1"])
        let portText = child.waitForMatch(#"listening on http://127\.0\.0\.1:(\d+)"#, timeout: 20)
        let port = try XCTUnwrap(portText.flatMap(UInt16.init), "no listening line: \(child.output)")
        try body(port)
        for path in ["/readyz", "/healthz", "/metrics", "/api/users/heckj", "/api/users/nobody", "/openapi.json", "/nope"] {
            let response = try TestHTTPClient(port: port)
                .request("GET \(path) HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
            seen.append(("\(path) headers", response.headers.map { "\($0.name): \($0.value)" }.joined(separator: "\n")))
            seen.append(("\(path) body", response.text))
        }
        child.send(SIGTERM)
        XCTAssertEqual(child.waitForExit(timeout: 15), 0, child.output)
        seen.append(("log", child.output))
        return child.output
    }

    private func start(_ variables: [String: String], arguments: [String]) throws -> ChildProcess {
        var environment = ProcessInfo.processInfo.environment
        for name in ["HOST", "PORT", "THROTTLE_MS", "TRUSTED_PROXIES", "ALLOWED_ORIGINS", "CONFIG_FILE", "REDIS_URL",
                     "REDIS_PASSWORD", "REDIS_SENTINELS", "REDIS_MASTER_NAME"] {
            environment[name] = nil
        }
        environment["GITHUB_TOKEN"] = "ghp_redisSecrecyToken99"
        environment["GITHUB_API_URL"] = fakeURL.absoluteString
        environment["REDIS_SENTINEL_PASSWORD"] = "pw-sentinel-2Hv6"
        environment.merge(variables) { _, new in new }
        return try ChildProcess(try ChildProcess.requiredProduct("ServiceApp"), arguments, environment: environment, directory: directory)
    }

    private func readyz(_ port: UInt16) -> String {
        (try? TestHTTPClient(port: port).request("GET /readyz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n").text) ?? ""
    }

    private static func percentEncoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text
    }
}
