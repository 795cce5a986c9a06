import Dispatch

/// One benchmark case run by both libraries.
struct Case {
    let name: String
    let unit: String
    /// How many operations one run performs (values pushed, subscriptions made).
    let operations: Int
    let streamCore: () -> Int
    let openCombine: () -> Int
}

/// Runs `body` `runs` times after one warm-up and returns the fastest run in nanoseconds per
/// operation. `body` returns a checksum so the optimiser cannot drop the work.
func measure(runs: Int, operations: Int, _ body: () -> Int) -> (nsPerOp: Double, checksum: Int) {
    var best = Double.infinity
    var checksum = body()
    for _ in 0..<runs {
        let start = DispatchTime.now().uptimeNanoseconds
        checksum = body()
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start)
        best = min(best, elapsed / Double(operations))
    }
    return (best, checksum)
}
