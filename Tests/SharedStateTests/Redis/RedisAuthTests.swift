import Foundation
import HTTPTestSupport
import SharedState
import XCTest

/// `AUTH` against a real `redis-server --requirepass`: the pool and the landing subscriber
/// authenticate on every new connection; a wrong or missing password fails without the password
/// in the error.
final class RedisAuthTests: XCTestCase {
    private var server: RedisServerProcess!

    override func setUpWithError() throws {
        try super.setUpWithError()
        server = try RedisServerProcess(arguments: ["--requirepass", "s3cret"])
    }

    override func tearDown() {
        server = nil
        super.tearDown()
    }

    private func configuration(username: String? = nil, password: String?) -> RedisClient.Configuration {
        .init(port: Int(server.port), database: 1, username: username, password: password, poolSize: 1, timeout: .milliseconds(300))
    }

    func testThePasswordOpensEveryConnection() throws {
        for username in [nil, "default"] {
            let client = RedisClient(configuration: configuration(username: username, password: "s3cret"))
            XCTAssertEqual(try client.runAndWait(["SET", "k", "v"]).get(), .status("OK"), username ?? "no user")
            XCTAssertEqual(try client.runAndWait(["GET", "k"]).get().text, "v")
            // A new connection, after another client had the server close this one, authenticates
            // again (and selects database 1 after that).
            let other = RedisClient(configuration: configuration(password: "s3cret"))
            XCTAssertEqual(try other.runAndWait(["CLIENT", "KILL", "TYPE", "normal"]).get(), .integer(1))
            XCTAssertTrue(waitUntil { (try? client.runAndWait(["GET", "k"]).get().text) == "v" }, "reconnected and authenticated")
        }
    }

    func testAWrongOrMissingPasswordFailsWithoutShowingIt() {
        let wrong = RedisClient(configuration: configuration(password: "not-the-password"))
        guard case .failure(.connection(let reason)) = wrong.runAndWait(["GET", "k"]) else {
            return XCTFail("a wrong password must fail the connection")
        }
        XCTAssertTrue(reason.hasPrefix("AUTH"), reason)
        XCTAssertFalse(reason.contains("not-the-password"), reason)

        let none = RedisClient(configuration: configuration(password: nil))
        guard case .failure(let error) = none.runAndWait(["GET", "k"]) else { return XCTFail("no password must fail") }
        XCTAssertTrue("\(error)".contains("NOAUTH"), "\(error)")
    }

    func testTheSubscriberAuthenticates() throws {
        let configuration = configuration(password: "s3cret")
        let received = Box<[String]>([])
        let subscriber = RedisSubscriber(configuration: configuration, channel: "landed") { payload in
            received.mutate { $0.append(String(decoding: payload, as: UTF8.self)) }
        }
        defer { subscriber.stop() }
        XCTAssertTrue(waitUntil { subscriber.isSubscribed })
        let client = RedisClient(configuration: configuration)
        XCTAssertEqual(try client.runAndWait(["PUBLISH", "landed", "heckj"]).get(), .integer(1))
        XCTAssertTrue(waitUntil { received.value == ["heckj"] })
    }
}
