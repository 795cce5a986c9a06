// StreamCore against OpenCombine 0.14.0, same machine, same run, release build:
//   swift run -c release --package-path Benchmarks StreamCoreBench
// Prints Markdown tables for docs/benchmarks.md. `StreamCoreBench trace` prints only the second
// one (what a disabled `trace` stage costs); `StreamCoreBench chain-plain|chain-traced-off N`
// runs one of those two chains once with N values and prints its checksum, for counting
// instructions (`valgrind --tool=callgrind`). `StreamCoreBench one CASE LIBRARY N` runs one case of
// the comparison once (CASE: chain, subscribe, switch, throttle, fanout; LIBRARY: streamcore or
// opencombine; N operations) and prints its checksum, for counting the instructions per value.

let chainValues = 10_000_000
let subscribeTimes = 1_000_000
let switchValues = 100_000
let throttleValues = 1_000_000
let fanOutSends = 10_000

let cases = [
    Case(
        name: "PassthroughSubject → map → filter → removeDuplicates → sink, 10M Ints",
        unit: "ns/value", operations: chainValues,
        streamCore: { StreamCoreCases.subjectChain(values: chainValues) },
        openCombine: { OpenCombineCases.subjectChain(values: chainValues) }
    ),
    Case(
        name: "subscribe + cancel `Just(1).map{…}.sink{…}`, 1M times",
        unit: "ns/op", operations: subscribeTimes,
        streamCore: { StreamCoreCases.subscribeCancel(times: subscribeTimes) },
        openCombine: { OpenCombineCases.subscribeCancel(times: subscribeTimes) }
    ),
    Case(
        name: "`map { Just($0) }.switchToLatest()`, 100k values",
        unit: "ns/value", operations: switchValues,
        streamCore: { StreamCoreCases.switchToLatest(values: switchValues) },
        openCombine: { OpenCombineCases.switchToLatest(values: switchValues) }
    ),
    Case(
        name: "`throttle(latest: true)` fed by a subject on virtual time (4 values per window), 1M values",
        unit: "ns/value", operations: throttleValues,
        streamCore: { StreamCoreCases.throttle(values: throttleValues) },
        openCombine: { OpenCombineCases.throttle(values: throttleValues) }
    ),
    Case(
        name: "PassthroughSubject with 1,000 subscribers, 10k sends",
        unit: "ns/send", operations: fanOutSends,
        streamCore: { StreamCoreCases.fanOut(sends: fanOutSends) },
        openCombine: { OpenCombineCases.fanOut(sends: fanOutSends) }
    ),
]

let arguments = Array(CommandLine.arguments.dropFirst())
if let chain = arguments.first, chain == "chain-plain" || chain == "chain-traced-off" {
    let values = arguments.count > 1 ? Int(arguments[1]) ?? chainValues : chainValues
    print(chain == "chain-plain" ? StreamCoreCases.subjectChain(values: values) : StreamCoreCases.subjectChainTracedOff(values: values))
} else if arguments.first == "one", arguments.count == 4, let operations = Int(arguments[3]) {
    print(runOne(name: arguments[1], library: arguments[2], operations: operations))
} else {
    runTables(onlyTrace: arguments.contains("trace"))
}

/// The library comparison (unless `onlyTrace`), then the disabled-trace comparison.
@MainActor func runTables(onlyTrace: Bool) {
    if !onlyTrace {
        print("| benchmark | StreamCore | OpenCombine 0.14.0 | speed-up |")
        print("|---|---:|---:|---:|")
        for benchmark in cases {
            let ours = measure(runs: 5, operations: benchmark.operations, benchmark.streamCore)
            let theirs = measure(runs: 5, operations: benchmark.operations, benchmark.openCombine)
            precondition(ours.checksum == theirs.checksum, "\(benchmark.name): results differ")
            let speedup = theirs.nsPerOp / ours.nsPerOp
            print(
                "| \(benchmark.name) | \(format(ours.nsPerOp)) \(benchmark.unit) | \(format(theirs.nsPerOp)) \(benchmark.unit) | \(format(speedup))× |"
            )
        }
        print("")
    }

    // Tracing off: the chain with a disabled trace stage after every step, against the plain chain
    // (goal: within 5 %). Interleaved runs, so drift on a shared machine hits both alike.
    var plainRuns: [Double] = [], tracedRuns: [Double] = []
    for _ in 0..<5 {
        let plain = measure(runs: 1, operations: chainValues) { StreamCoreCases.subjectChain(values: chainValues) }
        let traced = measure(runs: 1, operations: chainValues) { StreamCoreCases.subjectChainTracedOff(values: chainValues) }
        precondition(plain.checksum == traced.checksum, "tracing changed the result")
        plainRuns.append(plain.nsPerOp)
        tracedRuns.append(traced.nsPerOp)
    }
    let plainBest = plainRuns.min() ?? 0, tracedBest = tracedRuns.min() ?? 0
    print("| StreamCore chain, 10M Ints | best of 5 | overhead |")
    print("|---|---:|---:|")
    print("| PassthroughSubject → map → filter → removeDuplicates → sink | \(format(plainBest)) ns/value | |")
    print("| the same, `trace(_:on:to: nil)` after every stage | \(format(tracedBest)) ns/value | \(format((tracedBest / plainBest - 1) * 100)) % |")
}

/// One case of the comparison, once, with `operations` operations; its checksum.
func runOne(name: String, library: String, operations n: Int) -> Int {
    let ours = library == "streamcore"
    precondition(ours || library == "opencombine", "library: streamcore or opencombine")
    switch name {
    case "chain": return ours ? StreamCoreCases.subjectChain(values: n) : OpenCombineCases.subjectChain(values: n)
    case "subscribe": return ours ? StreamCoreCases.subscribeCancel(times: n) : OpenCombineCases.subscribeCancel(times: n)
    case "switch": return ours ? StreamCoreCases.switchToLatest(values: n) : OpenCombineCases.switchToLatest(values: n)
    case "throttle": return ours ? StreamCoreCases.throttle(values: n) : OpenCombineCases.throttle(values: n)
    case "fanout": return ours ? StreamCoreCases.fanOut(sends: n) : OpenCombineCases.fanOut(sends: n)
    default: preconditionFailure("case: chain, subscribe, switch, throttle or fanout")
    }
}

func format(_ value: Double) -> String {
    let scaled = (value * 10).rounded() / 10
    return String(describing: scaled)
}
