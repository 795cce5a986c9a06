import Locking

/// Where a client's connections go: a fixed address (`redis.url`), or the master the sentinels
/// name now (`redis.sentinels`), which `SentinelMonitor` updates. Every change bumps a generation,
/// so a connection made to an older master is dropped before its next command, and observers (the
/// pub/sub subscriber) are told.
public final class RedisEndpoint: Sendable {
    /// The address and its generation; nil address: no master known (degraded).
    public struct Target: Sendable, Equatable {
        public var address: RedisAddress?
        public var generation: UInt64
    }

    private struct State {
        var target: Target
        var observers: [@Sendable () -> Void] = []
        var connectionFailed: @Sendable () -> Void = {}
    }

    private let state: Locked<State>

    /// A fixed address, or none known yet (nil).
    public init(_ address: RedisAddress?) {
        state = Locked(State(target: Target(address: address, generation: 0)))
    }

    /// Where to connect now.
    public var target: Target { state.withLock { $0.target } }

    /// Connections go to `address` from now on; observers are told (outside the lock).
    func use(_ address: RedisAddress?) {
        let observers = state.withLock { state -> [@Sendable () -> Void] in
            guard state.target.address != address else { return [] }
            state.target = Target(address: address, generation: state.target.generation &+ 1)
            return state.observers
        }
        observers.forEach { $0() }
    }

    /// Calls `observer` after every change of address (on the thread that changed it).
    func observe(_ observer: @escaping @Sendable () -> Void) {
        state.withLock { $0.observers.append(observer) }
    }

    /// Who hears that a command could not reach the address (the sentinel monitor, to ask again).
    func onConnectionFailure(_ handler: @escaping @Sendable () -> Void) {
        state.withLock { $0.connectionFailed = handler }
    }

    /// A command could not reach the current address.
    func connectionFailed() {
        let handler = state.withLock { $0.connectionFailed }
        handler()
    }
}
