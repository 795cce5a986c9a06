import Dispatch
import FakeGithub
import Foundation
import HTTPTestSupport
import Logging
import RemotePipeline
import StreamCore
import XCTest

@testable import ServiceApp

/// Starts a FakeGithub and a `Service` pointed at it, in-process on loopback port 0, and stops
/// both after the test. The service runs on real time with a throttle window of 0: the time
/// logic under test is the client's own pipeline, on a virtual scheduler.
class RemotePipelineTestCase: XCTestCase {
    var fake: FakeGithub!
    var fakeURL: URL!
    var service: Service?
    var port: UInt16 = 0

    override func setUpWithError() throws {
        try super.setUpWithError()
        fake = FakeGithub()
        fakeURL = try fake.start()
    }

    override func tearDown() {
        stopService()
        fake.stop()
        super.tearDown()
    }

    @discardableResult
    func startService(configure: (inout ServiceConfig) -> Void = { _ in }) throws -> Service {
        var config = ServiceConfig()
        config.host = "127.0.0.1"
        config.port = 0
        config.githubAPIURL = fakeURL
        config.throttle = .zero
        config.drainTimeout = .seconds(3)
        config.logLevel = .warning
        configure(&config)
        var logger = Logger(label: "remote-pipeline-tests")
        logger.logLevel = .warning
        let service = Service(config: config, logger: logger)
        port = try service.start().port
        self.service = service
        return service
    }

    /// Shuts the service down and waits for it.
    func stopService() {
        guard let service else { return }
        let done = DispatchSemaphore(value: 0)
        service.shutdown { done.signal() }
        _ = done.wait(timeout: .now() + 15)
        self.service = nil
    }

    var url: URL { URL(string: "ws://127.0.0.1:\(port)/ws/pipelines")! }

    /// The value of an unlabelled metric in `/metrics` (0 when absent).
    func metric(_ name: String) throws -> Double {
        let client = try TestHTTPClient(port: port, timeout: 15)
        let text = try client.request("GET /metrics HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n").text
        let line = text.split(separator: "\n").first { $0.hasPrefix(name + " ") }
        return line.flatMap { Double($0.split(separator: " ").last ?? "") } ?? 0
    }
}

/// A subscriber that records what it gets and asks for exactly the demand the test gives it.
final class EventRecorder: Subscriber, @unchecked Sendable {
    // Sendable: every field is guarded by `lock`.
    typealias Input = RemoteEvent
    typealias Failure = RemotePipelineError

    private let lock = NSLock()
    private let initialDemand: Subscribers.Demand
    private var subscription: Subscription?
    private var received: [RemoteEvent] = []
    private var ended: Subscribers.Completion<RemotePipelineError>?

    init(demand: Subscribers.Demand = .unlimited) { initialDemand = demand }

    var events: [RemoteEvent] { lock.withLock { received } }
    var completion: Subscribers.Completion<RemotePipelineError>? { lock.withLock { ended } }

    func receive(subscription: Subscription) {
        lock.withLock { self.subscription = subscription }
        if initialDemand > .none { subscription.request(initialDemand) }
    }

    func receive(_ input: RemoteEvent) -> Subscribers.Demand {
        lock.withLock { received.append(input) }
        return .none
    }

    func receive(completion: Subscribers.Completion<RemotePipelineError>) {
        lock.withLock { ended = completion }
    }

    func request(_ demand: Subscribers.Demand) { lock.withLock { subscription }?.request(demand) }
    func cancel() { lock.withLock { subscription }?.cancel() }

    /// Waits (generously) until an event matches; returns it.
    @discardableResult
    func waitFor(timeout: TimeInterval = 10, file: StaticString = #filePath, line: UInt = #line,
                 _ match: (RemoteEvent) -> Bool) -> RemoteEvent? {
        var found: RemoteEvent?
        let ok = waitUntil(timeout: timeout) {
            found = events.first(where: match)
            return found != nil
        }
        if !ok { XCTFail("no matching event in \(events), completion \(String(describing: completion))", file: file, line: line) }
        return found
    }

    /// Waits until the publisher completes; returns the completion.
    func waitForCompletion(timeout: TimeInterval = 10) -> Subscribers.Completion<RemotePipelineError>? {
        _ = waitUntil(timeout: timeout) { completion != nil }
        return completion
    }
}
