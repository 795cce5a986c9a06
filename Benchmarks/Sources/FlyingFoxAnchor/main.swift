// Benchmark anchor: the benchmark routes served by FlyingFox (BSD sockets + Swift concurrency).
//
//   GET /hello   -> 200 text/plain "Hello, World!" (13 bytes)
//   GET /ws/echo -> WebSocket upgrade; every text/binary message is echoed back as received
//
// Usage: FlyingFoxAnchor [--port N]
//   --port N     port on 127.0.0.1 (default 8082)
// FlyingFox has no permessage-deflate. Prints `listening on http://127.0.0.1:PORT` once bound.
// Logging is disabled (its default logger prints a line per request).
import FlyingFox
import FlyingSocks
import Foundation

var port: UInt16 = 8082
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    if argument == "--port", let value = arguments.popFirst(), let parsed = UInt16(value), parsed > 0 {
        port = parsed
    } else {
        print("usage: FlyingFoxAnchor [--port N]")
        exit(2)
    }
}

let helloBody = Data("Hello, World!".utf8)

let server = HTTPServer(
    config: .init(
        address: try .inet(ip4: "127.0.0.1", port: port),
        logger: .disabled
    )
)
await server.appendRoute("GET /hello") { _ in
    HTTPResponse(statusCode: .ok, headers: [.contentType: "text/plain"], body: helloBody)
}
// EchoWSMessageHandler returns the client's message stream as the reply stream: each text or
// binary message goes back as received.
await server.appendRoute("GET /ws/echo", to: WebSocketHTTPHandler(handler: MessageFrameWSHandler(handler: EchoWSMessageHandler())))

let serverTask = Task { try await server.run() }
try await server.waitUntilListening(timeout: 10)
print("listening on http://127.0.0.1:\(port)")
fflush(nil)  // stdout may be a pipe: the scripts wait for this line
try await serverTask.value
