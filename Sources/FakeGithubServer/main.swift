import Dispatch
import FakeGithub
import Foundation

// FakeGithub as a standalone process, for scripts (scripts/schemathesis.sh) and manual runs:
//
//     swift run FakeGithubServer --port 0
//     listening on http://127.0.0.1:PORT
//
// Serves the fixtures (heckj, heck, hec) until SIGTERM or SIGINT.

/// `--port N` (0, the default, picks a free port).
func requestedPort(_ arguments: [String]) -> UInt16? {
    guard let index = arguments.firstIndex(of: "--port") else { return 0 }
    guard index + 1 < arguments.count else { return nil }
    return UInt16(arguments[index + 1])
}

guard let port = requestedPort(CommandLine.arguments) else {
    FileHandle.standardError.write(Data("usage: FakeGithubServer [--port N]\n".utf8))
    exit(2)
}
let fake = FakeGithub(port: port)
let url: URL
do {
    url = try fake.start()
} catch {
    FileHandle.standardError.write(Data("FakeGithubServer: cannot listen: \(error)\n".utf8))
    exit(1)
}
FileHandle.standardOutput.write(Data("listening on \(url.absoluteString)\n".utf8))

var sources: [DispatchSourceSignal] = []
for signalNumber in [SIGTERM, SIGINT] {
    signal(signalNumber, SIG_IGN)
    let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .main)
    source.setEventHandler {
        fake.stop()
        exit(0)
    }
    source.resume()
    sources.append(source)
}
dispatchMain()
