import HTTPTestSupport
import Dispatch
import FakeGithub
import Foundation
import Logging
import StreamCore
import XCTest

@testable import ServiceApp

/// Starts a FakeGithub and a `Service` pointed at it, both on loopback port 0, and stops both
/// after the test. `startService` takes the scheduler: a `TestScheduler` makes throttle windows
/// and retry delays virtual (lookups stay real HTTP to the fake).
class EndToEndTestCase: XCTestCase {
    var fake: FakeGithub!
    var fakeURL: URL!
    var service: Service?
    var port: UInt16 = 0
    /// The virtual clock of `startVirtualService`.
    var scheduler: TestSchedulerOf<DispatchQueue>!

    override func setUpWithError() throws {
        try super.setUpWithError()
        fake = FakeGithub()
        fakeURL = try fake.start()
    }

    override func tearDown() {
        if let service {
            let done = DispatchSemaphore(value: 0)
            service.shutdown { done.signal() }
            _ = done.wait(timeout: .now() + 15)
        }
        service = nil
        fake.stop()
        super.tearDown()
    }

    /// A configuration for loopback, pointed at the fake, with a short drain.
    func config(configure: (inout ServiceConfig) -> Void = { _ in }) -> ServiceConfig {
        var config = ServiceConfig()
        config.host = "127.0.0.1"
        config.port = 0
        config.githubAPIURL = fakeURL
        config.drainTimeout = .seconds(3)
        config.logLevel = .warning
        configure(&config)
        return config
    }

    static var logger: Logger {
        var logger = Logger(label: "e2e")
        logger.logLevel = .warning
        return logger
    }

    /// Starts the service on real time.
    @discardableResult
    func startService(configure: (inout ServiceConfig) -> Void = { _ in }) throws -> Service {
        try start(Service(config: config(configure: configure), logger: Self.logger))
    }

    /// Starts the service on `scheduler`, a fresh `TestScheduler`.
    @discardableResult
    func startVirtualService(configure: (inout ServiceConfig) -> Void = { _ in }) throws -> Service {
        let scheduler = DispatchQueue.test
        self.scheduler = scheduler
        return try start(Service(
            config: config(configure: configure), logger: Self.logger, scheduler: scheduler.eraseToAnyScheduler()
        ))
    }

    private func start(_ service: Service) throws -> Service {
        let address = try service.start()
        self.service = service
        port = address.port
        return service
    }

    /// A new `/ws` client (its `hello` already read).
    func connect(_ path: String = "/ws") throws -> EventClient { try EventClient(port: port, path: path) }

    /// One request on a new connection.
    func get(_ path: String, headers: String = "", method: String = "GET") throws -> TestResponse {
        let client = try TestHTTPClient(port: port, timeout: 15)
        return try client.request("\(method) \(path) HTTP/1.1\r\nHost: localhost\r\n\(headers)Connection: close\r\n\r\n")
    }

    /// The value of an unlabelled metric in `/metrics` (0 when absent).
    func metric(_ name: String) throws -> Double {
        let text = try get("/metrics").text
        let line = text.split(separator: "\n").first { $0.hasPrefix(name + " ") }
        return line.flatMap { Double($0.split(separator: " ").last ?? "") } ?? 0
    }

    /// `websocket_sessions_total` of `/metrics` by path: the sessions each endpoint has accepted.
    func webSocketSessions() throws -> [String: Int] {
        var sessions: [String: Int] = [:]
        for line in try get("/metrics").text.split(separator: "\n") where line.hasPrefix("websocket_sessions_total{path=\"") {
            let path = line.dropFirst("websocket_sessions_total{path=\"".count).prefix { $0 != "\"" }
            sessions[String(path)] = Int(Double(line.split(separator: " ").last ?? "") ?? 0)
        }
        return sessions
    }

    /// Runs `body`, then asserts that meanwhile the service accepted exactly one WebSocket
    /// session, on `/ws/pipelines`, and none on any other endpoint.
    func assertOneMultiplexedSocket<T>(
        file: StaticString = #filePath, line: UInt = #line, during body: () throws -> T
    ) throws -> T {
        let before = try webSocketSessions()
        let result = try body()
        let after = try webSocketSessions()
        var opened: [String: Int] = [:]
        for (path, count) in after where count != before[path, default: 0] { opened[path] = count - before[path, default: 0] }
        XCTAssertEqual(opened, ["/ws/pipelines": 1], "WebSocket sessions accepted, by path", file: file, line: line)
        return result
    }

    /// Waits until the process-wide `/ws/pipelines` gauges are back to 0: an earlier test's
    /// connections are torn down on their own queues a moment after its service stopped.
    func waitForIdleMultiplexers(file: StaticString = #filePath, line: UInt = #line) {
        let idle = waitUntil(timeout: 5) {
            (try? self.metric("mux_subscriptions")) == 0 && (try? self.metric("mux_events_held")) == 0
        }
        XCTAssertTrue(idle, "an earlier test's subscriptions never ended", file: file, line: line)
    }

    // MARK: Virtual time

    /// Types `value` after a pause longer than the throttle window: sends it, waits until the
    /// server has taken it (barrier), then moves the virtual clock past the window, which lets
    /// the throttle emit it and starts its lookup.
    func type(_ value: String, on client: EventClient, window: Int = 500) throws {
        try client.input(value)
        try client.barrier()
        scheduler.advance(by: .milliseconds(window + 100))
    }

    /// Reads events until `match`, moving the virtual clock a second forward whenever something
    /// is scheduled on it (retry delays), so retries run without real waiting.
    @discardableResult
    func pump(_ client: EventClient, timeout: TimeInterval = 20, until match: (WireEvent) -> Bool) throws -> WireEvent {
        let deadline = Date().addingTimeInterval(timeout)
        while deadline.timeIntervalSinceNow > 0 {
            if scheduler.pendingCount > 0 { scheduler.advance(by: .seconds(1)) }
            do {
                let event = try client.next(timeout: 0.05)
                if match(event) { return event }
            } catch TestClientError.timedOut {
                continue
            }
        }
        throw TestClientError.timedOut
    }

    /// The logins the fake was asked for, in order.
    var upstreamLogins: [String] { fake.requests.compactMap(\.login) }
}
