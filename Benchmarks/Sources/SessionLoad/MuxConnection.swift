import Dispatch
import HTTPServer

/// One `/ws/pipelines` connection carrying the `github-user` subscriptions of several users
/// (`--mux N`), each with unlimited demand, as the pages' pipelines do once their window is
/// open. Confined to its shard's queue.
final class MuxConnection {
    private let connection: ClientConnection
    private let host: String
    private let port: UInt16
    private let path: String
    private var links: [String: MuxLink] = [:]
    private var connecting = false

    init(connection: ClientConnection, host: String, port: UInt16, path: String) {
        self.connection = connection
        self.host = host
        self.port = port
        self.path = path
    }

    /// A new subscription on this connection, named `id`.
    func link(id: String) -> MuxLink {
        let link = MuxLink(id: id, owner: self)
        links[id] = link
        return link
    }

    var isOpen: Bool { connection.phase == .open }

    /// Connects when the first link starts; a link started on an open connection subscribes.
    fileprivate func started(_ link: MuxLink) {
        if connection.phase == .open { return subscribe(link) }
        guard !connecting else { return }
        connecting = true
        connection.onOpen = { [unowned self] in links.values.filter(\.isStarted).forEach(subscribe) }
        connection.onText = { [unowned self] in received($0) }
        connection.onClosed = { [self] expected, why in
            for link in links.values where !link.isClosed { link.ended(expected: expected, why) }
            links.removeAll()  // the links' references to this connection are the ones that remain
        }
        connection.connect(host: host, port: port, path: path)
    }

    private func subscribe(_ link: MuxLink) {
        connection.sendText(Array(#"{"type":"subscribe","id":"\#(link.id)","pipeline":"github-user"}"#.utf8))
    }

    fileprivate func send(_ frame: String) { connection.sendText(Array(frame.utf8)) }

    /// A link was cancelled or aborted: the socket closes once every link has ended.
    fileprivate func linkEnded() {
        guard links.values.allSatisfy(\.isClosed) else { return }
        connection.close(code: .normalClosure)
    }

    /// Routes a server frame by its id. Frames come with sorted keys and no spaces:
    /// `{"event":{…},"id":"u1","type":"event"}`, so an event's inner object is cut out without
    /// parsing it (the ids are this tool's own, with nothing to escape).
    private func received(_ bytes: [UInt8]) {
        if bytes.starts(with: Self.eventPrefix), let idStart = Self.lastIndex(of: Self.idKey, in: bytes) {
            let id = Self.string(from: idStart + Self.idKey.count, in: bytes)
            guard let link = links[id] else { return }
            return link.event(Array(bytes[Self.eventPrefix.count..<idStart]))
        }
        let text = String(decoding: bytes, as: UTF8.self)
        guard let idStart = Self.lastIndex(of: Array(#""id":""#.utf8), in: bytes) else {
            for link in links.values where !link.isClosed { link.ended(expected: false, "frame without id: \(text)") }
            return
        }
        let id = Self.string(from: idStart + 6, in: bytes)
        guard let link = links[id] else { return }
        if text.contains(#""type":"subscribed""#) {
            link.subscribed()
        } else {
            link.ended(expected: false, "server frame \(text)")  // a completion or an error
            linkEnded()
        }
    }

    private static let eventPrefix = Array(#"{"event":"#.utf8)
    private static let idKey = Array(#","id":""#.utf8)

    private static func string(from start: Int, in bytes: [UInt8]) -> String {
        var end = start
        while end < bytes.count, bytes[end] != UInt8(ascii: "\"") { end += 1 }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }

    private static func lastIndex(of needle: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= needle.count else { return nil }
        var index = bytes.count - needle.count
        while index >= 0 {
            if bytes[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index -= 1
        }
        return nil
    }
}

/// One user's `github-user` subscription on a shared `MuxConnection`.
final class MuxLink: SessionLink {
    let id: String
    private let owner: MuxConnection  // the links keep their connection; it lets them go when it closes
    private enum State { case idle, subscribing, open, closed }
    private var state = State.idle
    private var onOpen: () -> Void = {}
    private var onEvent: ([UInt8]) -> Void = { _ in }
    private var onClosed: (Bool, String) -> Void = { _, _ in }

    fileprivate init(id: String, owner: MuxConnection) {
        self.id = id
        self.owner = owner
    }

    var isOpen: Bool { state == .open && owner.isOpen }
    var isClosed: Bool { state == .closed }
    fileprivate var isStarted: Bool { state == .subscribing }

    func start(onOpen: @escaping () -> Void, onEvent: @escaping ([UInt8]) -> Void, onClosed: @escaping (Bool, String) -> Void) {
        self.onOpen = onOpen
        self.onEvent = onEvent
        self.onClosed = onClosed
        state = .subscribing
        owner.started(self)
    }

    func sendInput(_ value: String) {
        guard state == .open else { return }
        owner.send(#"{"type":"send","id":"\#(id)","message":{"type":"input","value":"\#(value)"}}"#)
    }

    /// Cancels the subscription: nothing more comes for it, so it has ended as expected.
    func close() {
        guard state == .open else { return }
        owner.send(#"{"type":"cancel","id":"\#(id)"}"#)
        ended(expected: true, "cancelled")
        owner.linkEnded()
    }

    func abort(_ why: String) {
        guard state != .closed else { return }
        if state == .open { owner.send(#"{"type":"cancel","id":"\#(id)"}"#) }
        ended(expected: false, why)
        owner.linkEnded()
    }

    fileprivate func subscribed() {
        guard state == .subscribing else { return }
        state = .open
        onOpen()
    }

    fileprivate func event(_ bytes: [UInt8]) {
        guard state == .open else { return }
        onEvent(bytes)
    }

    fileprivate func ended(expected: Bool, _ why: String) {
        guard state != .closed else { return }
        state = .closed
        let callback = onClosed
        onOpen = {}
        onEvent = { _ in }
        onClosed = { _, _ in }
        callback(expected, why)
    }
}
