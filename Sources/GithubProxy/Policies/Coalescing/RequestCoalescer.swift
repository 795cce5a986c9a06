import Foundation
import Locking
import StreamCore

/// Shares one upstream publisher among concurrent subscribers with the same key (`share()`).
///
/// The entry leaves the table as soon as the upstream produces or completes — before the
/// subscribers see it — so a later subscriber starts a fresh request rather than joining a
/// finished one. The upstream is cancelled only when every subscriber has cancelled.
final class RequestCoalescer<Output, Failure: Error>: @unchecked Sendable {
    // Sendable: `entries` and `nextID` are guarded by `lock`.
    private let lock = Lock()
    private var entries: [String: (id: UInt64, publisher: AnyPublisher<Output, Failure>)] = [:]
    private var nextID: UInt64 = 0

    /// The shared publisher for `key` while one is running, else nil.
    func running(_ key: String) -> AnyPublisher<Output, Failure>? {
        lock.withLock { entries[key]?.publisher }
    }

    /// The shared publisher for `key`: the running one (`made` false), else the one `make`
    /// builds (`made` true). `make` runs outside the lock; when another caller's publisher was
    /// registered meanwhile, that one is joined and what `make` built is dropped unsubscribed.
    func publisher(
        for key: String, make: () -> AnyPublisher<Output, Failure>
    ) -> (publisher: AnyPublisher<Output, Failure>, made: Bool) {
        if let running = running(key) { return (running, false) }
        let id: UInt64 = lock.withLock {
            nextID += 1
            return nextID
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
        return lock.withLock {
            if let entry = entries[key] { return (entry.publisher, false) }
            entries[key] = (id, shared)
            return (shared, true)
        }
    }

    /// The number of requests in flight.
    var count: Int { lock.withLock { entries.count } }

    private func remove(_ key: String, id: UInt64) {
        lock.withLock {
            if entries[key]?.id == id { entries[key] = nil }
        }
    }
}
