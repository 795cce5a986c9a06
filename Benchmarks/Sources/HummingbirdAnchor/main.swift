// Benchmark anchor: the benchmark routes served by Hummingbird 2 + hummingbird-websocket.
//
//   GET /hello   -> 200 text/plain "Hello, World!" (13 bytes)
//   GET /ws/echo -> WebSocket upgrade; every text/binary message is echoed back as received
//
// Usage: HummingbirdAnchor [--port N] [--deflate] [--threads N]
//   --port N     port on 127.0.0.1 (default 8081)
//   --deflate    offer permessage-deflate (off by default, like the other servers under test)
//   --threads N  NIO event loop threads (default: NIO's singleton group, one per core)
// Prints `listening on http://127.0.0.1:PORT` once the socket is bound. No per-request logging.
import Foundation
import Hummingbird
import HummingbirdWSCompression
import HummingbirdWebSocket
import Logging
import NIOPosix

struct Options {
    var port = 8081
    var deflate = false
    var threads: Int?

    static func parse(_ args: [String]) -> Options {
        var options = Options()
        var index = 1
        while index < args.count {
            switch args[index] {
            case "--port" where index + 1 < args.count:
                guard let port = Int(args[index + 1]), (1...65535).contains(port) else { usage() }
                options.port = port
                index += 1
            case "--deflate":
                options.deflate = true
            case "--threads" where index + 1 < args.count:
                guard let threads = Int(args[index + 1]), threads > 0 else { usage() }
                options.threads = threads
                index += 1
            default:
                usage()
            }
            index += 1
        }
        return options
    }

    static func usage() -> Never {
        print("usage: HummingbirdAnchor [--port N] [--deflate] [--threads N]")
        exit(2)
    }
}

let options = Options.parse(CommandLine.arguments)
let helloBody = ByteBuffer(string: "Hello, World!")

// One router for plain HTTP and the WebSocket upgrade (its context carries the upgrade handler).
let router = Router(context: BasicWebSocketRequestContext.self)
router.get("hello") { _, _ in
    Response(
        status: .ok,
        headers: [.contentType: "text/plain"],
        body: .init(byteBuffer: helloBody)
    )
}
router.ws("ws/echo") { inbound, outbound, _ in
    for try await message in inbound.messages(maxSize: 1 << 20) {
        switch message {
        case .text(let text): try await outbound.write(.text(text))
        case .binary(let data): try await outbound.write(.binary(data))
        }
    }
}

var logger = Logger(label: "HummingbirdAnchor")
logger.logLevel = .warning

let port = options.port
let app = Application(
    router: router,
    server: .http1WebSocketUpgrade(
        webSocketRouter: router,
        configuration: .init(
            ws: .init(
                maxFrameSize: 1 << 20,
                extensions: options.deflate ? [.perMessageDeflate()] : []
            )
        )
    ),
    configuration: .init(address: .hostname("127.0.0.1", port: port), serverName: "HummingbirdAnchor"),
    onServerRunning: { _ in
        print("listening on http://127.0.0.1:\(port)")
        fflush(nil)  // stdout may be a pipe: the scripts wait for this line
    },
    eventLoopGroupProvider: options.threads.map { .shared(MultiThreadedEventLoopGroup(numberOfThreads: $0)) } ?? .singleton,
    logger: logger
)
try await app.runService()
