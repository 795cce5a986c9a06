import Foundation
import HTTPTestSupport
import SharedState
import XCTest

/// Replicas' shared stores against one `redis-server` of the test's own.
class RedisTestCase: XCTestCase {
    var redis: RedisServerProcess!

    override func setUpWithError() throws {
        try super.setUpWithError()
        redis = try RedisServerProcess()
    }

    override func tearDown() {
        redis = nil
        super.tearDown()
    }

    /// A Redis client of the test's server (one replica's).
    func redisClient(timeout: Duration = .milliseconds(300)) -> RedisClient {
        RedisClient(configuration: .init(port: Int(redis.port), poolSize: 2, timeout: timeout))
    }
}
