// Our HTTPServer serving the anchors' routes: GET /hello (13 bytes) and a WebSocket echo at
// /ws/echo, for scripts/run-all.sh (OURS_CMD). `--port N` (default 8080), `--deflate` to offer
// permessage-deflate (off by default, like the anchors).
import Dispatch
import Foundation
import HTTPServer
import StreamCore
import WebSocketPublishers

let arguments = CommandLine.arguments
let port = arguments.firstIndex(of: "--port").flatMap { UInt16(arguments[$0 + 1]) } ?? 8080
let deflate = arguments.contains("--deflate")
let loops = arguments.firstIndex(of: "--loops").flatMap { Int(arguments[$0 + 1]) } ?? AvailableCores.count

var router = Router()
let hello = Array("Hello, World!".utf8)
router.get("/hello", immediate: { _ in
    HTTPResponse(status: .ok, headers: ["Content-Type": "text/plain"], body: .bytes(hello))
})
let configuration = HTTPServerConfiguration(
    host: "127.0.0.1", port: port, loopCount: loops, maxConnections: 100_000, compression: false,
    webSocket: WebSocketConfiguration(deflate: deflate ? PerMessageDeflateConfiguration() : nil, pingInterval: .zero, idleTimeout: .zero)
)
let server = HTTPServer(configuration: configuration, router: router)
server.webSocket("/ws/echo") { session in session.messages.subscribe(session.outbound) }
let address: SocketAddress
do {
    address = try server.start()
} catch {
    FileHandle.standardError.write(Data("HTTPServerBench: \(error)\n".utf8))
    exit(1)
}
FileHandle.standardOutput.write(Data("listening on http://127.0.0.1:\(address.port)\n".utf8))
dispatchMain()
