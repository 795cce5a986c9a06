/// A case's state, built before it is measured: ``run(_:)`` performs `count` operations (sends,
/// requests parsed, frames decoded…) and returns a checksum, so that nothing is optimised away.
public protocol BatchOperation: AnyObject {
    func run(_ count: Int) -> Int
}

/// One case of the benchmarks: a named operation, run in batches.
///
/// The same catalog feeds package-benchmark's targets (Benchmarks/StreamCoreBenchmarks and
/// Benchmarks/HTTPServerBenchmarks: wall clock, mallocs, and instructions where the CPU exposes
/// them) and `GateInstructions`, the plain driver that callgrind counts instructions in
/// (scripts/bench-check.sh).
public struct GateCase: Sendable {
    /// Which benchmark target registers it: `StreamCore` or `HTTPServer`.
    public var suite: String
    /// The benchmark's name, `Library.case` (e.g. `StreamCore.chain`, `Router.parameter`).
    public var name: String
    /// Held to the committed thresholds (`make bench-check`). OpenCombine's cases are measured
    /// and printed beside StreamCore's, never gated.
    public var gated: Bool
    /// Builds the case's state (not measured).
    public var make: @Sendable () -> any BatchOperation

    init(_ suite: String, _ name: String, gated: Bool = true, make: @escaping @Sendable () -> any BatchOperation) {
        self.suite = suite
        self.name = name
        self.gated = gated
        self.make = make
    }
}

extension GateCase {
    /// Every case: StreamCore's, each followed by OpenCombine's same case, GithubProxy's cached
    /// lookup, then HTTPServer's (its
    /// codecs and the /ws/pipelines wire codec).
    public static let all: [GateCase] = [
        GateCase("StreamCore", "StreamCore.chain") { StreamCoreCases.Chain() },
        GateCase("StreamCore", "OpenCombine.chain", gated: false) { OpenCombineCases.Chain() },
        GateCase("StreamCore", "StreamCore.map") { StreamCoreCases.Map() },
        GateCase("StreamCore", "OpenCombine.map", gated: false) { OpenCombineCases.Map() },
        GateCase("StreamCore", "StreamCore.subscribeCancel") { StreamCoreCases.SubscribeCancel() },
        GateCase("StreamCore", "OpenCombine.subscribeCancel", gated: false) { OpenCombineCases.SubscribeCancel() },
        GateCase("StreamCore", "StreamCore.switchToLatest") { StreamCoreCases.SwitchToLatest() },
        GateCase("StreamCore", "OpenCombine.switchToLatest", gated: false) { OpenCombineCases.SwitchToLatest() },
        GateCase("StreamCore", "StreamCore.throttle") { StreamCoreCases.Throttle() },
        GateCase("StreamCore", "OpenCombine.throttle", gated: false) { OpenCombineCases.Throttle() },
        GateCase("StreamCore", "StreamCore.fanOut100") { StreamCoreCases.FanOut() },
        GateCase("StreamCore", "OpenCombine.fanOut100", gated: false) { OpenCombineCases.FanOut() },
        // What a disabled `trace` stage after every operator costs (compare with StreamCore.chain;
        // OpenCombine has no `trace`).
        GateCase("StreamCore", "StreamCore.chainTracedOff") { StreamCoreCases.TracedOffChain() },
        // The keystroke pipeline's lookup answered by the cache, on GithubProxy and StreamCore.
        GateCase("StreamCore", "GithubProxy.freshLookup") { GithubProxyCases.FreshLookup() },

        GateCase("HTTPServer", "HTTPRequestParser.browserKeepAlive") { HTTPCases.Parser(request: HTTPCases.browserRequest) },
        GateCase("HTTPServer", "HTTPRequestParser.minimalKeepAlive") { HTTPCases.Parser(request: HTTPCases.minimalRequest) },
        GateCase("HTTPServer", "HTTPResponseSerializer.json") { HTTPCases.Writer() },
        GateCase("HTTPServer", "Router.literal") { HTTPCases.Routes(target: "/healthz") },
        GateCase("HTTPServer", "Router.parameter") { HTTPCases.Routes(target: "/api/users/heckj") },
        GateCase("HTTPServer", "WebSocketFrameDecoder.maskedText64") { WebSocketCases.Decoder() },
        GateCase("HTTPServer", "WebSocketFrameEncoder.text64") { WebSocketCases.Encoder() },
        // The /ws/pipelines codec (PipelineWire): a keystroke's frame read, an event's frame written.
        GateCase("HTTPServer", "PipelineWire.decodeSend") { PipelineWireCases.DecodeSend() },
        GateCase("HTTPServer", "PipelineWire.encodeEvent") { PipelineWireCases.EncodeEvent() },
    ]
}
