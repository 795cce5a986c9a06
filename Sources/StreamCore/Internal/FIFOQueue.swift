/// A first-in first-out queue with amortised O(1) pops, for values waiting for demand.
struct FIFOQueue<Element> {
    private var storage: [Element] = []
    private var head = 0

    var isEmpty: Bool { head == storage.count }
    var count: Int { storage.count - head }

    mutating func append(_ element: Element) { storage.append(element) }

    mutating func popFirst() -> Element? {
        guard head < storage.count else { return nil }
        let element = storage[head]
        head += 1
        if head == storage.count {
            storage.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 64, head * 2 >= storage.count {
            storage.removeFirst(head)
            head = 0
        }
        return element
    }

    /// Replaces the most recently appended element (the queue must not be empty).
    mutating func replaceLast(_ element: Element) { storage[storage.count - 1] = element }

    mutating func removeAll() {
        storage.removeAll()
        head = 0
    }
}
