import CFuzzerDriver

// What every fuzz target shares: handing the process to libFuzzer, and splitting an input into
// chunks the way TCP might.

/// Chunk sizes derived from a seed byte: 0 means byte-at-a-time; otherwise a small LCG gives
/// sizes of 1–8 (seed below 128) or 1–64 bytes.
public struct Splitter {
    var state: UInt32
    let mode: UInt8

    public init(seed: UInt8) {
        mode = seed
        state = UInt32(seed) &* 2_654_435_761 | 1
    }

    /// The next chunk's length, at most `maxLength`.
    public mutating func nextLength(maxLength: Int) -> Int {
        if mode == 0 { return 1 }
        state = state &* 1_664_525 &+ 1_013_904_223
        let cap = mode < 128 ? 8 : 64
        return min(maxLength, 1 + Int(state >> 16) % cap)
    }
}

/// The target's test, for the C callback below (libFuzzer runs it on one thread).
nonisolated(unsafe) private var currentTest: ((UnsafePointer<UInt8>, Int) -> Int32)?

/// Hands the process to libFuzzer's driver with `test` as the fuzz target. Each target's entry
/// point (`@_cdecl("<Target>_main")`, which SwiftPM links as `main`) calls this.
public func runFuzzer(
    _ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
    _ test: @escaping (UnsafePointer<UInt8>, Int) -> Int32
) -> Int32 {
    currentTest = test
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv) { data, size in
        guard let data, let test = currentTest else { return 0 }
        return test(data, size)
    }
}
