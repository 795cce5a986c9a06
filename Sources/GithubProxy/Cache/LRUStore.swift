/// A least-recently-used map bounded by entry count and by bytes, O(1) per get, put and
/// eviction at any capacity: a dictionary of slot indices over a doubly linked list kept in an
/// array beside the entries' (no per-entry allocation beyond the key and value themselves). Not
/// thread-safe: its owner locks.
struct LRUStore<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct Entry {
        var key: Key
        var value: Value
        var bytes: Int
    }

    /// A slot's neighbours in recency order (-1: none), apart from its entry, so that
    /// reordering never copies a key or a value.
    private struct Links {
        var previous = -1
        var next = -1
    }

    /// Entries kept at most.
    let capacity: Int
    /// The sum of the entries' `bytes` kept at most.
    let maxBytes: Int
    private var index: [Key: Int] = [:]
    /// By slot; nil for a free slot.
    private var entries: [Entry?] = []
    /// By slot, beside `entries`.
    private var links: [Links] = []
    private var free: [Int] = []
    /// Most recently used.
    private var head = -1
    /// Least recently used: evicted first.
    private var tail = -1
    private(set) var bytes = 0

    init(capacity: Int, maxBytes: Int = .max) {
        self.capacity = max(1, capacity)
        self.maxBytes = max(1, maxBytes)
    }

    var count: Int { index.count }

    /// The value for `key`, made most recently used.
    mutating func get(_ key: Key) -> Value? {
        guard let position = index[key] else { return nil }
        moveToFront(position)
        // Through the buffer: the value is copied out, not the whole entry first.
        return entries.withUnsafeBufferPointer { $0[position]?.value }
    }

    /// The value for `key` without touching its recency.
    func peek(_ key: Key) -> Value? {
        index[key].flatMap { entries[$0]?.value }
    }

    /// The byte count `key` was stored with.
    func bytes(of key: Key) -> Int? {
        index[key].flatMap { entries[$0]?.bytes }
    }

    /// Stores `value` as the most recently used entry, evicting least recently used ones until
    /// both bounds hold. A value larger than `maxBytes` on its own is not stored (and replaces
    /// nothing). Returns how many entries were evicted.
    @discardableResult
    mutating func put(_ key: Key, _ value: Value, bytes: Int) -> Int {
        let bytes = max(0, bytes)
        guard bytes <= maxBytes else {
            remove(key)
            return 0
        }
        if let position = index[key] {
            self.bytes += bytes - (entries[position]?.bytes ?? 0)
            entries[position]?.value = value
            entries[position]?.bytes = bytes
            moveToFront(position)
        } else {
            let entry = Entry(key: key, value: value, bytes: bytes)
            let position: Int
            if let reused = free.popLast() {
                position = reused
                entries[position] = entry
            } else {
                position = entries.count
                entries.append(entry)
                links.append(Links())
            }
            index[key] = position
            self.bytes += bytes
            linkFront(position)
        }
        var evicted = 0
        while index.count > capacity || self.bytes > maxBytes, tail != -1 {
            guard let key = entries[tail]?.key else { break }
            remove(key)
            evicted += 1
        }
        return evicted
    }

    /// Forgets `key`; returns its value.
    @discardableResult
    mutating func remove(_ key: Key) -> Value? {
        guard let position = index.removeValue(forKey: key), let entry = entries[position] else { return nil }
        unlink(position)
        bytes -= entry.bytes
        entries[position] = nil
        free.append(position)
        return entry.value
    }

    private mutating func moveToFront(_ position: Int) {
        guard position != head else { return }
        unlink(position)
        linkFront(position)
    }

    private mutating func linkFront(_ position: Int) {
        links[position] = Links(previous: -1, next: head)
        if head != -1 { links[head].previous = position }
        head = position
        if tail == -1 { tail = position }
    }

    private mutating func unlink(_ position: Int) {
        let slot = links[position]
        if slot.previous != -1 { links[slot.previous].next = slot.next } else { head = slot.next }
        if slot.next != -1 { links[slot.next].previous = slot.previous } else { tail = slot.previous }
    }
}
