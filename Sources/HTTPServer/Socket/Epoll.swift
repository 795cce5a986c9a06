import CEpoll
import Foundation

/// What a descriptor registered with an `EventLoop` wants to be told about.
struct IOInterest: OptionSet, Sendable {
    let rawValue: UInt32

    static let readable = IOInterest(rawValue: 1 << 0)
    static let writable = IOInterest(rawValue: 1 << 1)
    /// The peer shut down its sending side (FIN), reported even when input is not watched.
    static let peerHangUp = IOInterest(rawValue: 1 << 2)

    /// The epoll event mask (level-triggered). Errors and hang-ups are always reported.
    var epollEvents: UInt32 {
        var events: UInt32 = 0
        if contains(.readable) { events |= EPOLLIN.rawValue }
        if contains(.writable) { events |= EPOLLOUT.rawValue }
        if contains(.peerHangUp) { events |= EPOLLRDHUP.rawValue }
        return events
    }
}

/// One readiness report from `Epoll.wait`.
struct IOEvent {
    /// The token the descriptor was registered with.
    let token: UInt64
    let readable: Bool
    let writable: Bool
    /// The peer sent FIN (only when `.peerHangUp` is watched).
    let peerHangUp: Bool
    /// An error or hang-up: the connection is beyond use.
    let failed: Bool
}

/// An epoll instance (level-triggered) plus an eventfd that wakes it from other threads. `wait`
/// times out to the nanosecond (`epoll_pwait2`), so the loop's next timer needs no descriptor of
/// its own, nor a `timerfd_settime` each time the next deadline changes (4 % of the service's CPU
/// under a typing load). On a kernel older than 5.11 it falls back to `epoll_wait`, whose timeout
/// counts whole milliseconds (rounded up: a timer fires up to 1 ms late, never early).
///
/// Owned by one `EventLoop`; `wait` is only called from its thread, `wake` from any.
struct Epoll: ~Copyable {
    private let fd: Int32
    private let wakeFD: Int32
    private let events: UnsafeMutableBufferPointer<epoll_event>

    /// The token `wait` reports for the wake-up descriptor.
    static let wakeToken = UInt64.max

    init(maxEvents: Int = 256) throws(SocketError) {
        let fd = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard fd >= 0 else { throw .lastError("epoll_create1") }
        let wakeFD = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
        var wakeEvent = epoll_event()
        wakeEvent.events = EPOLLIN.rawValue
        wakeEvent.data.u64 = Epoll.wakeToken
        guard wakeFD >= 0, epoll_ctl(fd, EPOLL_CTL_ADD, wakeFD, &wakeEvent) == 0 else {
            let error = SocketError.lastError(wakeFD < 0 ? "eventfd" : "epoll_ctl")
            if wakeFD >= 0 { Glibc.close(wakeFD) }
            Glibc.close(fd)
            throw error
        }
        self.fd = fd
        self.wakeFD = wakeFD
        events = .allocate(capacity: maxEvents)
    }

    deinit {
        events.deallocate()
        Glibc.close(wakeFD)
        Glibc.close(fd)
    }

    func add(_ descriptor: Int32, interest: IOInterest, token: UInt64) throws(SocketError) {
        try control(EPOLL_CTL_ADD, descriptor, events: interest.epollEvents, token: token)
    }

    func modify(_ descriptor: Int32, interest: IOInterest, token: UInt64) throws(SocketError) {
        try control(EPOLL_CTL_MOD, descriptor, events: interest.epollEvents, token: token)
    }

    func remove(_ descriptor: Int32) {
        var event = epoll_event()
        _ = epoll_ctl(fd, EPOLL_CTL_DEL, descriptor, &event)
    }

    /// Makes a `wait` in progress (or the next one) return at once. Safe from any thread.
    func wake() {
        var one: UInt64 = 1
        _ = Glibc.write(wakeFD, &one, MemoryLayout<UInt64>.size)
    }

    /// Waits up to `timeoutNanoseconds` and calls `body` for each ready descriptor; wake-ups are
    /// consumed here and reported with `wakeToken`. Returns the number of events.
    @discardableResult
    func wait(timeoutNanoseconds: UInt64, _ body: (IOEvent) -> Void) -> Int {
        let count: Int32
        if Self.waitsToTheNanosecond {
            var timeout = timespec(tv_sec: Int(timeoutNanoseconds / 1_000_000_000), tv_nsec: Int(timeoutNanoseconds % 1_000_000_000))
            count = epoll_pwait2(fd, events.baseAddress, Int32(events.count), &timeout, nil)
        } else {
            count = epoll_wait(fd, events.baseAddress, Int32(events.count), Self.milliseconds(roundingUp: timeoutNanoseconds))
        }
        guard count > 0 else { return 0 }  // 0: timeout; -1: EINTR (nothing else can fail here)
        let failure = EPOLLERR.rawValue | EPOLLHUP.rawValue
        for index in 0..<Int(count) {
            let event = events[index]
            let token = event.data.u64
            if token == Epoll.wakeToken {
                var value: UInt64 = 0
                _ = Glibc.read(wakeFD, &value, MemoryLayout<UInt64>.size)
            }
            body(
                IOEvent(
                    token: token,
                    readable: event.events & EPOLLIN.rawValue != 0,
                    writable: event.events & EPOLLOUT.rawValue != 0,
                    peerHangUp: event.events & EPOLLRDHUP.rawValue != 0,
                    failed: event.events & failure != 0
                )
            )
        }
        return Int(count)
    }

    /// Lets the calling thread's waits end up to `nanoseconds` after their timeout (its timer
    /// slack, at least 1 ns: the kernel's default is 50 µs, or 0.1 % of the timeout when that is
    /// more, 0.5 ms on a 500 ms throttle). A wait that something else ends within that span
    /// ends then instead, so timers due close to one another, or to the next readable socket,
    /// share one wake-up. Called by the loop's thread as it starts.
    static func setTimerSlack(nanoseconds: UInt64) {
        _ = cepoll_set_timer_slack(UInt(clamping: max(1, nanoseconds)))
    }

    /// The calling thread's timer slack, nanoseconds.
    static var timerSlack: UInt64 { UInt64(clamping: cepoll_timer_slack()) }

    /// `epoll_wait`'s timeout for `nanoseconds`: whole milliseconds, rounded up (a wait never
    /// ends before its deadline), at most `Int32.max`.
    static func milliseconds(roundingUp nanoseconds: UInt64) -> Int32 {
        let milliseconds = nanoseconds / 1_000_000 + (nanoseconds % 1_000_000 == 0 ? 0 : 1)
        return Int32(min(milliseconds, UInt64(Int32.max)))
    }

    /// Whether this kernel has `epoll_pwait2` (Linux 5.11): asked once, of a throwaway epoll.
    static let waitsToTheNanosecond: Bool = {
        let probe = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard probe >= 0 else { return false }
        defer { Glibc.close(probe) }
        var event = epoll_event()
        var timeout = timespec(tv_sec: 0, tv_nsec: 0)
        return epoll_pwait2(probe, &event, 1, &timeout, nil) >= 0
    }()

    private func control(_ operation: Int32, _ descriptor: Int32, events mask: UInt32, token: UInt64) throws(SocketError) {
        var event = epoll_event()
        event.events = mask
        event.data.u64 = token
        guard epoll_ctl(fd, operation, descriptor, &event) == 0 else { throw .lastError("epoll_ctl") }
    }
}
