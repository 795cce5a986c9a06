// Benchmark anchor of the main job (#30): the service's `/ws` github-user pipeline
// (docs/protocol.md: hello, activity and result frames) as a Swift developer would build it
// instead — Hummingbird 2 + hummingbird-websocket, the seed's pipeline on OpenCombine with
// OpenCombineDispatch's DispatchQueue scheduler (one serial queue per session), and
// AsyncHTTPClient to the upstream, with a plain in-memory cache. No fair use, no Redis, no
// upstream gate beyond AsyncHTTPClient's own connection pool, no retries, no request sharing.
//
// Usage: HummingbirdPipelineAnchor --github-api-url URL [--host 127.0.0.1] [--port 0]
//            [--throttle-ms 500] [--min-length 3] [--upstream-connections N]
//   --upstream-connections N  AsyncHTTPClient's connections per host (its default: 8); the load
//                             script passes the service's upstream.maxConcurrentRequests.
// Logs `listening on http://HOST:PORT` (swift-log, standard error) once the socket is bound.
// Loopback benchmark use only (scripts/session-load.sh with ANCHOR=1).
import AsyncHTTPClient
import Foundation
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore

struct Options {
    var host = "127.0.0.1"
    var port = 0
    var githubAPIURL = ""
    var throttleMs = 500
    var minLength = 3
    var upstreamConnections = 8

    static func parse(_ args: [String]) -> Options {
        var options = Options()
        var index = 1
        func value() -> String {
            guard index + 1 < args.count else { usage() }
            index += 1
            return args[index]
        }
        func number(_ range: ClosedRange<Int>) -> Int {
            guard let number = Int(value()), range.contains(number) else { usage() }
            return number
        }
        while index < args.count {
            switch args[index] {
            case "--host": options.host = value()
            case "--port": options.port = number(0...65535)
            case "--github-api-url": options.githubAPIURL = value()
            case "--throttle-ms": options.throttleMs = number(0...60_000)
            case "--min-length": options.minLength = number(0...39)
            case "--upstream-connections": options.upstreamConnections = number(1...100_000)
            default: usage()
            }
            index += 1
        }
        guard options.githubAPIURL.hasPrefix("http://") || options.githubAPIURL.hasPrefix("https://") else { usage() }
        while options.githubAPIURL.hasSuffix("/") { options.githubAPIURL.removeLast() }
        return options
    }

    static func usage() -> Never {
        FileHandle.standardError.write(Data("""
            usage: HummingbirdPipelineAnchor --github-api-url URL [--host H] [--port N] [--throttle-ms N] \
            [--min-length N] [--upstream-connections N]

            """.utf8))
        exit(2)
    }
}

let options = Options.parse(CommandLine.arguments)
var logger = Logger(label: "HummingbirdPipelineAnchor")
logger.logLevel = .info

var clientConfiguration = HTTPClient.Configuration(timeout: .init(connect: .seconds(5), read: .seconds(10)))
clientConfiguration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: options.upstreamConnections)
// On NIO's singleton event loop group, which the Hummingbird server below also runs on.
let httpClient = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: clientConfiguration)
let api = GithubAPI(
    client: httpClient, baseURL: options.githubAPIURL, minLength: options.minLength,
    cache: UserCache(ttl: .seconds(60)), timeout: .seconds(10)
)
let hello: String = {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    let data = (try? encoder.encode(HelloEvent(throttleMs: options.throttleMs, minLength: options.minLength))) ?? Data()
    return String(decoding: data, as: UTF8.self)
}()
let throttleMs = options.throttleMs

let router = Router(context: BasicWebSocketRequestContext.self)
router.ws("ws") { [api, hello, throttleMs] inbound, outbound, _ in
    // The pipeline writes from its queue; one task writes to the socket in that order.
    let (events, continuation) = AsyncStream.makeStream(of: String.self)
    continuation.yield(hello)
    let session = GithubUserSession(api: api, throttleMs: throttleMs) { continuation.yield($0) }
    try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask {
            for await event in events { try await outbound.write(.text(event)) }
        }
        defer {
            session.cancel()
            continuation.finish()
        }
        for try await message in inbound.messages(maxSize: 1 << 20) {
            switch message {
            case .text(let text):
                session.receive(text)
            case .binary:
                try await outbound.close(.unacceptableData, reason: "text frames only")
                return
            }
        }
    }
}

let app = Application(
    router: router,
    server: .http1WebSocketUpgrade(webSocketRouter: router, configuration: .init(ws: .init(maxFrameSize: 1 << 20))),
    configuration: .init(address: .hostname(options.host, port: options.port), serverName: "HummingbirdPipelineAnchor"),
    onServerRunning: { [logger, host = options.host] channel in
        logger.info("listening on http://\(host):\(channel.localAddress?.port ?? 0)")
    },
    logger: logger
)
try await app.runService()
try await httpClient.shutdown().get()
