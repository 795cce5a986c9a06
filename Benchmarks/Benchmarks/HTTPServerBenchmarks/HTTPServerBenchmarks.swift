import Benchmark
import BenchmarkGate

// HTTPServer's codecs in memory: request parser, response writer, router, WebSocket frames
// (Sources/GateCases). `swift package benchmark --target HTTPServerBenchmarks` from Benchmarks/.
let benchmarks: @Sendable () -> Void = { Gate.register(suite: "HTTPServer") }
