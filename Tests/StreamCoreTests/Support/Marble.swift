import Dispatch
import StreamCore
import XCTest

/// Marble diagrams for time-based operators, on virtual time.
///
/// A diagram is a string of frames, one per tick: `-` nothing, a letter or digit is a value
/// (a one-character `String`), `|` finishes, `#` fails with `TestError.boom`, and `(ab)` puts
/// several events in one frame. Spaces are ignored.
///
/// ```swift
/// assertMarbles(
///     input:    "abc---d----",
///     expected: "----c---d",
///     tick: .milliseconds(100)
/// ) { upstream, scheduler in upstream.debounce(for: .milliseconds(200), scheduler: scheduler).eraseToAnyPublisher() }
/// ```
enum Marble {
    enum Event: Equatable {
        case value(String)
        case finished
        case failure
    }

    /// The events of a diagram with their frame numbers.
    static func parse(_ diagram: String) -> [(frame: Int, event: Event)] {
        var result: [(Int, Event)] = []
        var frame = 0
        var inGroup = false
        for character in diagram where character != " " {
            switch character {
            case "(": inGroup = true
            case ")": inGroup = false; frame += 1
            case "-": frame += 1
            case "|": result.append((frame, .finished)); if !inGroup { frame += 1 }
            case "#": result.append((frame, .failure)); if !inGroup { frame += 1 }
            default: result.append((frame, .value(String(character)))); if !inGroup { frame += 1 }
            }
        }
        return result
    }

    /// Draws events (with frame numbers, in arrival order) as a diagram.
    static func render(_ events: [(frame: Int, event: Event)]) -> String {
        guard let last = events.map(\.frame).max() else { return "" }
        var diagram = ""
        for frame in 0...last {
            let here = events.filter { $0.frame == frame }.map { symbol($0.event) }
            switch here.count {
            case 0: diagram += "-"
            case 1: diagram += here[0]
            default: diagram += "(" + here.joined() + ")"
            }
        }
        return diagram
    }

    private static func symbol(_ event: Event) -> String {
        switch event {
        case .value(let value): value
        case .finished: "|"
        case .failure: "#"
        }
    }
}

/// Drives `input` into a subject on a test scheduler, one frame per `tick`, runs `pipeline` on
/// it, and asserts that the output, drawn on the same frames, equals `expected` (trailing `-`
/// ignored). Output that lands between frames fails the assertion.
func assertMarbles(
    input: String,
    expected: String,
    tick: NanosecondStride = .milliseconds(100),
    demand: Subscribers.Demand = .unlimited,
    file: StaticString = #filePath,
    line: UInt = #line,
    _ pipeline: (AnyPublisher<String, TestError>, TestSchedulerOf<DispatchQueue>) -> AnyPublisher<String, TestError>
) {
    let scheduler = DispatchQueue.test
    let start = scheduler.now
    let subject = PassthroughSubject<String, TestError>()
    let recorder = Recorder<String, TestError>(initialDemand: demand, clock: {
        start.distance(to: scheduler.now).magnitude
    })
    pipeline(subject.eraseToAnyPublisher(), scheduler).subscribe(recorder)

    let inputEvents = Marble.parse(input)
    for (frame, event) in inputEvents {
        scheduler.schedule(after: start.advanced(by: .nanoseconds(tick.magnitude * frame))) {
            switch event {
            case .value(let value): subject.send(value)
            case .finished: subject.send(completion: .finished)
            case .failure: subject.send(completion: .failure(.boom))
            }
        }
    }
    let frames = max(input.count, expected.count) + 1
    scheduler.advance(by: .nanoseconds(tick.magnitude * frames))

    var drawn: [(frame: Int, event: Marble.Event)] = []
    for (time, event) in recorder.timeline {
        let marbleEvent: Marble.Event
        switch event {
        case .subscription: continue
        case .value(let value): marbleEvent = .value(value)
        case .completion(.finished): marbleEvent = .finished
        case .completion(.failure): marbleEvent = .failure
        }
        guard time % tick.magnitude == 0 else {
            XCTFail("\(marbleEvent) arrived at \(time) ns, between frames", file: file, line: line)
            continue
        }
        drawn.append((time / tick.magnitude, marbleEvent))
    }
    let trimmed = { (diagram: String) in String(diagram.replacingOccurrences(of: " ", with: "").reversed().drop { $0 == "-" }.reversed()) }
    XCTAssertEqual(Marble.render(drawn), trimmed(expected), "marbles", file: file, line: line)
}
