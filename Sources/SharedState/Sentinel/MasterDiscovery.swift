/// How the service finds the Redis master through sentinels, as a state machine that does no
/// I/O: `SentinelMonitor` feeds it what happened (`Event`) and carries out what it returns
/// (`Action`), so every path is testable in memory.
///
/// It asks the sentinels in turn (`SENTINEL get-master-addr-by-name`) until one answers, then
/// follows that sentinel's `+switch-master` announcements on a subscription. When that sentinel
/// fails, the next is asked; when the master fails (a command could not reach it), the sentinel is
/// asked again — the failover may have happened while nobody listened. When every sentinel failed
/// in a row, it rests for the reconnection back-off (50 ms doubling to 2 s) and starts over. The
/// master last known stays in use meanwhile (nil until one is known: the service is degraded).
public struct MasterDiscovery: Sendable, Equatable {
    public enum State: Sendable, Equatable {
        /// Asking sentinel `sentinel`; `tried` sentinels have failed in a row before it.
        case asking(sentinel: Int, tried: Int, master: RedisAddress?)
        /// `master` is known; sentinel `sentinel`'s announcements are followed.
        case following(sentinel: Int, master: RedisAddress)
        /// Every sentinel failed in a row; after the back-off, sentinel `next` is asked.
        case resting(next: Int, master: RedisAddress?)
        case stopped
    }

    public enum Event: Sendable, Equatable {
        /// The sentinel asked named the master.
        case answered(RedisAddress)
        /// The sentinel asked does not know the master's name (a `null` reply).
        case unknownMaster
        /// The sentinel could not be reached, refused `AUTH`, or its connection broke.
        case sentinelFailed
        /// `+switch-master` for our master: the new master's address.
        case switched(RedisAddress)
        /// A command could not reach the master (it may be gone).
        case masterFailed
        /// The back-off is over.
        case rested
        case stop
    }

    public enum Action: Sendable, Equatable {
        /// Ask this sentinel for the master's address.
        case ask(sentinel: Int)
        /// Subscribe to this sentinel's `+switch-master` and report the next announcement or failure.
        case follow(sentinel: Int)
        /// Connect to this master from now on (connections to another are dropped).
        case useMaster(RedisAddress)
        /// Wait this long, then report `rested`.
        case rest(Duration)
    }

    public private(set) var state: State
    private let sentinels: Int
    private var backoff = ReconnectBackoff()

    /// A discovery over `sentinels` sentinels (at least one), about to ask the first.
    public init(sentinels: Int) {
        self.sentinels = max(1, sentinels)
        state = .asking(sentinel: 0, tried: 0, master: nil)
    }

    /// What to do first: ask the first sentinel.
    public var start: [Action] { [.ask(sentinel: 0)] }

    /// The master known now; nil while none is.
    public var master: RedisAddress? {
        switch state {
        case .asking(_, _, let master), .resting(_, let master): master
        case .following(_, let master): master
        case .stopped: nil
        }
    }

    /// Feeds `event`; returns what to do, in order.
    public mutating func handle(_ event: Event) -> [Action] {
        if event == .stop {
            state = .stopped
            return []
        }
        switch (state, event) {
        case (.asking(let sentinel, _, let known), .answered(let master)):
            backoff.succeeded()
            state = .following(sentinel: sentinel, master: master)
            return (master == known ? [] : [.useMaster(master)]) + [.follow(sentinel: sentinel)]
        case (.asking(let sentinel, let tried, let known), .unknownMaster),
             (.asking(let sentinel, let tried, let known), .sentinelFailed):
            let next = (sentinel + 1) % sentinels
            guard tried + 1 < sentinels else {
                state = .resting(next: next, master: known)
                return [.rest(backoff.failed())]
            }
            state = .asking(sentinel: next, tried: tried + 1, master: known)
            return [.ask(sentinel: next)]
        case (.following(let sentinel, let known), .switched(let master)):
            state = .following(sentinel: sentinel, master: master)
            return (master == known ? [] : [.useMaster(master)]) + [.follow(sentinel: sentinel)]
        case (.following(let sentinel, let known), .sentinelFailed):
            let next = (sentinel + 1) % sentinels
            state = .asking(sentinel: next, tried: 0, master: known)
            return [.ask(sentinel: next)]
        case (.following(let sentinel, let known), .masterFailed):
            // Ask the same sentinel again: a switch may have been announced while nobody heard.
            state = .asking(sentinel: sentinel, tried: 0, master: known)
            return [.ask(sentinel: sentinel)]
        case (.resting(let next, let known), .rested):
            state = .asking(sentinel: next, tried: 0, master: known)
            return [.ask(sentinel: next)]
        default:
            // Asking or resting already covers a failed master; late reports of a finished step
            // (an answer after a stop) change nothing.
            return []
        }
    }
}
