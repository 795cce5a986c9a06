/// A least-recently-used map bounded by entry count and by bytes, O(1) per get, put and
/// eviction at any capacity: a dictionary of slot indices over a doubly linked list kept in one
/// array (no per-entry allocation beyond the key and value themselves). Not thread-safe: its
/// owner locks.
struct LRUStore<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct Slot {
        var key: Key
        var value: Value
        var bytes: Int
        var previous: Int
        var next: Int
    }

    /// Entries kept at most.
    let capacity: Int
    /// The sum of the entries' `bytes` kept at most.
    let maxBytes: Int
    private var index: [Key: Int] = [:]
    private var slots: [Slot?] = []
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
        return slots[position]?.value
    }

    /// The value for `key` without touching its recency.
    func peek(_ key: Key) -> Value? {
        index[key].flatMap { slots[$0]?.value }
    }

    /// The byte count `key` was stored with.
    func bytes(of key: Key) -> Int? {
        index[key].flatMap { slots[$0]?.bytes }
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
            self.bytes += bytes - (slots[position]?.bytes ?? 0)
            slots[position]?.value = value
            slots[position]?.bytes = bytes
            moveToFront(position)
        } else {
            let slot = Slot(key: key, value: value, bytes: bytes, previous: -1, next: -1)
            let position: Int
            if let reused = free.popLast() {
                position = reused
                slots[position] = slot
            } else {
                position = slots.count
                slots.append(slot)
            }
            index[key] = position
            self.bytes += bytes
            linkFront(position)
        }
        var evicted = 0
        while index.count > capacity || self.bytes > maxBytes, tail != -1 {
            guard let key = slots[tail]?.key else { break }
            remove(key)
            evicted += 1
        }
        return evicted
    }

    /// Forgets `key`; returns its value.
    @discardableResult
    mutating func remove(_ key: Key) -> Value? {
        guard let position = index.removeValue(forKey: key), let slot = slots[position] else { return nil }
        unlink(position)
        bytes -= slot.bytes
        slots[position] = nil
        free.append(position)
        return slot.value
    }

    private mutating func moveToFront(_ position: Int) {
        guard position != head else { return }
        unlink(position)
        linkFront(position)
    }

    private mutating func linkFront(_ position: Int) {
        slots[position]?.previous = -1
        slots[position]?.next = head
        if head != -1 { slots[head]?.previous = position }
        head = position
        if tail == -1 { tail = position }
    }

    private mutating func unlink(_ position: Int) {
        guard let slot = slots[position] else { return }
        if slot.previous != -1 { slots[slot.previous]?.next = slot.next } else { head = slot.next }
        if slot.next != -1 { slots[slot.next]?.previous = slot.previous } else { tail = slot.previous }
    }
}
