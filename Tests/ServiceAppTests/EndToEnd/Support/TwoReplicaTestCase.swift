import Foundation
import HTTPTestSupport
import SharedState
import XCTest

@testable import ServiceApp

/// Two service replicas pointed at one Redis of the test's own: replica A is the test case's
/// service, replica B a second `Service` in the same process; both are torn down after the test.
class TwoReplicaTestCase: EndToEndTestCase {
    var redis: RedisServerProcess?
    private var replicaB: Service?

    override func tearDown() {
        let done = DispatchSemaphore(value: 0)
        if let replicaB { replicaB.shutdown { done.signal() }; done.wait() }
        redis = nil
        super.tearDown()
    }

    func startRedis() throws -> UInt16 {
        let server = try RedisServerProcess()
        redis = server
        return server.port
    }

    /// Replica A (the test case's service) and replica B, both configured by `configure` and
    /// pointed at a Redis of the test's own; returns that Redis and B's port.
    func startTwoReplicas(
        _ configure: (inout ServiceConfig) -> Void = { _ in }
    ) throws -> (redis: RedisClient.Configuration, portB: UInt16) {
        let redis = RedisClient.Configuration(port: Int(try startRedis()))
        return (redis, try startTwoReplicas(sharing: redis, configure))
    }

    /// Replicas A and B configured by `configure`, sharing through `redis` (a Redis or sentinels
    /// the test started); returns B's port.
    func startTwoReplicas(
        sharing redis: RedisClient.Configuration, _ configure: (inout ServiceConfig) -> Void = { _ in }
    ) throws -> UInt16 {
        let shared: (inout ServiceConfig) -> Void = { config in
            config.redis.client = redis
            configure(&config)
        }
        try startService(configure: shared)
        let b = Service(config: config(configure: shared), logger: Self.logger)
        replicaB = b
        return try b.start().port
    }
}
