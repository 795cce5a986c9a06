import Benchmark
import Foundation
import GateCases

/// Registers the catalog's cases (``GateCase/all``) with package-benchmark.
///
/// Every case runs ``operationsPerIteration`` operations an iteration, and package-benchmark's
/// scaling factor reports its figures per operation. A gated case's mallocs are held to the
/// committed thresholds (`Thresholds/`) by `swift package benchmark thresholds check`, allowing
/// at most 50 more per iteration (0.05 per operation: a new allocation per operation is 1,000
/// more; the slack is for amortised growth that another allocator may spread differently); with `BENCHMARK_GATE=1` (scripts/bench-check.sh) only mallocs are measured,
/// so that the committed files hold only them. Instructions are counted apart, by callgrind in
/// `GateInstructions`: these machines' virtual CPUs give package-benchmark no hardware counters.
public enum Gate {
    public static let operationsPerIteration = 1_000

    /// Registers every case of `suite`.
    public static func register(suite: String) {
        let mallocsOnly = ProcessInfo.processInfo.environment["BENCHMARK_GATE"] == "1"
        for gateCase in GateCase.all where gateCase.suite == suite {
            let configuration = Benchmark.Configuration(
                metrics: mallocsOnly ? [.mallocCountTotal] : [.instructions, .mallocCountTotal, .wallClock],
                warmupIterations: 10,
                scalingFactor: .kilo,
                maxDuration: .seconds(1),
                maxIterations: 1_000,
                skip: mallocsOnly && !gateCase.gated,
                thresholds: gateCase.gated ? [.mallocCountTotal: BenchmarkThresholds(absolute: [.p90: 50])] : [:]
            )
            Benchmark(gateCase.name, configuration: configuration) { benchmark in
                let operation = gateCase.make()
                benchmark.startMeasurement()
                let checksum = operation.run(operationsPerIteration)
                benchmark.stopMeasurement()
                blackHole(checksum)
            }
        }
    }
}
