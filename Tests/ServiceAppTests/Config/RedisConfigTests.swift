import SharedState
import XCTest

@testable import ServiceApp

/// `redis.url` (`--redis-url`, `REDIS_URL`), `redis.poolSize`, `redis.timeoutMs`, `redis.flightWaitMs`.
final class RedisConfigTests: XCTestCase {
    func testNoURLMeansNoRedis() throws {
        XCTAssertNil(try FakeFiles.resolve().redis.client)
    }

    func testFlagEnvironmentAndFile() throws {
        let file = #"{"redis": {"url": "redis://file:1/1", "poolSize": 8, "timeoutMs": 100, "flightWaitMs": 1500}}"#
        XCTAssertEqual(try FakeFiles.resolve(file: file).redis.flightWait, .milliseconds(1_500))
        XCTAssertEqual(try FakeFiles.resolve().redis.flightWait, .seconds(5), "the default")
        let fromFile = try XCTUnwrap(try FakeFiles.resolve(file: file).redis.client)
        XCTAssertEqual(fromFile, .init(host: "file", port: 1, database: 1, poolSize: 8, timeout: .milliseconds(100)))
        let fromEnvironment = try FakeFiles.resolve(file: file, environment: ["REDIS_URL": "redis://env:2"]).redis.client
        XCTAssertEqual(fromEnvironment?.host, "env")
        XCTAssertEqual(fromEnvironment?.poolSize, 8, "the pool size still comes from the file")
        let fromFlag = try FakeFiles.resolve(file: file, flags: [.redisUrl: "redis://flag"], environment: ["REDIS_URL": "redis://env:2"])
        XCTAssertEqual(fromFlag.redis.client?.host, "flag")
        XCTAssertEqual(fromFlag.redis.client?.port, 6379)
    }

    func testAnUnreadableURLIsAnError() {
        for bad in ["http://x", "redis://user@host", "redis://host/db", "rediss://host"] {
            XCTAssertThrowsError(try FakeFiles.resolve(environment: ["REDIS_URL": bad]), bad) { error in
                XCTAssertTrue("\(error)".contains("REDIS_URL"), "\(error)")
            }
        }
    }

    func testAPasswordIsReadButNeverShown() throws {
        let config = try FakeFiles.resolve(environment: ["REDIS_URL": "redis://alice:s3cret@cache:6380/2"])
        XCTAssertEqual(config.redis.client?.password, "s3cret")
        XCTAssertEqual(config.redis.client?.username, "alice")
        XCTAssertFalse("\(config)\(config.logMetadata)".contains("s3cret"), "the settings the service logs at start")
        XCTAssertTrue("\(config.logMetadata)".contains("redis://alice:***@cache:6380/2"))
        XCTAssertThrowsError(try FakeFiles.resolve(environment: ["REDIS_URL": "redis://:s3cret@cache/notanumber"])) { error in
            XCTAssertFalse("\(error)".contains("s3cret"), "\(error)")
        }
    }

    func testREDIS_PASSWORDIsThePasswordWhenTheURLHasNone() throws {
        let config = try FakeFiles.resolve(environment: ["REDIS_URL": "redis://cache:6380/2", "REDIS_PASSWORD": "s3cret"])
        XCTAssertEqual(config.redis.client?.password, "s3cret")
        XCTAssertEqual(config.redis.client?.username, nil)
        let withUser = try FakeFiles.resolve(environment: ["REDIS_URL": "redis://alice@cache", "REDIS_PASSWORD": "s3cret"])
        XCTAssertEqual(withUser.redis.client?.username, "alice", "a user in the URL, its password from REDIS_PASSWORD")
        XCTAssertEqual(withUser.redis.client?.password, "s3cret")
        let fromFile = try FakeFiles.resolve(file: #"{"redis": {"url": "redis://cache", "password": "filepw"}}"#)
        XCTAssertEqual(fromFile.redis.client?.password, "filepw")
        XCTAssertNil(try FakeFiles.resolve(file: #"{"redis": {"url": "redis://cache", "password": ""}}"#).redis.client?.password)
        for shown in ["\(config)", "\(config.logMetadata)", "\(String(reflecting: config))", "\(dumped(config))"] {
            XCTAssertFalse(shown.contains("s3cret"), shown)
        }
        XCTAssertTrue("\(config.logMetadata)".contains("redis://:***@cache:6380/2"))
    }

    func testAPasswordInBothPlacesIsAnErrorThatShowsNeither() {
        let environment = ["REDIS_URL": "redis://:inurl@cache", "REDIS_PASSWORD": "inenv"]
        XCTAssertThrowsError(try FakeFiles.resolve(environment: environment)) { error in
            XCTAssertTrue("\(error)".contains("REDIS_PASSWORD"), "\(error)")
            XCTAssertFalse("\(error)".contains("inurl") || "\(error)".contains("inenv"), "\(error)")
        }
        XCTAssertEqual(
            try FakeFiles.resolve(environment: ["REDIS_URL": "redis://:same@cache", "REDIS_PASSWORD": "same"]).redis.client?.password,
            "same", "the same password twice is no conflict")
    }

    func testTheSentinelPasswordIsReadAndShownOnlyAsSet() throws {
        let config = try FakeFiles.resolve(environment: ["REDIS_SENTINEL_PASSWORD": "sentinel-s3cret"])
        XCTAssertEqual(config.redis.sentinelPassword, "sentinel-s3cret")
        XCTAssertFalse("\(config)\(config.logMetadata)\(dumped(config))".contains("sentinel-s3cret"))
        XCTAssertTrue("\(config)".contains("redis.sentinelPassword=set"), "\(config)")
        XCTAssertTrue("\(try FakeFiles.resolve())".contains("redis.sentinelPassword=unset"))
        let fromFile = try FakeFiles.resolve(file: #"{"redis": {"sentinelPassword": "f"}}"#)
        XCTAssertEqual(fromFile.redis.sentinelPassword, "f")
    }

    func testSecretValuesAreMarkedSecretInEveryLayerAndNeverRepeatedInErrors() throws {
        for key in [ConfigKey.redisUrl, .redisPassword, .redisSentinelPassword] {
            XCTAssertTrue(key.isSecret, key.rawValue)
        }
        // A wrong type in the file: the message names the key, never the value.
        for key in ["password", "sentinelPassword"] {
            XCTAssertThrowsError(try FakeFiles.resolve(file: #"{"redis": {"\#(key)": ["pw-in-a-list"]}}"#)) { error in
                XCTAssertTrue("\(error)".contains("redis.\(key)"), "\(error)")
                XCTAssertFalse("\(error)".contains("pw-in-a-list"), "\(error)")
            }
        }
    }

    func testSentinelsAndTheMasterName() throws {
        let config = try FakeFiles.resolve(environment: [
            "REDIS_SENTINELS": "127.0.0.1:26379, sentinel-1:26380", "REDIS_MASTER_NAME": "cache", "REDIS_PASSWORD": "pw",
            "REDIS_SENTINEL_PASSWORD": "spw",
        ])
        let client = try XCTUnwrap(config.redis.client)
        XCTAssertEqual(client.password, "pw")
        XCTAssertEqual(client.sentinels, RedisSentinels(
            addresses: [RedisAddress(host: "127.0.0.1", port: 26_379), RedisAddress(host: "sentinel-1", port: 26_380)],
            masterName: "cache", password: "spw"))
        XCTAssertEqual("\(client)", "redis://:***@<master of sentinels 127.0.0.1:26379,sentinel-1:26380 master cache (sentinel password set)>/0")
        XCTAssertFalse("\(config)\(dumped(config))".contains("spw"))
        XCTAssertTrue("\(config)".contains("redis.sentinels=127.0.0.1:26379,sentinel-1:26380"), "\(config)")
        let fromFile = try FakeFiles.resolve(file: #"{"redis": {"sentinels": ["s:26379"], "pingIntervalMs": 700}}"#)
        XCTAssertEqual(fromFile.redis.client?.sentinels?.masterName, "mymaster", "the default name, as in Debian's sentinel.conf")
        XCTAssertEqual(fromFile.redis.client?.sentinels?.pingInterval, .milliseconds(700))
        XCTAssertEqual(fromFile.redis.client?.pingInterval, .milliseconds(700))
        XCTAssertEqual(try FakeFiles.resolve(file: #"{"redis": {"url": "redis://h", "pingIntervalMs": 900}}"#).redis.client?.pingInterval,
                       .milliseconds(900), "the landing subscriber's too")
    }

    func testSentinelsWithAURLOrUnreadableAreErrors() {
        XCTAssertThrowsError(try FakeFiles.resolve(environment: ["REDIS_SENTINELS": "s:26379", "REDIS_URL": "redis://:pw@host"])) { error in
            XCTAssertTrue("\(error)".contains("REDIS_URL") && "\(error)".contains("not both"), "\(error)")
            XCTAssertFalse("\(error)".contains("pw@"), "\(error)")
        }
        for bad in ["s", "s:0", "s:x", ":26379"] {
            XCTAssertThrowsError(try FakeFiles.resolve(environment: ["REDIS_SENTINELS": bad]), bad) { error in
                XCTAssertTrue("\(error)".contains("REDIS_SENTINELS"), "\(error)")
            }
        }
        XCTAssertThrowsError(try FakeFiles.resolve(environment: ["REDIS_SENTINELS": "s:1", "REDIS_MASTER_NAME": "a b"]))
    }

    private func dumped(_ value: some Any) -> String {
        var text = ""
        dump(value, to: &text)
        return text
    }
}
