import Locking
import CHiredis
import Foundation

/// Carries out `MasterDiscovery` on a thread of its own (asking a sentinel blocks, and a
/// subscribed sentinel connection blocks until an announcement comes): asks the sentinels for
/// the master, follows `+switch-master`, and publishes the master through `endpoint`, where the
/// pool's connections and the subscriber look for it. Reports from other threads (a command
/// could not reach the master; stop) wait in an inbox, and a pipe wakes the thread for them.
final class SentinelMonitor: Sendable {
    /// Where the master is now; nil until a sentinel names it.
    let endpoint = RedisEndpoint(nil)
    private let sentinels: RedisSentinels
    private let timeout: Duration
    private let onMasterChange: @Sendable (RedisAddress?) -> Void
    private let onSentinelFailure: @Sendable (RedisAddress, String) -> Void
    private let inbox: Locked<Inbox>
    /// The wake pipe's read end (the write end is the inbox's).
    private let wakeReader: Int32

    private struct Inbox {
        var events: [MasterDiscovery.Event] = []
        /// The wake pipe's write end; -1 once the thread ended and closed it.
        var wakeWriter: Int32
    }

    /// - Parameters:
    ///   - onMasterChange: the master the sentinels named (for the log).
    ///   - onSentinelFailure: a sentinel that could not be asked or followed, and why (for the log
    ///     and the metric; the reason never holds the password).
    init(
        sentinels: RedisSentinels, timeout: Duration, onMasterChange: @escaping @Sendable (RedisAddress?) -> Void,
        onSentinelFailure: @escaping @Sendable (RedisAddress, String) -> Void
    ) {
        self.sentinels = sentinels
        self.timeout = timeout
        self.onMasterChange = onMasterChange
        self.onSentinelFailure = onSentinelFailure
        var fds: [Int32] = [-1, -1]
        if pipe(&fds) == 0 {
            for fd in fds {
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            }
        } else {
            fds = [-1, -1]
        }
        wakeReader = fds[0]
        inbox = Locked(Inbox(wakeWriter: fds[1]))
        endpoint.onConnectionFailure { [weak self] in self?.post(.masterFailed) }
        let thread = Thread { [self] in run() }
        thread.start()
        thread.name = "redis.sentinel"  // after `start`: Foundation on Linux gives the kernel the name of a started thread only
    }

    /// Ends the thread (within a connect or command timeout at most).
    func stop() { post(.stop) }

    /// Hands `event` to the thread and wakes it.
    private func post(_ event: MasterDiscovery.Event) {
        inbox.withLock { inbox in
            guard inbox.wakeWriter >= 0 else { return }
            inbox.events.append(event)
            var byte: UInt8 = 1
            _ = write(inbox.wakeWriter, &byte, 1)
        }
    }

    // MARK: The thread

    private func run() {
        var discovery = MasterDiscovery(sentinels: sentinels.addresses.count)
        var next: MasterDiscovery.Action? = discovery.start.first
        while let action = next, discovery.state != .stopped {
            let outcome = perform(action)
            let reported = inbox.withLock { inbox in
                defer { inbox.events = [] }
                return inbox.events
            }
            for event in (outcome.map { [$0] } ?? []) + reported {
                for followUp in discovery.handle(event) {
                    if case .useMaster(let master) = followUp {
                        endpoint.use(master)
                        onMasterChange(master)
                    } else {
                        next = followUp  // replaces a step that the event made moot
                    }
                }
            }
        }
        inbox.withLock { inbox in
            close(inbox.wakeWriter)
            inbox.wakeWriter = -1
        }
        close(wakeReader)
    }

    /// Carries out one step; returns what came of it, nil when woken by a report instead.
    private func perform(_ action: MasterDiscovery.Action) -> MasterDiscovery.Event? {
        switch action {
        case .ask(let index): ask(sentinels.addresses[index])
        case .follow(let index): follow(sentinels.addresses[index])
        case .rest(let delay): waitForWake(delay) ? nil : .rested
        case .useMaster: nil
        }
    }

    /// `SENTINEL get-master-addr-by-name`.
    private func ask(_ sentinel: RedisAddress) -> MasterDiscovery.Event {
        let context: HiredisContext.Context
        switch connect(sentinel) {
        case .success(let connected): context = connected
        case .failure(let reason): return failed(sentinel, "\(reason)")
        }
        defer { redisFree(context) }
        let command = ["SENTINEL", "get-master-addr-by-name", sentinels.masterName].map { Array($0.utf8) }
        switch HiredisContext.command(context, command) {
        case .success(.array(let parts)) where parts.count == 2:
            guard let host = parts[0].text, let port = parts[1].text.flatMap(Int.init) else {
                return failed(sentinel, "SENTINEL get-master-addr-by-name: an unreadable address")
            }
            return .answered(RedisAddress(host: host, port: port))
        case .success(.null):
            onSentinelFailure(sentinel, "it does not know the master \(sentinels.masterName)")
            return .unknownMaster
        case .success(let reply): return failed(sentinel, "SENTINEL get-master-addr-by-name: unexpected reply \(reply)")
        case .failure(let error): return failed(sentinel, "SENTINEL get-master-addr-by-name: \(error)")
        }
    }

    /// Subscribes to `+switch-master` and waits for an announcement about our master, a broken
    /// or silent connection (a `PING` unanswered for a ping interval), or a wake.
    private func follow(_ sentinel: RedisAddress) -> MasterDiscovery.Event? {
        let context: HiredisContext.Context
        switch connect(sentinel) {
        case .success(let connected): context = connected
        case .failure(let reason): return failed(sentinel, "\(reason)")
        }
        defer { redisFree(context) }
        if case .failure(let error) = HiredisContext.command(context, [Array("SUBSCRIBE".utf8), Array("+switch-master".utf8)]) {
            return failed(sentinel, "SUBSCRIBE +switch-master: \(error)")
        }
        var pinged = false
        while true {
            var raw: UnsafeMutableRawPointer?
            guard redisGetReplyFromReader(context, &raw) == REDIS_OK else { return failed(sentinel, "an unreadable reply") }
            if let raw {
                defer { freeReplyObject(raw) }
                let reply = raw.assumingMemoryBound(to: redisReply.self).pointee
                if let payload = HiredisContext.messagePayload(reply), let master = switchedMaster(payload) { return .switched(master) }
                continue
            }
            var fds = [
                pollfd(fd: context.pointee.fd, events: Int16(POLLIN), revents: 0),
                pollfd(fd: wakeReader, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&fds, 2, Int32(sentinels.pingInterval / .milliseconds(1)))
            if ready > 0 {
                if fds[1].revents != 0 {
                    drainWake()
                    return nil
                }
                guard redisBufferRead(context) == REDIS_OK else { return failed(sentinel, "\(HiredisContext.error(of: context))") }
                pinged = false
            } else if ready == 0 {
                guard !pinged, HiredisContext.ping(context) else { return failed(sentinel, "no answer to PING") }
                pinged = true
            } else if errno != EINTR {
                return failed(sentinel, "poll: errno \(errno)")
            }
        }
    }

    /// `<name> <old-ip> <old-port> <new-ip> <new-port>` about our master: the new address.
    private func switchedMaster(_ payload: [UInt8]) -> RedisAddress? {
        let words = String(decoding: payload, as: UTF8.self).split(separator: " ").map(String.init)
        guard words.count == 5, words[0] == sentinels.masterName, let port = Int(words[4]) else { return nil }
        return RedisAddress(host: words[3], port: port)
    }

    /// Reports why `sentinel` failed; the event that says so.
    private func failed(_ sentinel: RedisAddress, _ reason: String) -> MasterDiscovery.Event {
        onSentinelFailure(sentinel, reason)
        return .sentinelFailed
    }

    /// A connection to `sentinel`, authenticated with the sentinels' password if any; or why not.
    private func connect(_ sentinel: RedisAddress) -> Result<HiredisContext.Context, SentinelFailure> {
        let context: HiredisContext.Context
        switch HiredisContext.connect(sentinel, timeout: timeout) {
        case .success(let made): context = made
        case .failure(let error): return .failure(SentinelFailure("connect: \(error)"))
        }
        if let password = sentinels.password,
           case .failure(let error) = HiredisContext.command(context, [Array("AUTH".utf8), Array(password.utf8)]) {
            redisFree(context)
            return .failure(SentinelFailure("AUTH: \(error)"))  // the sentinel's answer never repeats the password
        }
        return .success(context)
    }

    /// Why a sentinel could not be used (its text goes to the log).
    private struct SentinelFailure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// Waits `delay` or until woken; true when woken.
    private func waitForWake(_ delay: Duration) -> Bool {
        var fd = pollfd(fd: wakeReader, events: Int16(POLLIN), revents: 0)
        let ready = poll(&fd, 1, Int32(max(1, delay / .milliseconds(1))))
        guard ready > 0 else { return false }
        drainWake()
        return true
    }

    private func drainWake() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while read(wakeReader, &buffer, buffer.count) > 0 {}
    }
}
