// The upstream of the session load benchmark (scripts/session-load.sh): FakeGithub on loopback,
// answering every valid login with a synthetic user after a fixed delay (50 ms by default, the
// head at once and the body when the delay ends), plus a stats endpoint on a second port.
//
//     FakeUpstream [--port N] [--stats-port N] [--delay-ms 50] [--loops 2] [--logins-file PATH]
//
// Prints `listening on http://127.0.0.1:PORT` and `stats on http://127.0.0.1:PORT/__stats`;
// `GET /__stats` answers `{"requests":N,"distinctLogins":N,"connectionsOpened":N,"openConnections":N}`
// (requests counts every request the fake received; distinctLogins the logins asked at least once). SIGINT/SIGTERM print the same JSON and exit.
import Dispatch
import FakeGithub
import Foundation
import HTTPServer
import Logging

/// Writes a line to stdout at once (unbuffered: the script waits for these lines).
func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }

func option(_ name: String, default value: Int) -> Int {
    let arguments = CommandLine.arguments
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count, let number = Int(arguments[index + 1]) else {
        return value
    }
    return number
}

let port = option("--port", default: 0)
let statsPort = option("--stats-port", default: 0)
let delay = option("--delay-ms", default: 50)
let loops = option("--loops", default: 2)

// --logins-file PATH: only these logins (one per line) exist — not even the test fixtures — and
// every other is a 404; else every valid login is found.
let loginsFile: String? = {
    let arguments = CommandLine.arguments
    guard let index = arguments.firstIndex(of: "--logins-file"), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}()
let fake = FakeGithub(port: UInt16(clamping: port), users: loginsFile == nil ? FakeGithubUser.fixtures : [], logCapacity: 0, loopCount: loops)
if let loginsFile {
    guard let text = try? String(contentsOfFile: loginsFile, encoding: .utf8) else {
        FileHandle.standardError.write(Data("FakeUpstream: cannot read \(loginsFile)\n".utf8))
        exit(2)
    }
    for login in text.split(separator: "\n") {
        if let user = FakeGithubUser.synthetic(login: String(login)) { fake.update(user) }
    }
} else {
    fake.answersAnyLogin = true
}
fake.defaultFault = delay > 0 ? .delay(.milliseconds(delay)) : nil

@Sendable func statsJSON() -> String {
    #"{"requests":\#(fake.requestCount),"distinctLogins":\#(fake.distinctLoginsRequested),"connectionsOpened":\#(fake.connectionsOpened),"openConnections":\#(fake.openConnections)}"#
}

var router = Router()
router.get("/__stats", immediate: { _ in HTTPResponse(status: .ok, contentType: "application/json", text: statsJSON()) })
var logger = Logger(label: "fakeupstream-stats")
logger.logLevel = .critical
let stats = HTTPServer(
    configuration: HTTPServerConfiguration(host: "127.0.0.1", port: UInt16(clamping: statsPort), loopCount: 1, drainTimeout: .seconds(1)),
    router: router, logger: logger
)

do {
    let url = try fake.start()
    let statsAddress = try stats.start()
    say("listening on \(url.absoluteString) (\(loginsFile.map { "logins of \($0) found" } ?? "every valid login found"), delay \(delay) ms)")
    say("stats on http://127.0.0.1:\(statsAddress.port)/__stats")
} catch {
    FileHandle.standardError.write(Data("FakeUpstream: cannot start: \(error)\n".utf8))
    exit(1)
}

var signalSources: [DispatchSourceSignal] = []
for signalNumber in [SIGINT, SIGTERM] {
    signal(signalNumber, SIG_IGN)
    let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .main)
    source.setEventHandler {
        say(statsJSON())
        fake.stop()
        exit(0)
    }
    source.resume()
    signalSources.append(source)
}
dispatchMain()
