/// A loop's descriptor handlers by token: one slot per registration, reused once it ends.
///
/// A token is its slot's index (low 32 bits) and the slot's generation (high 32 bits), which
/// grows each time the slot is freed: an event still carrying the token of a registration that
/// ended earlier in the same turn finds nothing, as with a token never reused. A look-up is an
/// array index, not a hash.
struct IOHandlerTable {
    private struct Slot {
        var generation: UInt32
        var handler: (any IOHandler)?
    }

    private var slots: [Slot] = []
    private var freeSlots: [UInt32] = []

    /// Holds `handler`; returns its token.
    mutating func insert(_ handler: any IOHandler) -> UInt64 {
        if let index = freeSlots.popLast() {
            slots[Int(index)].handler = handler
            return Self.token(index: index, generation: slots[Int(index)].generation)
        }
        precondition(slots.count < Int(UInt32.max), "more descriptors than a loop's tokens can name")
        slots.append(Slot(generation: 0, handler: handler))
        return Self.token(index: UInt32(slots.count - 1), generation: 0)
    }

    /// The handler of `token`; nil once it was removed.
    subscript(token: UInt64) -> (any IOHandler)? {
        guard let index = slotIndex(of: token) else { return nil }
        return slots[index].handler
    }

    /// Lets go of the handler of `token` (nothing when it is not held).
    mutating func remove(_ token: UInt64) {
        guard let index = slotIndex(of: token), slots[index].handler != nil else { return }
        slots[index].handler = nil
        slots[index].generation &+= 1
        freeSlots.append(UInt32(index))
    }

    private func slotIndex(of token: UInt64) -> Int? {
        let index = Int(token & 0xFFFF_FFFF)
        guard index < slots.count, slots[index].generation == UInt32(token >> 32) else { return nil }
        return index
    }

    private static func token(index: UInt32, generation: UInt32) -> UInt64 {
        UInt64(generation) << 32 | UInt64(index)
    }
}
