import Dispatch
import FakeGithub
import Foundation
import GithubProxy
import HTTPTestSupport
import Locking
import PipelineWire
@testable import ServiceApp
import StreamCore
import XCTest

/// A composed pipeline on virtual time: what each operator does to the typed values, and that
/// nothing a definition within the limits asks for costs more than the limits allow.
final class ComposedPipelineTests: EndToEndTestCase {
    private var client: GithubClient!
    private let events = Box<[String]>([])

    override func setUpWithError() throws {
        try super.setUpWithError()
        client = GithubClient(configuration: .init(baseURL: fakeURL))
        scheduler = DispatchQueue.test
    }

    private func start(_ stages: [ComposedStage], limits: ComposerLimits = ComposerLimits()) throws -> PipelineInstance {
        let definition = PipelineDefinition(stages: stages)
        try definition.validate(limits: limits)
        let events = self.events
        return ComposedInstance.start(
            definition: definition, limits: limits, client: client, searchPerPage: 10,
            scheduler: scheduler.eraseToAnyScheduler(), quota: nil,
            output: PipelineInstance.Output(event: { event in events.mutate { $0.append(event) } }, trace: nil)
        )
    }

    /// The events after the `hello`.
    private var written: [String] { Array(events.value.dropFirst()) }

    func testTheHelloCarriesTheNormalisedDefinition() throws {
        let instance = try start([.throttle(ms: 500, latest: true), .map(.uppercased)])
        defer { instance.cancel() }
        XCTAssertEqual(events.value.first,
                       #"{"pipeline":"composed","stages":[{"latest":true,"ms":500,"op":"throttle"},{"fn":"uppercased","op":"map"}],"type":"hello"}"#)
    }

    func testValuesFlowThroughTheStagesAsJSON() throws {
        let instance = try start([.map(.trimmed), .filter(minLength: 2, maxLength: nil, prefix: nil), .map(.count), .collect(.count(2))])
        defer { instance.cancel() }
        for value in [" a ", "abc", "  hello  ", "xy"] { instance.receive(value) }
        XCTAssertEqual(written, [#"{"type":"value","value":[3,5]}"#])
    }

    func testDebounceAndScanJoinedOnVirtualTime() throws {
        let instance = try start([.debounce(ms: 300), .scan(.joined(separator: "|"))])
        defer { instance.cancel() }
        instance.receive("a")
        scheduler.advance(by: .milliseconds(100))
        instance.receive("ab")
        scheduler.advance(by: .milliseconds(299))
        XCTAssertEqual(written, [])
        scheduler.advance(by: .milliseconds(1))
        instance.receive(#"{"type":"input","value":"c"}"#)
        scheduler.advance(by: .milliseconds(300))
        XCTAssertEqual(written, [#"{"type":"value","value":"ab"}"#, #"{"type":"value","value":"ab|c"}"#])
    }

    func testPrependScanCountAndUnreadableFrames() throws {
        let instance = try start([.prepend(.string("start")), .scan(.count)])
        defer { instance.cancel() }
        instance.receive(#"{"type":"nonsense"}"#)
        instance.receive("x")
        XCTAssertEqual(written, [
            #"{"type":"value","value":1}"#,
            #"{"code":"bad_message","message":"unknown message type \"nonsense\"","type":"error"}"#,
            #"{"type":"value","value":2}"#,
        ])
    }

    func testAnInputLongerThanTheLimitIsRefusedAndNotSent() throws {
        let instance = try start([.map(.count)], limits: ComposerLimits(maxStringLength: 4))
        defer { instance.cancel() }
        instance.receive("abcde")
        instance.receive("abcd")
        XCTAssertEqual(written, [
            #"{"code":"bad_message","message":"an input value may have at most 4 characters","type":"error"}"#,
            #"{"type":"value","value":4}"#,
        ])
    }

    func testALookupFollowedByMapLoginFeedsASecondLookup() throws {
        let instance = try start([.lookup(.githubSearch, flatten: .switchToLatest), .map(.login), .lookup(.githubUser, flatten: .concat)])
        defer { instance.cancel() }
        instance.receive("heck")
        XCTAssertTrue(waitUntil(timeout: 10) { self.written.contains { $0.contains(#""type":"result""#) } }, "\(written)")
        let result = try XCTUnwrap(written.first { $0.contains(#""type":"result""#) })
        XCTAssertTrue(result.contains(#""status":"found""#), result)
    }

    /// `retry` after a lookup subscribes to the failed lookup again: a new request (here with the
    /// client's own retry policy off, so each failure reaches the stage).
    func testRetryAfterALookupRequestsItAgain() throws {
        client = GithubClient(configuration: .init(baseURL: client.configuration.baseURL, retry: RetryPolicy(maxRetries: 0)))
        fake.script("heckj", .status(503), .status(503))
        let once = try start([.lookup(.githubUser, flatten: .switchToLatest)])
        once.receive("heckj")
        XCTAssertTrue(waitUntil(timeout: 10) { self.written.contains { $0.contains(#""status":"unavailable""#) } }, "\(written)")
        once.cancel()
        events.mutate { $0 = [] }
        fake.script("heckj", .status(503))
        let retried = try start([.lookup(.githubUser, flatten: .switchToLatest), .retry(times: 2)])
        defer { retried.cancel() }
        retried.receive("heckj")
        XCTAssertTrue(waitUntil(timeout: 10) { self.written.contains { $0.contains(#""status":"found""#) } }, "\(written)")
        XCTAssertEqual(fake.requestCount(for: "heckj"), 4, "1 failed without the stage; then 2 failed and the second retry answered")
    }

    /// `concat`: one lookup at a time, every value looked up in order — those typed while one
    /// runs wait their turn (where `flatMap` with one publisher would drop them).
    func testConcatLooksEveryValueUpInOrder() throws {
        let logins = ["slow-a", "slow-b", "slow-c"]
        for login in logins { fake.setFault(.delay(.milliseconds(300)), for: login) }
        let instance = try start([.lookup(.githubUser, flatten: .concat)])
        defer { instance.cancel() }
        for login in logins { instance.receive(login) }
        XCTAssertTrue(waitUntil(timeout: 10) { self.written.filter { $0.contains(#""type":"result""#) }.count == 3 }, "\(written)")
        let queries = written.filter { $0.contains(#""type":"result""#) }.compactMap { event in logins.first { event.contains("\"query\":\"\($0)\"") } }
        XCTAssertEqual(queries, logins)
        XCTAssertEqual(logins.map { fake.requestCount(for: $0) }, [1, 1, 1])
    }

    // MARK: The limits hold

    /// Eight `delay` stages at the longest `ms`, fed far faster than they drain: each holds at
    /// most `maxCount` values, so the timers pending never exceed stages × maxCount.
    func testDelaysHoldAtMostMaxCountValuesEach() throws {
        let limits = ComposerLimits(maxCount: 10)
        let instance = try start(Array(repeating: .delay(ms: limits.maxMs), count: limits.maxStages), limits: limits)
        defer { instance.cancel() }
        for index in 0..<1_000 {
            instance.receive("v\(index)")
            scheduler.advance(by: .milliseconds(1))
        }
        XCTAssertLessThanOrEqual(scheduler.pendingCount, limits.maxStages * limits.maxCount)
        scheduler.advance(by: .seconds(100))
        XCTAssertEqual(scheduler.pendingCount, 0)
        XCTAssertFalse(written.isEmpty)
        XCTAssertLessThanOrEqual(written.count, 1_000)
    }

    /// `scan` `joined` keeps the last `maxCount` strings, so its value stays bounded however long
    /// the client types; a `collect` by time closes a group at `maxCount` values.
    func testScanJoinedAndCollectByTimeStayBounded() throws {
        let limits = ComposerLimits(maxCount: 5)
        let joined = try start([.scan(.joined(separator: ",")), .collect(.ms(limits.maxMs))], limits: limits)
        defer { joined.cancel() }
        for index in 0..<100 { joined.receive("\(index % 10)") }
        let values = written.map { $0.replacingOccurrences(of: #"{"type":"value","value":"#, with: "") }
        XCTAssertEqual(values.count, 20, "groups of 5")
        XCTAssertEqual(values.last, #"["1,2,3,4,5","2,3,4,5,6","3,4,5,6,7","4,5,6,7,8","5,6,7,8,9"]}"#)
    }

    /// A `flatMap` lookup has at most `maxPublishers` requests in flight: the values typed while
    /// both are busy find no demand and are dropped (the book's lesson on flatMap's back-pressure).
    func testFlatMapLookupsInFlightStayWithinMaxPublishers() throws {
        let logins = ["slow-a", "slow-b", "slow-c", "slow-d"]
        for login in logins { fake.setFault(.delay(.milliseconds(1_000)), for: login) }
        let instance = try start([.lookup(.githubUser, flatten: .flatMap(maxPublishers: 2))])
        defer { instance.cancel() }
        for login in logins { instance.receive(login) }
        XCTAssertTrue(waitUntil(timeout: 10) { self.written.filter { $0.contains(#""type":"result""#) }.count == 2 }, "\(written)")
        XCTAssertEqual(logins.map { fake.requestCount(for: $0) }, [1, 1, 0, 0])
    }
}
