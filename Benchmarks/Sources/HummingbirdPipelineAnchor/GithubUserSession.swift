import Dispatch
import Foundation
import OpenCombine
import OpenCombineDispatch

/// The seed's GithubViewController pipeline for one `/ws` session, on OpenCombine:
///
/// ```
/// input ─▶ throttle(throttleMs, latest: true) ─▶ removeDuplicates ─▶ map(retrieveGithubUser)
///       ─▶ switchToLatest ─▶ result events
/// network activity ─▶ activity events
/// ```
///
/// Everything runs on the session's serial `queue` (OpenCombineDispatch's scheduler for the
/// throttle, and the queue the lookups deliver on), so the events leave in the seed's order:
/// `activity:true`, `result`, `activity:false` for a found user; `activity:true`,
/// `activity:false`, `result` for a failure (tryMap cancels the request before catch answers).
final class GithubUserSession: @unchecked Sendable {
    // Sendable: `input`, `activity`, `cancellables` and `encoder` are touched only on `queue`.
    private let queue: DispatchQueue
    private let input = PassthroughSubject<String, Never>()
    private let activity = PassthroughSubject<Bool, Never>()
    private var cancellables = Set<AnyCancellable>()
    private let encoder = JSONEncoder()
    private let write: @Sendable (String) -> Void

    /// `write` gets each event as one line of JSON text, in order, from the session's queue.
    init(api: GithubAPI, throttleMs: Int, write: @escaping @Sendable (String) -> Void) {
        queue = DispatchQueue(label: "anchor.session", target: .global())
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        self.write = write
        queue.async { [self] in start(api: api, throttleMs: throttleMs) }
    }

    private func start(api: GithubAPI, throttleMs: Int) {
        activity
            .sink { [unowned self] active in send(ActivityEvent(active: active)) }
            .store(in: &cancellables)
        input
            .throttle(for: .milliseconds(throttleMs), scheduler: queue.ocombine, latest: true)
            .removeDuplicates()
            .map { [activity, queue] username in
                api.retrieveGithubUser(username: username, activity: activity, queue: queue)
            }
            .switchToLatest()
            .sink { [unowned self] result in
                send(ResultEvent(query: result.query, status: result.status, users: result.users))
            }
            .store(in: &cancellables)
    }

    /// One text frame from the client: `{"type":"input","value":…}` or the value itself (one
    /// trailing newline removed); any other frame starting with `{` is answered `bad_message`.
    func receive(_ text: String) {
        queue.async { [self] in
            switch ClientFrame(text) {
            case .input(let value): input.send(value)
            case .unreadable(let message): send(ErrorEvent(code: "bad_message", message: message))
            }
        }
    }

    /// Tears the pipeline down: a lookup in flight is cancelled upstream; nothing more is written.
    func cancel() {
        queue.async { [self] in cancellables.removeAll() }
    }

    private func send(_ event: some Encodable) {
        guard let data = try? encoder.encode(event) else { return }
        write(String(decoding: data, as: UTF8.self))
    }
}

/// The events of docs/protocol.md's `/ws` (keys sorted when encoded).
struct HelloEvent: Encodable {
    var type = "hello"
    var pipeline = "github-user"
    var throttleMs: Int
    var minLength: Int
}

struct ActivityEvent: Encodable {
    var type = "activity"
    var active: Bool
}

struct ResultEvent: Encodable {
    var type = "result"
    var query: String
    var status: String
    var users: [GithubUser]
}

struct ErrorEvent: Encodable {
    var type = "error"
    var code: String
    var message: String
}

/// A client frame of `/ws`.
enum ClientFrame {
    case input(String)
    case unreadable(String)

    private struct Input: Decodable {
        var type: String
        var value: String
    }

    init(_ text: String) {
        if text.hasPrefix("{") {
            guard let frame = try? JSONDecoder().decode(Input.self, from: Data(text.utf8)), frame.type == "input" else {
                self = .unreadable("expected {\"type\":\"input\",\"value\":\"…\"} or plain text")
                return
            }
            self = .input(frame.value)
        } else if text.last == "\n" || text.last == "\r\n" {
            // "\r\n" is one Character: either way one is dropped.
            self = .input(String(text.dropLast()))
        } else {
            self = .input(text)
        }
    }
}
