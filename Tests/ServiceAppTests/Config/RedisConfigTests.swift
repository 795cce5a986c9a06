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
}
