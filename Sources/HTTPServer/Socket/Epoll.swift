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

/// An epoll instance (level-triggered) plus an eventfd that wakes it from other threads and a
/// timerfd that wakes it at the loop's next timer (to the nanosecond, where `epoll_wait`'s own
/// timeout counts whole milliseconds).
///
/// Owned by one `EventLoop`; `wait` and `armTimer` are only called from its thread, `wake` from any.
struct Epoll: ~Copyable {
    private let fd: Int32
    private let wakeFD: Int32
    private let timerFD: Int32
    private let events: UnsafeMutableBufferPointer<epoll_event>

    /// The token `wait` reports for the wake-up descriptor.
    static let wakeToken = UInt64.max
    /// The token `wait` reports when the timer armed with `armTimer` expired.
    static let timerToken = UInt64.max - 1

    init(maxEvents: Int = 256) throws(SocketError) {
        let fd = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard fd >= 0 else { throw .lastError("epoll_create1") }
        let wakeFD = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
        let timerFD = timerfd_create(CLOCK_MONOTONIC, Int32(TFD_NONBLOCK | TFD_CLOEXEC))
        var wakeEvent = epoll_event()
        wakeEvent.events = EPOLLIN.rawValue
        wakeEvent.data.u64 = Epoll.wakeToken
        var timerEvent = epoll_event()
        timerEvent.events = EPOLLIN.rawValue
        timerEvent.data.u64 = Epoll.timerToken
        guard wakeFD >= 0, timerFD >= 0, epoll_ctl(fd, EPOLL_CTL_ADD, wakeFD, &wakeEvent) == 0,
              epoll_ctl(fd, EPOLL_CTL_ADD, timerFD, &timerEvent) == 0
        else {
            let error = SocketError.lastError(wakeFD < 0 ? "eventfd" : timerFD < 0 ? "timerfd_create" : "epoll_ctl")
            if wakeFD >= 0 { Glibc.close(wakeFD) }
            if timerFD >= 0 { Glibc.close(timerFD) }
            Glibc.close(fd)
            throw error
        }
        self.fd = fd
        self.wakeFD = wakeFD
        self.timerFD = timerFD
        events = .allocate(capacity: maxEvents)
    }

    deinit {
        events.deallocate()
        Glibc.close(timerFD)
        Glibc.close(wakeFD)
        Glibc.close(fd)
    }

    /// Makes a `wait` report `timerToken` once `nanoseconds` (at least 1) have passed, replacing
    /// any earlier arming.
    func armTimer(after nanoseconds: UInt64) {
        let delay = max(nanoseconds, 1)
        var spec = itimerspec()
        spec.it_value.tv_sec = Int(delay / 1_000_000_000)
        spec.it_value.tv_nsec = Int(delay % 1_000_000_000)
        _ = timerfd_settime(timerFD, 0, &spec, nil)
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

    /// Waits up to `timeoutMilliseconds` (-1: forever) and calls `body` for each ready
    /// descriptor; wake-ups and timer expiries are consumed here and reported with `wakeToken`
    /// and `timerToken`. Returns the number of events.
    @discardableResult
    func wait(timeoutMilliseconds: Int32, _ body: (IOEvent) -> Void) -> Int {
        let count = epoll_wait(fd, events.baseAddress, Int32(events.count), timeoutMilliseconds)
        guard count > 0 else { return 0 }  // 0: timeout; -1: EINTR (nothing else can fail here)
        let failure = EPOLLERR.rawValue | EPOLLHUP.rawValue
        for index in 0..<Int(count) {
            let event = events[index]
            let token = event.data.u64
            if token == Epoll.wakeToken || token == Epoll.timerToken {
                var value: UInt64 = 0
                _ = Glibc.read(token == Epoll.wakeToken ? wakeFD : timerFD, &value, MemoryLayout<UInt64>.size)
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

    private func control(_ operation: Int32, _ descriptor: Int32, events mask: UInt32, token: UInt64) throws(SocketError) {
        var event = epoll_event()
        event.events = mask
        event.data.u64 = token
        guard epoll_ctl(fd, operation, descriptor, &event) == 0 else { throw .lastError("epoll_ctl") }
    }
}
