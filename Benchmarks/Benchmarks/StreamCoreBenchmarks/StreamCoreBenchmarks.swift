import Benchmark
import BenchmarkGate

// StreamCore's operators, each case beside OpenCombine's same case (Sources/GateCases).
// `swift package benchmark --target StreamCoreBenchmarks` from Benchmarks/; make bench-check gates StreamCore's.
let benchmarks: @Sendable () -> Void = { Gate.register(suite: "StreamCore") }
