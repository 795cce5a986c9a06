import Foundation
import Locking
import StreamCore

/// Shares one upstream publisher among concurrent subscribers with the same key (`share()`).
///
/// The entry leaves the table as soon as the upstream produces or completes — before the
/// subscribers see it — so a later subscriber starts a fresh request rather than joining a
/// finished one. The upstream is cancelled only when every subscriber has cancelled.
final class RequestCoalescer<Output, Failure: Error>: Sendable {
    private struct Entry: @unchecked Sendable {
        // Sendable: a shared publisher (`share()`) is thread-safe; AnyPublisher only lacks the
        // conformance because its Output may not be Sendable.
        let id: UInt64
        let publisher: AnyPublisher<Output, Failure>
    }
    private struct State: Sendable {
        var entries: [String: Entry] = [:]
        var nextID: UInt64 = 0
    }
    private let state = Locked(State())

    /// The shared publisher for `key` while one is running, else nil.
    func running(_ key: String) -> AnyPublisher<Output, Failure>? {
        state.withLock { $0.entries[key]?.publisher }
    }

    /// The shared publisher for `key`: the running one (`made` false), else the one `make`
    /// builds (`made` true). `make` runs outside the lock; when another caller's publisher was
    /// registered meanwhile, that one is joined and what `make` built is dropped unsubscribed.
    func publisher(
        for key: String, make: () -> AnyPublisher<Output, Failure>
    ) -> (publisher: AnyPublisher<Output, Failure>, made: Bool) {
        if let running = running(key) { return (running, false) }
        let id: UInt64 = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        let remove: @Sendable () -> Void = { [weak self] in self?.remove(key, id: id) }
        let shared = make()
            .handleEvents(
                receiveOutput: { _ in remove() },
                receiveCompletion: { _ in remove() },
                receiveCancel: { remove() }
            )
            .share()
            .eraseToAnyPublisher()
        let entry = Entry(id: id, publisher: shared)
        let running = state.withLock { state -> Entry? in
            if let running = state.entries[key] { return running }
            state.entries[key] = entry
            return nil
        }
        return running.map { ($0.publisher, false) } ?? (entry.publisher, true)
    }

    /// The number of requests in flight.
    var count: Int { state.withLock { $0.entries.count } }

    private func remove(_ key: String, id: UInt64) {
        state.withLock { state in
            if state.entries[key]?.id == id { state.entries[key] = nil }
        }
    }
}
